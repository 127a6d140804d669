import { desc, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { events } from './events.tables.ts';

/** The company's events (newest first), for the mass mail filter. */
export async function eventChoices(db: Db, tenant: Tenant) {
  const rows = await db
    .select({ id: events.id, name: events.name, startDate: events.startDate })
    .from(events)
    .where(tenant.where(events, isNull(events.archivedAt)))
    .orderBy(desc(events.startDate));
  return rows.map((row) => ({ value: String(row.id), label: `${row.name} (${row.startDate})` }));
}
