import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { type MovedCounts, moveRows } from '../students/merge-rows.ts';
import { calendarFeeds } from './calendar-feeds.tables.ts';

/**
 * A family merge: the duplicate's family feeds move to the kept family. When both have a live
 * feed, the duplicate's is stopped first (one live feed per family): its URL answers 404 and the
 * kept family's URL now shows every child.
 */
export async function moveFamilyRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  const [keptLive] = await tx
    .select({ id: calendarFeeds.id })
    .from(calendarFeeds)
    .where(tenant.where(calendarFeeds, eq(calendarFeeds.parentId, to), isNull(calendarFeeds.revokedAt)));
  if (keptLive) {
    await tx
      .update(calendarFeeds)
      .set({ revokedAt: sql`now()` })
      .where(
        tenant.where(calendarFeeds, and(eq(calendarFeeds.parentId, from), isNull(calendarFeeds.revokedAt))),
      );
  }
  return { calendar_feeds: await moveRows(tx, tenant, calendarFeeds, 'parentId', from, to) };
}
