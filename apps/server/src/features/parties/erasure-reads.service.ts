import { eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { partyBookings } from './parties.tables.ts';

/** How many of a family's live party bookings (pending or confirmed) are on or after `today`. */
export async function upcomingPartyCount(db: Db, tenant: Tenant, parentId: number, today: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(partyBookings)
    .where(
      tenant.where(
        partyBookings,
        eq(partyBookings.parentId, parentId),
        inArray(partyBookings.status, ['pending', 'confirmed']),
        gte(partyBookings.date, today),
      ),
    );
  return row?.n ?? 0;
}
