import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { rooms } from './venues.tables.ts';

/** The names of these rooms of the tenant, by id (class rolls and their report). */
export async function roomNames(db: Db, tenant: Tenant, roomIds: number[]): Promise<Map<number, string>> {
  const ids = [...new Set(roomIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: rooms.id, name: rooms.name })
    .from(rooms)
    .where(tenant.where(rooms, inArray(rooms.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
}
