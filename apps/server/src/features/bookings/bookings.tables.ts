import { date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { eventSessions, events } from '../events/events.tables.ts';
import { children } from '../students/students.tables.ts';

/**
 * An event booking. `pending` holds its places until `holdExpiresAt` while payment is open;
 * `confirmed` once paid; `expired` or `cancelled` release them; `refund_due` was paid after its
 * places were gone (staff refund it; never oversold).
 */
export const bookings = pgTable(
  'bookings',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    eventId: integer()
      .notNull()
      .references(() => events.id),
    /** Public reference of the booking (`b` and `booking_hash`). */
    reference: text().notNull().unique(),
    /** Short human reference (`BK-7F3K2`) read out over the phone; `reference` stays the link secret. */
    code: text().notNull(),
    status: text({ enum: ['pending', 'confirmed', 'cancelled', 'expired', 'refund_due'] })
      .notNull()
      .default('pending'),
    quantity: integer().notNull(),
    /** The priced lines as computed on the server at checkout (cents). */
    pricing: jsonb().$type<Record<string, number>>().notNull(),
    total: integer().notNull(),
    couponId: integer(),
    couponCode: text(),
    nswCode: text(),
    provider: text({ enum: ['stripe', 'square', 'test'] }).notNull(),
    holdExpiresAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp({ withTimezone: true }),
    cancelledAt: timestamp({ withTimezone: true }),
    /**
     * What staff chose for the money of a paid booking they cancelled: refund it, keep it as the
     * family's credit, or nothing (the payment terms say no refund). Recorded only for now; the
     * billing issue makes refunds and credits real.
     */
    refundChoice: text({ enum: ['refund', 'credit', 'none'] }),
  },
  (t) => [
    // Also the admin list sorted by status (`ORDER BY status, id`, the engine's tie-break).
    index('bookings_company_event').on(t.companyId, t.eventId, t.status, t.id),
    uniqueIndex('bookings_company_code').on(t.companyId, t.code),
    // The admin list of an event's bookings, newest first (its default order), paged.
    index('bookings_event_created').on(t.companyId, t.eventId, t.createdAt, t.id),
    // The same list sorted by its other sortable columns (each `ORDER BY column, id`, paged), so a
    // page of a 50,000-booking event never reads and sorts them all (issue 19).
    index('bookings_event_code').on(t.companyId, t.eventId, t.code, t.id),
    index('bookings_event_parent').on(t.companyId, t.eventId, t.parentId, t.id),
    index('bookings_event_quantity').on(t.companyId, t.eventId, t.quantity, t.id),
    index('bookings_event_total').on(t.companyId, t.eventId, t.total, t.id),
    index('bookings_parent').on(t.companyId, t.parentId),
    index('bookings_hold').on(t.status, t.holdExpiresAt),
    // The admin list's search (ILIKE '%…%' on reference and coupon code); needs pg_trgm.
    index('bookings_reference_trgm').using('gin', t.reference.op('gin_trgm_ops')),
    index('bookings_coupon_code_trgm').using('gin', t.couponCode.op('gin_trgm_ops')),
    // The short reference is searched too: without it the OR of the three could use no index and
    // read every booking of the event (60-90 ms at 50,000; issue 19).
    index('bookings_code_trgm').using('gin', t.code.op('gin_trgm_ops')),
  ],
);

/** The children a booking is for, with their insurance choice. */
export const bookingChildren = pgTable(
  'booking_children',
  {
    ...tenantKey(),
    bookingId: integer()
      .notNull()
      .references(() => bookings.id),
    childId: integer()
      .notNull()
      .references(() => children.id),
    insuranceType: text({ enum: ['daily_insurance', 'full_insurance', 'none'] })
      .notNull()
      .default('none'),
    insuranceIds: integer().array().notNull().default([]),
  },
  (t) => [uniqueIndex('booking_children_unique').on(t.bookingId, t.childId)],
);

/**
 * Places a booking takes on one session-date (one per child). Places count against capacity while
 * their booking is confirmed, or pending with an unexpired hold.
 */
export const bookingPlaces = pgTable(
  'booking_places',
  {
    ...tenantKey(),
    bookingId: integer()
      .notNull()
      .references(() => bookings.id),
    sessionId: integer()
      .notNull()
      .references(() => eventSessions.id),
    date: date().notNull(),
    places: integer().notNull(),
    /** Price per place on this day (cents), as charged. */
    unitPrice: integer().notNull(),
  },
  (t) => [
    index('booking_places_session_date').on(t.sessionId, t.date),
    uniqueIndex('booking_places_unique').on(t.bookingId, t.sessionId, t.date),
  ],
);

/**
 * Waiting for a full session-date. When places free up the first waiting entry is `invited` and
 * holds them until `inviteExpiresAt`.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    eventId: integer()
      .notNull()
      .references(() => events.id),
    sessionId: integer()
      .notNull()
      .references(() => eventSessions.id),
    date: date().notNull(),
    places: integer().notNull(),
    /**
     * The booking whose checkout put the family on this waitlist: releasing that booking unpaid
     * releases the entry too. Null for entries made without a booking (waiting days only).
     */
    bookingId: integer().references(() => bookings.id),
    /** `fulfilled`: a paid booking of the family took the day; `released`: its checkout was not paid. */
    status: text({ enum: ['waiting', 'invited', 'accepted', 'declined', 'expired', 'fulfilled', 'released'] })
      .notNull()
      .default('waiting'),
    /** SHA-256 of the invitation token (`w`). */
    tokenHash: text(),
    invitedAt: timestamp({ withTimezone: true }),
    inviteExpiresAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('waitlist_session_date').on(t.sessionId, t.date, t.status, t.id),
    // Open invitations of an event, counted with its taken places on every availability read.
    index('waitlist_event').on(t.companyId, t.eventId, t.status),
  ],
);
