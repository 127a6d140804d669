import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../../features/accounts/accounts.tables.ts';

/** Checkouts of the `test` provider: the local card page of the demo and the tests. */
export const testCheckouts = pgTable('test_checkouts', {
  id: text().primaryKey(),
  companyId: integer()
    .notNull()
    .references(() => companies.id),
  reference: text().notNull(),
  amount: integer().notNull(),
  currency: text().notNull(),
  description: text().notNull(),
  returnUrl: text().notNull(),
  status: text({ enum: ['open', 'paid', 'expired'] })
    .notNull()
    .default('open'),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
