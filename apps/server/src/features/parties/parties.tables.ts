import { index, integer, pgTable, serial, text, time, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from '../accounts/accounts.tables.ts';
import { rooms, venues } from '../venues/venues.tables.ts';

/** A party slot runs on its weekdays at `startTime`; one party per slot per date, up to `capacity` guests. */
export const partySlots = pgTable(
  'party_slots',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id),
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
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id),
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
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id),
    subject: text().notNull(),
    body: text().notNull(),
    replyTo: text(),
  },
  (t) => [uniqueIndex('party_invitation_settings_company').on(t.companyId)],
);
