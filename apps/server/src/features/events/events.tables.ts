import { boolean, date, index, integer, pgTable, text, time, timestamp } from 'drizzle-orm/pg-core';
import { tenantKey } from '../accounts/accounts.tables.ts';
import { venues } from '../venues/venues.tables.ts';

/** An event (holiday program) parents book session-days of. HTML fields are sanitized on save. */
export const events = pgTable(
  'events',
  {
    ...tenantKey(),
    name: text().notNull(),
    venueId: integer().references(() => venues.id),
    startDate: date().notNull(),
    endDate: date().notNull(),
    /** 0 and 100 mean no lower and no upper limit (SPEC.md point 5). */
    ageStart: integer().notNull().default(0),
    ageEnd: integer().notNull().default(100),
    intro: text(),
    full: text(),
    /**
     * Cutoff: when `cutOffDay` is on, a session-day stops being bookable `cutoffDaysBefore` days
     * before it at `cutoffTime` (company time zone); when off, when the session starts.
     */
    cutOffDay: boolean().notNull().default(false),
    cutoffDaysBefore: integer().notNull().default(0),
    cutoffTime: time(),
    /** Charged once per booking, in cents. */
    bookingFee: integer().notNull().default(0),
    /** The payment terms shown at checkout; null: the company's default event terms. */
    paymentTermsId: integer(),
    published: boolean().notNull().default(false),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('events_company').on(t.companyId, t.startDate)],
);

/** A session runs on each chosen weekday between its dates; `capacity` places per date. */
export const eventSessions = pgTable(
  'event_sessions',
  {
    ...tenantKey(),
    eventId: integer()
      .notNull()
      .references(() => events.id),
    name: text().notNull(),
    startDate: date().notNull(),
    endDate: date().notNull(),
    startTime: time().notNull(),
    endTime: time().notNull(),
    /** ISO weekdays as strings '1' (Monday) … '7' (Sunday). */
    daysOfWeek: text().array().notNull().default(['1', '2', '3', '4', '5']),
    capacity: integer().notNull(),
  },
  (t) => [index('event_sessions_event').on(t.companyId, t.eventId)],
);

/** The price of one place on one session-day: for one session, or for every session of the event. */
export const eventTickets = pgTable(
  'event_tickets',
  {
    ...tenantKey(),
    eventId: integer()
      .notNull()
      .references(() => events.id),
    sessionId: integer().references(() => eventSessions.id),
    name: text().notNull(),
    price: integer().notNull(),
  },
  (t) => [index('event_tickets_event').on(t.companyId, t.eventId)],
);

/** From `minDays` booked session-days on, each session-day costs `price` (when lower than the ticket). */
export const eventPriceTiers = pgTable(
  'event_price_tiers',
  {
    ...tenantKey(),
    eventId: integer()
      .notNull()
      .references(() => events.id),
    sessionId: integer().references(() => eventSessions.id),
    name: text().notNull(),
    minDays: integer().notNull(),
    price: integer().notNull(),
  },
  (t) => [index('event_price_tiers_event').on(t.companyId, t.eventId)],
);

export const eventContacts = pgTable(
  'event_contacts',
  {
    ...tenantKey(),
    eventId: integer()
      .notNull()
      .references(() => events.id),
    name: text().notNull(),
    email: text(),
    phone: text(),
  },
  (t) => [index('event_contacts_event').on(t.companyId, t.eventId)],
);

export const eventDownloads = pgTable(
  'event_downloads',
  {
    ...tenantKey(),
    eventId: integer()
      .notNull()
      .references(() => events.id),
    name: text().notNull(),
    /** A public file key (platform/files.ts). */
    file: text().notNull(),
  },
  (t) => [index('event_downloads_event').on(t.companyId, t.eventId)],
);
