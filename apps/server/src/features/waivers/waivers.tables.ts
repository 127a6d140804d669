import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { children } from '../students/students.tables.ts';

/** A waiver template. Editing the body raises `version`: parents sign again for the new text. */
export const waivers = pgTable(
  'waivers',
  {
    ...tenantKey(),
    title: text().notNull(),
    body: text().notNull(),
    appliesTo: text({ enum: ['events', 'parties', 'classes', 'all'] })
      .notNull()
      .default('all'),
    /** Child details the form asks for. */
    askFields: text().array().notNull().default([]),
    version: integer().notNull().default(1),
    active: boolean().notNull().default(true),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('waivers_company').on(t.companyId)],
);

/** PostgreSQL bytea as a Buffer (the signature image). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * A waiver as signed: the template's text at that moment, the child's details, the drawn signature
 * (PNG), who signed, when and from where. Rows never change: a trigger in migration 0008 refuses
 * UPDATE and DELETE, and `contentHash` (sha256 of everything signed) lets anyone check a copy.
 */
export const signedWaivers = pgTable(
  'signed_waivers',
  {
    ...tenantKey(),
    waiverId: integer()
      .notNull()
      .references(() => waivers.id),
    waiverVersion: integer().notNull(),
    waiverTitle: text().notNull(),
    bodyHtml: text().notNull(),
    /**
     * The child signed for: a parent's child, or a party guest (exactly one). No foreign key to the
     * guest: the guest list can be edited, the evidence must stay.
     */
    childId: integer().references(() => children.id),
    partyGuestId: integer(),
    /** The parent account that owns the child (null for party guests, who have no account). */
    parentId: integer().references(() => users.id),
    childFirstName: text().notNull(),
    childLastName: text().notNull(),
    childDob: date().notNull(),
    /** Answers to the template's extra questions (medical, allergies, emergency_contact, photo_consent). */
    answers: jsonb().$type<Record<string, string | boolean>>().notNull(),
    signerName: text().notNull(),
    signerEmail: text(),
    signaturePng: bytea().notNull(),
    signedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    ip: text().notNull(),
    userAgent: text().notNull(),
    contentHash: text().notNull(),
  },
  (t) => [
    index('signed_waivers_child').on(t.companyId, t.childId, t.waiverId, t.waiverVersion),
    index('signed_waivers_guest_email').on(t.companyId, t.signerEmail),
    check('signed_waivers_one_person', sql`(${t.childId} is null) <> (${t.partyGuestId} is null)`),
  ],
);

/**
 * Which signed waiver covers which person on which booking. `subject` names the person and booking
 * (`event:<booking id>:<child id>`, `party:<party booking id>:<child id>`, `guest:<guest id>`); a
 * re-signed waiver (new template version) replaces the row's waiver.
 */
export const waiverUses = pgTable(
  'waiver_uses',
  {
    ...tenantKey(),
    subject: text().notNull(),
    signedWaiverId: integer()
      .notNull()
      .references(() => signedWaivers.id),
    usedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('waiver_uses_subject').on(t.companyId, t.subject)],
);
