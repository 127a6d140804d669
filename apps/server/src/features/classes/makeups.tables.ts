import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey } from '../accounts/accounts.tables.ts';
import { children } from '../students/students.tables.ts';
import { classEnrolments, classSessions, classTypes, terms } from './classes.tables.ts';

/**
 * A child's makeup credit (SPEC students/absence-day): one missed session, to be made up in a
 * session of the same class type and level until `expiresOn` (inclusive, company time zone).
 * `absence`: the parent marked the child absent before the cutoff (counts toward the class type's
 * cap per term); `cancelled`: the gym cancelled the session (never capped). A credit is used by one
 * makeup place (`usedEnrolmentId`); `revokedAt` marks one taken back (the absence was undone, or
 * the roll says the child came after all). One live credit per child and missed session.
 */
export const makeupCredits = pgTable(
  'makeup_credits',
  {
    ...tenantKey(),
    childId: integer()
      .notNull()
      .references(() => children.id),
    reason: text({ enum: ['absence', 'cancelled'] }).notNull(),
    /** The session missed. */
    sessionId: integer()
      .notNull()
      .references(() => classSessions.id),
    termId: integer()
      .notNull()
      .references(() => terms.id),
    classTypeId: integer()
      .notNull()
      .references(() => classTypes.id),
    /** The level of the class missed (the class's own, else its type's); null: no level. */
    level: text(),
    expiresOn: date().notNull(),
    usedAt: timestamp({ withTimezone: true }),
    usedEnrolmentId: integer().references(() => classEnrolments.id),
    revokedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('makeup_credits_child').on(t.companyId, t.childId, t.expiresOn),
    uniqueIndex('makeup_credits_live')
      .on(t.companyId, t.childId, t.sessionId)
      .where(sql`${t.revokedAt} is null`),
    index('makeup_credits_enrolment').on(t.companyId, t.usedEnrolmentId),
  ],
);
