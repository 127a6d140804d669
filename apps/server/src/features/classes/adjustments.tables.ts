import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { children } from '../students/students.tables.ts';
import { classEnrolments, termClasses } from './classes.tables.ts';

/**
 * Money a staff change to an enrolment leaves owing either way (SPEC class-payments): a `charge`
 * to invoice (staff enrolled a child, or moved them to a dearer class), a `credit` the family
 * keeps (a cheaper class, a withdrawal under the credit policy), a `refund_due` staff pay back
 * (a withdrawal under the refund policy). The billing issue turns charges into invoice lines and
 * refunds into real refunds; until then staff read them here and mark refunds done.
 * `amount` is positive cents; `kind` says which way it goes.
 */
export const enrolmentAdjustments = pgTable(
  'enrolment_adjustments',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    childId: integer()
      .notNull()
      .references(() => children.id),
    /** The child's name when the adjustment was made (the list shows it as it was). */
    childName: text().notNull(),
    termClassId: integer()
      .notNull()
      .references(() => termClasses.id),
    enrolmentId: integer()
      .notNull()
      .references(() => classEnrolments.id),
    kind: text({ enum: ['charge', 'credit', 'refund_due'] }).notNull(),
    amount: integer().notNull(),
    reason: text().notNull(),
    /** `open`: to invoice, to credit or to refund; `done`: staff paid the refund back. */
    status: text({ enum: ['open', 'done'] })
      .notNull()
      .default('open'),
    createdBy: integer().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('enrolment_adjustments_company').on(t.companyId, t.status, t.createdAt),
    index('enrolment_adjustments_parent').on(t.companyId, t.parentId),
  ],
);
