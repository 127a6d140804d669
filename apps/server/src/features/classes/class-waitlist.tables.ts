import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { children } from '../students/students.tables.ts';
import { classEnrolments, termClasses } from './classes.tables.ts';

/**
 * A child waiting for a place in a full class (issue 14). Waiting takes no place. Children a parent
 * joined together share a `householdKey` and are offered places only when all fit, unless
 * `anyNumber`. An offer is a pending `class_enrolments` row (`enrolmentId`, heldFor `offer`):
 * `offered` until it is paid (`accepted`), declined or lapses (`expired`).
 */
export const classWaitlist = pgTable(
  'class_waitlist',
  {
    ...tenantKey(),
    termClassId: integer()
      .notNull()
      .references(() => termClasses.id),
    childId: integer()
      .notNull()
      .references(() => children.id),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    householdKey: text().notNull(),
    /** The parent takes any number of places for the household's children, not only all of them. */
    anyNumber: boolean().notNull().default(false),
    source: text({ enum: ['public', 'staff'] }).notNull(),
    status: text({ enum: ['waiting', 'offered', 'accepted', 'declined', 'expired', 'removed'] })
      .notNull()
      .default('waiting'),
    /** The held place of the current offer. */
    enrolmentId: integer().references(() => classEnrolments.id),
    offeredAt: timestamp({ withTimezone: true }),
    offerExpiresAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('class_waitlist_class').on(t.companyId, t.termClassId, t.status, t.createdAt),
    index('class_waitlist_enrolment').on(t.companyId, t.enrolmentId),
  ],
);

/**
 * A trial whose session has ended and whose family was followed up (once): `holdEnrolmentId` is the
 * place held for them with the "Enrol" link (heldFor `trial_conversion`), null when the class had
 * no free place. The trial converted when that place became active.
 */
export const trialFollowUps = pgTable(
  'trial_follow_ups',
  {
    ...tenantKey(),
    trialEnrolmentId: integer()
      .notNull()
      .references(() => classEnrolments.id),
    holdEnrolmentId: integer().references(() => classEnrolments.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('trial_follow_ups_trial').on(t.companyId, t.trialEnrolmentId)],
);
