import { integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey } from '../accounts/accounts.tables.ts';
import { children } from '../students/students.tables.ts';
import { enrolmentPurchases } from './enrolments.tables.ts';

/**
 * The NSW Active and Creative Kids voucher used against a child's class fees: one per child per
 * voucher period (a calendar half-year, `2027-H1`). The unique index decides between two checkouts
 * for one child at once; the row goes when its purchase is released unpaid.
 */
export const enrolmentVouchers = pgTable(
  'enrolment_vouchers',
  {
    ...tenantKey(),
    childId: integer()
      .notNull()
      .references(() => children.id),
    period: text().notNull(),
    code: text().notNull(),
    purchaseId: integer()
      .notNull()
      .references(() => enrolmentPurchases.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('enrolment_vouchers_child_period').on(t.companyId, t.childId, t.period)],
);
