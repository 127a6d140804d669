import { boolean, date, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';

/** Someone to call about a child when the parent cannot be reached (at most 3 per child). */
export interface EmergencyContact {
  name: string;
  relationship: string;
  phone: string;
}

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
    /**
     * Photo consent (SPEC.md point 3: `consent`, 0/1 photo consent): the one photo-consent flag;
     * the staff Students screen edits this same column as "photo consent".
     */
    consent: boolean().notNull().default(false),
    /** Medical conditions and allergies the family told us about; the class roll shows them to coaches. */
    medicalNotes: text(),
    /** The family's usual insurance choice, offered first at checkout. */
    insuranceType: text({ enum: ['daily_insurance', 'full_insurance'] }),
    /** Allergies the family told us about (the medical notes keep conditions). */
    allergies: text(),
    emergencyContacts: jsonb().$type<EmergencyContact[]>().notNull().default([]),
    school: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('children_parent').on(t.companyId, t.parentId),
    // The staff Students screen searches children by name (ILIKE '%…%'; pg_trgm).
    index('children_first_name_trgm').using('gin', t.firstName.op('gin_trgm_ops')),
    index('children_last_name_trgm').using('gin', t.lastName.op('gin_trgm_ops')),
  ],
);
