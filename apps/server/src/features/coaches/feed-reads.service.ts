import { asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { namesOfCoaches } from './coaches.service.ts';
import { coaches } from './coaches.tables.ts';

/** The coaches feature's reads for the calendar feeds (features/calendar-feeds). */

/** The company's coaches (not archived) with their names, by name: each may have a feed. */
export async function coachesForFeeds(db: Db, tenant: Tenant): Promise<{ id: number; name: string }[]> {
  const rows = await db
    .select({ id: coaches.id })
    .from(coaches)
    .where(tenant.where(coaches, isNull(coaches.archivedAt)))
    .orderBy(asc(coaches.id));
  const names = await namesOfCoaches(
    db,
    tenant,
    rows.map((r) => r.id),
  );
  return rows
    .map((r) => ({ id: r.id, name: names.get(r.id) ?? '' }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** The coach of the tenant by id (archived or not); null when there is none. */
export async function coachForFeed(db: Db, tenant: Tenant, coachId: number): Promise<{ id: number } | null> {
  const [row] = await db
    .select({ id: coaches.id })
    .from(coaches)
    .where(tenant.where(coaches, eq(coaches.id, coachId)));
  return row ?? null;
}
