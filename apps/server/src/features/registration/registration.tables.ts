import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';

/** A question a registration form asks the family, per child. */
export interface FormQuestion {
  /** Stable key of the answer (`medical_notes`, `school`, or `custom_<n>`). */
  key: string;
  label: string;
  kind: 'medical_notes' | 'allergies' | 'emergency_contact' | 'school' | 'heard_about_us' | 'custom';
  required: boolean;
}

/**
 * A registration form (SPEC registration-forms): the parent's way into classes. `key` names it in
 * the public link (`/registration/?f=<key>&authhash=…`).
 */
export const registrationForms = pgTable(
  'registration_forms',
  {
    ...tenantKey(),
    key: text().notNull(),
    name: text().notNull(),
    /** Sanitized HTML shown above the class finder. */
    intro: text(),
    termIds: integer().array().notNull().default([]),
    /** Empty: every class type. */
    classTypeIds: integer().array().notNull().default([]),
    /** Only children of this age (whole months) on the term's first day; null: no limit. */
    ageMinMonths: integer(),
    ageMaxMonths: integer(),
    /**
     * The questions as staff pick them on the form (`askQuestions`, `requiredQuestions`: standard
     * kinds; `customQuestions`: one per line, a trailing `*` makes it required); `questions` is
     * what they make, written on every save (registration.resource.ts).
     */
    askQuestions: text().array().notNull().default([]),
    requiredQuestions: text().array().notNull().default([]),
    customQuestions: text(),
    questions: jsonb().$type<FormQuestion[]>().notNull().default([]),
    waiverId: integer(),
    paymentTermsId: integer(),
    trialsOffered: boolean().notNull().default(false),
    /** `card`: pay now by card. `invoice` arrives with the billing issue. */
    payment: text({ enum: ['card'] })
      .notNull()
      .default('card'),
    published: boolean().notNull().default(true),
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('registration_forms_key').on(t.companyId, t.key)],
);

/**
 * A submission that needs a staff decision (SPEC registration-forms anomalies). `open` until staff
 * take its one action.
 */
export const registrationAnomalies = pgTable(
  'registration_anomalies',
  {
    ...tenantKey(),
    formId: integer().references(() => registrationForms.id),
    kind: text({
      enum: [
        'age_outside_range',
        'possible_duplicate_child',
        'family_signed_up_twice',
        'payment_failed',
        'class_full_waitlisted',
      ],
    }).notNull(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    childId: integer(),
    termClassId: integer(),
    /** The class enrolment purchase it came from, when there was one. */
    purchaseId: integer(),
    /** The other child or purchase it looks like (a duplicate, the earlier sign-up). */
    otherId: integer(),
    detail: text().notNull(),
    status: text({ enum: ['open', 'resolved'] })
      .notNull()
      .default('open'),
    resolution: text(),
    resolvedBy: integer().references(() => users.id),
    resolvedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('registration_anomalies_open').on(t.companyId, t.status, t.createdAt)],
);

/** The website origins allowed to embed a company's registration forms (CSP `frame-ancestors`). */
export const embedOrigins = pgTable(
  'embed_origins',
  {
    ...tenantKey(),
    /** `https://www.example.com.au`: scheme, host and port only. */
    origin: text().notNull(),
  },
  (t) => [uniqueIndex('embed_origins_origin').on(t.companyId, t.origin)],
);
