import { count, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { calendarFeeds } from './calendar-feeds.tables.ts';

/**
 * For the Integrations page: Google calendar feeds are on once a company has a live feed.
 * Feeds are pulled by the calendars, nothing is pushed, so there is no outside call that can fail:
 * `lastError` stays null (kept in the shape so every integration answers alike).
 */
export async function calendarFeedsStatus(
  db: Db,
  tenant: Tenant,
): Promise<{ enabled: boolean; feedCount: number; lastError: string | null }> {
  const [row] = await db
    .select({ feeds: count() })
    .from(calendarFeeds)
    .where(tenant.where(calendarFeeds, isNull(calendarFeeds.revokedAt)));
  const feedCount = row?.feeds ?? 0;
  return { enabled: feedCount > 0, feedCount, lastError: null };
}
