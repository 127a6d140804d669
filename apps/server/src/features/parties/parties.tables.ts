import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  time,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { children } from '../students/students.tables.ts';
import { rooms, venues } from '../venues/venues.tables.ts';

/** A party slot runs on its weekdays at `startTime`; one party per slot per date, up to `capacity` guests. */
export const partySlots = pgTable(
  'party_slots',
  {
    ...tenantKey(),
    name: text().notNull(),
    venueId: integer().references(() => venues.id),
    roomId: integer().references(() => rooms.id),
    startTime: time().notNull(),
    durationMinutes: integer().notNull(),
    /** ISO weekdays '1' (Monday) … '7' (Sunday). */
    daysOfWeek: text().array().notNull().default(['6', '7']),
    capacity: integer().notNull(),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('party_slots_company').on(t.companyId)],
);

/** One price list per company: the base price includes `includedGuests`; each extra guest costs more. */
export const birthdayPricing = pgTable(
  'birthday_pricing',
  {
    ...tenantKey(),
    name: text().notNull().default('Birthday party'),
    basePrice: integer().notNull(),
    includedGuests: integer().notNull(),
    pricePerExtraGuest: integer().notNull(),
    /** Cents taken at booking; 0 means the full amount is paid at booking. */
    deposit: integer().notNull().default(0),
  },
  (t) => [uniqueIndex('birthday_pricing_company').on(t.companyId)],
);

/** The invitation mailed to each guest's parent (placeholders: child, date, time, venue, link). */
export const partyInvitationSettings = pgTable(
  'party_invitation_settings',
  {
    ...tenantKey(),
    subject: text().notNull(),
    body: text().notNull(),
    replyTo: text(),
  },
  (t) => [uniqueIndex('party_invitation_settings_company').on(t.companyId)],
);

/**
 * A birthday party booking: one slot on one date. `pending` holds the slot until `holdExpiresAt`
 * while the deposit is being paid; the balance stays for staff to collect.
 */
export const partyBookings = pgTable(
  'party_bookings',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    slotId: integer()
      .notNull()
      .references(() => partySlots.id),
    date: date().notNull(),
    /** The birthday child. */
    childId: integer()
      .notNull()
      .references(() => children.id),
    reference: text().notNull().unique(),
    /** Short human reference (`BP-7F3K2`) read out over the phone; `reference` stays the link secret. */
    code: text().notNull(),
    status: text({ enum: ['pending', 'confirmed', 'cancelled', 'expired', 'refund_due'] })
      .notNull()
      .default('pending'),
    guests: integer().notNull(),
    pricing: jsonb().$type<Record<string, number>>().notNull(),
    /** Cents: the whole price, what is paid at booking, and what is left for staff to collect. */
    total: integer().notNull(),
    deposit: integer().notNull(),
    balance: integer().notNull(),
    couponCode: text(),
    provider: text({ enum: ['stripe', 'square', 'test'] }).notNull(),
    holdExpiresAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('party_bookings_slot_date').on(t.companyId, t.slotId, t.date),
    uniqueIndex('party_bookings_company_code').on(t.companyId, t.code),
    index('party_bookings_parent').on(t.companyId, t.parentId),
  ],
);

/** Guests of a party, entered by the parent; each guest's parent with an email gets an invitation. */
export const partyGuests = pgTable(
  'party_guests',
  {
    ...tenantKey(),
    partyBookingId: integer()
      .notNull()
      .references(() => partyBookings.id),
    position: integer().notNull(),
    childName: text().notNull(),
    parentName: text(),
    parentEmail: text(),
    parentPhone: text(),
    /** The secret in this guest's waiver link (`/birthday-party/waiver/?id=`). */
    waiverToken: text().notNull().unique().default(sql`replace(gen_random_uuid()::text, '-', '')`),
    invitedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('party_guests_position').on(t.partyBookingId, t.position)],
);
