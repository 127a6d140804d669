import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { coaches } from '../coaches/coaches.tables.ts';

/**
 * A subscribable iCalendar feed behind a secret URL `/feeds/<token>.ics` (issue 16, SPEC
 * integrations/google): the company's timetable, one coach's sessions or one family's classes,
 * event days and parties. The token is stored as its SHA-256 only (platform/secrets.ts), so a
 * leaked table gives no working URL. Regenerating revokes the row and makes a new one: the old URL
 * answers 404 from then on, and at most one live feed exists per owner.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    ...tenantKey(),
    kind: text({ enum: ['company', 'coach', 'family'] }).notNull(),
    /** The coach of a 'coach' feed; null otherwise. */
    coachId: integer().references(() => coaches.id),
    /** The parent (role 'student') of a 'family' feed; null otherwise. */
    parentId: integer().references(() => users.id),
    tokenHash: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp({ withTimezone: true }),
    /** When a calendar last fetched it: staff see whether anyone subscribed. */
    lastFetchedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('calendar_feeds_company').on(t.companyId, t.kind),
    // One live feed per owner: `coalesce` folds the company feed's nulls into one key.
    uniqueIndex('calendar_feeds_live_owner')
      .on(t.companyId, t.kind, sql`coalesce(${t.coachId}, 0)`, sql`coalesce(${t.parentId}, 0)`)
      .where(sql`${t.revokedAt} is null`),
  ],
);
