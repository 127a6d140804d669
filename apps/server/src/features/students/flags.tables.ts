import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { children } from './students.tables.ts';

export const FLAG_KINDS = ['medical', 'allergy', 'behaviour', 'photo_consent_withheld', 'custom'] as const;

/** A company-defined flag (SPEC flags): what staff and coaches should know at a glance. */
export const flags = pgTable(
  'flags',
  {
    ...tenantKey(),
    name: text().notNull(),
    kind: text({ enum: FLAG_KINDS }).notNull().default('custom'),
    /** #rrggbb, the dot on the roll. */
    colour: text().notNull().default('#e8590c'),
    showOnRoll: boolean().notNull().default(true),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('flags_company').on(t.companyId, t.name)],
);

/** A flag applied to one child or to one family (a family's flag shows on each of its children). */
export const flagAssignments = pgTable(
  'flag_assignments',
  {
    ...tenantKey(),
    flagId: integer()
      .notNull()
      .references(() => flags.id),
    childId: integer().references(() => children.id),
    /** The family: its parent user. */
    parentId: integer().references(() => users.id),
    note: text(),
    appliedById: integer()
      .notNull()
      .references(() => users.id),
    appliedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('flag_assignments_child').on(t.companyId, t.childId),
    index('flag_assignments_parent').on(t.companyId, t.parentId),
    check('flag_assignments_one_target', sql`(${t.childId} is null) <> (${t.parentId} is null)`),
  ],
);
