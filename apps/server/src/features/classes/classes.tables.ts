import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  text,
  time,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { coaches } from '../coaches/coaches.tables.ts';
import { children } from '../students/students.tables.ts';
import { uniformTypes } from '../uniforms/uniforms.tables.ts';
import { rooms, venues } from '../venues/venues.tables.ts';

/** What a class is (Kinder Gym, Level 2 Girls, Ninja Kids): the defaults its classes start from. */
export const classTypes = pgTable(
  'class_types',
  {
    ...tenantKey(),
    name: text().notNull(),
    /** Sanitized HTML. */
    description: text(),
    level: text(),
    /** Age range in whole months (3 years 6 months = 42); null: no limit. */
    ageMinMonths: integer(),
    ageMaxMonths: integer(),
    defaultDurationMinutes: integer().notNull().default(60),
    /** #rrggbb, shown on the timetable. */
    colour: text(),
    capacityDefault: integer().notNull().default(10),
    /** `per_session`: `price` per session attended; `term`: `price` for the whole term. Cents. */
    pricingModel: text({ enum: ['per_session', 'term'] })
      .notNull()
      .default('per_session'),
    price: integer().notNull().default(0),
    /** GST-free on tax invoices (e.g. some education services); otherwise the price includes GST. */
    gstFree: boolean().notNull().default(false),
    trialAllowed: boolean().notNull().default(false),
    trialPrice: integer(),
    makeupAllowed: boolean().notNull().default(false),
    /** `days`: a makeup credit lasts `makeupExpiryDays`; `end_of_term`: until the term ends. */
    makeupExpiry: text({ enum: ['days', 'end_of_term'] }),
    makeupExpiryDays: integer(),
    makeupCapPerTerm: integer(),
    gst: text({ enum: ['taxable', 'gst_free'] })
      .notNull()
      .default('taxable'),
    uniformTypeId: integer().references(() => uniformTypes.id),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('class_types_company').on(t.companyId, t.name)],
);

/** A school-term-shaped block of weeks classes run in. */
export const terms = pgTable(
  'terms',
  {
    ...tenantKey(),
    name: text().notNull(),
    startDate: date().notNull(),
    endDate: date().notNull(),
    /** The state or territory whose school calendar filled it (NSW, VIC, …); null: typed by hand. */
    region: text(),
    /** Enrolled families re-enrol from here; everyone else from `publicEnrolmentOpensAt`. */
    priorityEnrolmentOpensAt: timestamp({ withTimezone: true }),
    publicEnrolmentOpensAt: timestamp({ withTimezone: true }),
    status: text({ enum: ['draft', 'open', 'closed'] })
      .notNull()
      .default('draft'),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('terms_company').on(t.companyId, t.startDate)],
);

/**
 * A day or range inside a term without classes: `closed` (no session, no charge) or `billing_only`
 * (sessions run but the day is not charged).
 */
export const termClosures = pgTable(
  'term_closures',
  {
    ...tenantKey(),
    termId: integer()
      .notNull()
      .references(() => terms.id),
    startDate: date().notNull(),
    endDate: date().notNull(),
    reason: text().notNull(),
    kind: text({ enum: ['closed', 'billing_only'] })
      .notNull()
      .default('closed'),
  },
  (t) => [index('term_closures_term').on(t.companyId, t.termId, t.startDate)],
);

/** A class running weekly in a term: Tuesday 4pm Kinder Gym in Room 1 with its coaches. */
export const termClasses = pgTable(
  'term_classes',
  {
    ...tenantKey(),
    termId: integer()
      .notNull()
      .references(() => terms.id),
    classTypeId: integer()
      .notNull()
      .references(() => classTypes.id),
    name: text().notNull(),
    /** ISO weekday: 1 Monday … 7 Sunday. */
    weekday: integer().notNull(),
    startTime: time().notNull(),
    durationMinutes: integer().notNull(),
    venueId: integer().references(() => venues.id),
    roomId: integer().references(() => rooms.id),
    leadCoachId: integer().references(() => coaches.id),
    assistantCoachIds: integer().array().notNull().default([]),
    capacity: integer().notNull(),
    /** Defaults from the class type; null: the type's. */
    ageMinMonths: integer(),
    ageMaxMonths: integer(),
    level: text(),
    /** Cents; null: the class type's price. */
    priceOverride: integer(),
    status: text({ enum: ['active', 'cancelled'] })
      .notNull()
      .default('active'),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('term_classes_term').on(t.companyId, t.termId, t.weekday, t.startTime)],
);

/**
 * One dated occurrence of a term class, generated from its weekday across the term (company time
 * zone). `slotDate` is the day the generator gave it and identifies it when sessions are generated
 * again; `editedAt` marks a session staff moved, cancelled or re-coached by hand, which
 * regeneration keeps as it is.
 */
export const classSessions = pgTable(
  'class_sessions',
  {
    ...tenantKey(),
    termClassId: integer()
      .notNull()
      .references(() => termClasses.id),
    slotDate: date().notNull(),
    date: date().notNull(),
    startTime: time().notNull(),
    durationMinutes: integer().notNull(),
    roomId: integer().references(() => rooms.id),
    /** Who coaches this session: the class's lead coach, or a substitute. */
    coachId: integer().references(() => coaches.id),
    status: text({ enum: ['scheduled', 'cancelled'] })
      .notNull()
      .default('scheduled'),
    cancelReason: text(),
    editedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('class_sessions_slot').on(t.companyId, t.termClassId, t.slotDate),
    index('class_sessions_day').on(t.companyId, t.date, t.startTime),
    index('class_sessions_coach').on(t.companyId, t.coachId, t.date),
  ],
);

/**
 * A child's place in a class: `enrolled` for every session of the class from `startsOn` until
 * `withdrawnFrom` (exclusive), or for one session (`sessionId`) as a `trial`, `makeup` or `casual`.
 * `pending` and `active` places count toward capacity (capacity.service.ts); a `pending` place is
 * held until `holdExpiresAt` for `heldFor`: an open checkout, a waitlist offer, a trial's
 * conversion link or a rollover's priority window. The roll reads `active` places only.
 */
export const classEnrolments = pgTable(
  'class_enrolments',
  {
    ...tenantKey(),
    termClassId: integer()
      .notNull()
      .references(() => termClasses.id),
    childId: integer()
      .notNull()
      .references(() => children.id),
    kind: text({ enum: ['enrolled', 'trial', 'makeup', 'casual'] }).notNull(),
    sessionId: integer().references(() => classSessions.id),
    startsOn: date(),
    /** The first session date the child no longer comes to; null: to the end of the term. */
    withdrawnFrom: date(),
    status: text({ enum: ['pending', 'active', 'withdrawn', 'cancelled'] })
      .notNull()
      .default('active'),
    holdExpiresAt: timestamp({ withTimezone: true }),
    heldFor: text({ enum: ['checkout', 'offer', 'trial_conversion', 'rollover'] }),
    /**
     * The secret of the link that takes up a held place (an offer, a trial's "enrol" link, a
     * rollover's "confirm" link); one token may hold several places of one family.
     */
    holdToken: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('class_enrolments_class').on(t.companyId, t.termClassId, t.status),
    index('class_enrolments_child').on(t.companyId, t.childId),
    index('class_enrolments_session').on(t.companyId, t.sessionId),
    index('class_enrolments_hold').on(t.status, t.holdExpiresAt),
    index('class_enrolments_hold_token').on(t.holdToken),
  ],
);

/** One child's mark on one session's roll; the last tap wins. */
export const attendance = pgTable(
  'attendance',
  {
    ...tenantKey(),
    sessionId: integer()
      .notNull()
      .references(() => classSessions.id),
    childId: integer()
      .notNull()
      .references(() => children.id),
    status: text({ enum: ['present', 'absent', 'late', 'excused'] }).notNull(),
    note: text(),
    markedBy: integer().references(() => users.id),
    markedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('attendance_session_child').on(t.companyId, t.sessionId, t.childId)],
);
