import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../accounts/accounts.tables.ts';

/** A waiver template. Editing the body raises `version`: parents sign again for the new text. */
export const waivers = pgTable(
  'waivers',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id),
    title: text().notNull(),
    body: text().notNull(),
    appliesTo: text({ enum: ['events', 'parties', 'all'] })
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
