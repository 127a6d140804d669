import { desc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { partyBookings } from './parties.tables.ts';

/** The birthday parties booked for this child (not lapsed holds), newest date first. */
export function childPartyBookings(db: Db, tenant: Tenant, childId: number) {
  return db
    .select()
    .from(partyBookings)
    .where(
      tenant.where(partyBookings, eq(partyBookings.childId, childId), ne(partyBookings.status, 'expired')),
    )
    .orderBy(desc(partyBookings.date), desc(partyBookings.id));
}
