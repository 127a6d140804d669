import { boolean, date, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenantKey } from '../accounts/accounts.tables.ts';

export const venues = pgTable(
  'venues',
  {
    ...tenantKey(),
    name: text().notNull(),
    address: text(),
    suburb: text(),
    state: text(),
    postcode: text(),
    phone: text(),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('venues_company').on(t.companyId, t.name)],
);

export const rooms = pgTable(
  'rooms',
  {
    ...tenantKey(),
    venueId: integer()
      .notNull()
      .references(() => venues.id),
    name: text().notNull(),
    capacity: integer(),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('rooms_company').on(t.companyId, t.venueId)],
);

/** Days when nothing (or only events, or only parties) can be booked: public holidays, closures. */
export const restrictedDates = pgTable(
  'restricted_dates',
  {
    ...tenantKey(),
    date: date().notNull(),
    reason: text().notNull(),
    appliesTo: text({ enum: ['all', 'events', 'parties'] })
      .notNull()
      .default('all'),
    recurringYearly: boolean().notNull().default(false),
  },
  (t) => [index('restricted_dates_company').on(t.companyId, t.date)],
);
