import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { children } from '../students/students.tables.ts';
import { classEnrolments, termClasses, terms } from './classes.tables.ts';

/**
 * One re-enrolment run (SPEC students/re-enroll): term A's enrolled places held in term B's classes
 * until `deadline` (the priority window). `total` and `done` are the items to write and written so
 * far, which the staff screen polls. One live run per pair of terms: committing again resumes or
 * reuses it, never a second one; `undone` runs let a new run start.
 */
export const rollovers = pgTable(
  'rollovers',
  {
    ...tenantKey(),
    fromTermId: integer()
      .notNull()
      .references(() => terms.id),
    toTermId: integer()
      .notNull()
      .references(() => terms.id),
    deadline: timestamp({ withTimezone: true }).notNull(),
    status: text({ enum: ['running', 'done', 'undone'] })
      .notNull()
      .default('running'),
    total: integer().notNull().default(0),
    done: integer().notNull().default(0),
    createdBy: integer().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true }),
    undoneAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('rollovers_live_pair')
      .on(t.companyId, t.fromTermId, t.toTermId)
      .where(sql`status <> 'undone'`),
    index('rollovers_to_term').on(t.companyId, t.toTermId),
  ],
);

/**
 * One place a run held: term A's enrolment `fromEnrolmentId` rolled into `toEnrolmentId` (a
 * `class_enrolments` row of term B, whose status is the item's state: held, confirmed, released).
 * `holdToken` is the family's (one per parent and run). A place is rolled into a term once while
 * its run is live (`rollover_items_once`).
 */
export const rolloverItems = pgTable(
  'rollover_items',
  {
    ...tenantKey(),
    rolloverId: integer()
      .notNull()
      .references(() => rollovers.id),
    fromEnrolmentId: integer()
      .notNull()
      .references(() => classEnrolments.id),
    toEnrolmentId: integer()
      .notNull()
      .references(() => classEnrolments.id),
    toTermId: integer()
      .notNull()
      .references(() => terms.id),
    toClassId: integer()
      .notNull()
      .references(() => termClasses.id),
    childId: integer()
      .notNull()
      .references(() => children.id),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    holdToken: text().notNull(),
    undoneAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('rollover_items_once')
      .on(t.companyId, t.fromEnrolmentId, t.toTermId)
      .where(sql`undone_at is null`),
    index('rollover_items_run').on(t.companyId, t.rolloverId),
    index('rollover_items_parent').on(t.companyId, t.parentId),
  ],
);
