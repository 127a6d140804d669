import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { bookings } from '../bookings/bookings.tables.ts';
import { termClasses } from '../classes/classes.tables.ts';
import { children } from '../students/students.tables.ts';

/** Who a task is for when it names no person: a staff role, or the family it links to. */
export const TASK_ROLES = ['companyadmin', 'companystaff', 'companycoach', 'family'] as const;

/**
 * A to-do (SPEC tasks): for a staff user, for everyone of a staff role, or for the family (the
 * parent completes it in their account, SPEC students/tasks). Optionally about a child, a family,
 * a class or a booking.
 */
export const tasks = pgTable(
  'tasks',
  {
    ...tenantKey(),
    title: text().notNull(),
    notes: text(),
    /** A staff user; null when the task is for a role or the family. */
    assigneeId: integer().references(() => users.id),
    /** Set when no staff user is named: 'family' (the linked family) or a staff role. */
    assigneeRole: text({ enum: TASK_ROLES }),
    dueDate: date(),
    status: text({ enum: ['open', 'done'] })
      .notNull()
      .default('open'),
    doneAt: timestamp({ withTimezone: true }),
    doneById: integer().references(() => users.id),
    childId: integer().references(() => children.id),
    /** The family (its parent user). */
    parentId: integer().references(() => users.id),
    termClassId: integer().references(() => termClasses.id),
    bookingId: integer().references(() => bookings.id),
    /** The task list it came from, if any. */
    taskListId: integer().references(() => taskLists.id),
    createdById: integer().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('tasks_company_status').on(t.companyId, t.status, t.dueDate),
    index('tasks_assignee').on(t.companyId, t.assigneeId),
    index('tasks_parent').on(t.companyId, t.parentId),
    index('tasks_child').on(t.companyId, t.childId),
    check('tasks_someone', sql`${t.assigneeId} is not null or ${t.assigneeRole} is not null`),
    check(
      'tasks_family_named',
      sql`${t.assigneeRole} is distinct from 'family' or ${t.parentId} is not null`,
    ),
  ],
);

/** A template (SPEC task-lists), e.g. "New family", whose items become tasks for one family at once. */
export const taskLists = pgTable('task_lists', {
  ...tenantKey(),
  name: text().notNull(),
  archivedAt: timestamp({ withTimezone: true }),
});

export const taskListItems = pgTable(
  'task_list_items',
  {
    ...tenantKey(),
    taskListId: integer()
      .notNull()
      .references(() => taskLists.id),
    title: text().notNull(),
    notes: text(),
    /** Days after the day the list is applied (the company's today); 0 = due that day. */
    dueDays: integer().notNull().default(0),
    assigneeRole: text({ enum: TASK_ROLES }).notNull().default('companystaff'),
    position: integer().notNull().default(0),
  },
  (t) => [index('task_list_items_list').on(t.companyId, t.taskListId)],
);
