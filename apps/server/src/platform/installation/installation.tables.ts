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
  /** Module keys of platform/modules.ts the plan includes. */
  modules: text().array().notNull().default([]),
  /** The most children / staff users a company on this plan may have; null: no limit. */
  maxChildren: integer(),
  maxStaff: integer(),
  trialDays: integer().notNull().default(0),
  /** The installation's Stripe Price (recurring, monthly) that bills this plan; null: not billed through Stripe. */
  stripePriceId: text(),
  archivedAt: timestamp({ withTimezone: true }),
});
