import { boolean, date, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';

/** A parent's child (SPEC.md point 3: Child). */
export const children = pgTable(
  'children',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    firstName: text().notNull(),
    lastName: text().notNull(),
    dob: date().notNull(),
    /** Photo consent. */
    consent: boolean().notNull().default(false),
    /** Medical conditions and allergies the family told us about; the class roll shows them to coaches. */
    medicalNotes: text(),
    /** The family's usual insurance choice, offered first at checkout. */
    insuranceType: text({ enum: ['daily_insurance', 'full_insurance'] }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('children_parent').on(t.companyId, t.parentId)],
);
