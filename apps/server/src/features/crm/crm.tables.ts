import { date, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies, tenantKey, users } from '../accounts/accounts.tables.ts';

/** A child named on a contact: a name and an age in years, or a date of birth when known. */
export interface ContactChild {
  name: string;
  age: number | null;
  dob: string | null;
}

/** A stage of the company's pipeline; converting a lead moves it to the (one) 'won' stage. */
export interface CrmStage {
  name: string;
  kind: 'open' | 'won' | 'lost';
}

/**
 * The company's CRM settings (SPEC settings/crm): lead sources and stages, in order. No row means
 * the defaults of crm.service.ts (a read never writes them); the first save makes the row.
 */
export const crmSettings = pgTable('crm_settings', {
  companyId: integer()
    .primaryKey()
    .references(() => companies.id),
  sources: jsonb().$type<string[]>().notNull(),
  stages: jsonb().$type<CrmStage[]>().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * An enquiry or a lead (SPEC contacts): a parent who is not a family yet. `source` and `stage` are
 * names from the company's settings at the time (renaming a source later keeps the old word on old
 * contacts). Converting makes the family and sets `parentId` and `convertedAt`.
 */
export const contacts = pgTable(
  'contacts',
  {
    ...tenantKey(),
    fullName: text().notNull(),
    /** Lower-cased; null when staff only have a phone number. */
    email: text(),
    phone: text(),
    children: jsonb().$type<ContactChild[]>().notNull().default([]),
    /** A class type's name or the parent's own words, e.g. "Ninja for a 6 year old". */
    interest: text(),
    source: text().notNull(),
    stage: text().notNull(),
    /** YYYY-MM-DD in the company's time zone: the day someone should get back to them. */
    followUpOn: date(),
    /** The family (its parent user) the lead became. */
    parentId: integer().references(() => users.id),
    convertedAt: timestamp({ withTimezone: true }),
    createdById: integer().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('contacts_company_stage').on(t.companyId, t.stage),
    index('contacts_company_follow_up').on(t.companyId, t.followUpOn),
    index('contacts_parent').on(t.companyId, t.parentId),
  ],
);

/** The dated log of a contact: staff notes, the enquiry's message, "Converted to a family". */
export const contactNotes = pgTable(
  'contact_notes',
  {
    ...tenantKey(),
    contactId: integer()
      .notNull()
      .references(() => contacts.id),
    body: text().notNull(),
    /** Staff who wrote it; null for the public enquiry form. */
    authorId: integer().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_notes_contact').on(t.companyId, t.contactId)],
);
