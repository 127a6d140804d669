import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The plans the installation offers companies (issue 20: resources that belong to the
 * installation, not to a company). No `company_id`: see `scope: 'installation'` in
 * platform/resources/define.ts.
 */
export const plans = pgTable('plans', {
  id: serial().primaryKey(),
  name: text().notNull().unique(),
  /** Cents a month. */
  monthlyPrice: integer().notNull().default(0),
  archivedAt: timestamp({ withTimezone: true }),
});
