import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { restrictedDates, venues } from './venues.tables.ts';

/** The dates closed to a kind of booking (closures for all, or for that kind only; 'all': closures for all only). */
export function restrictedDatesFor(db: Db, tenant: Tenant, kind: 'events' | 'parties' | 'all') {
  return db
    .select({ date: restrictedDates.date, recurringYearly: restrictedDates.recurringYearly })
    .from(restrictedDates)
    .where(tenant.where(restrictedDates, inArray(restrictedDates.appliesTo, ['all', kind])));
}

/** A venue of the tenant, or null. */
export async function venueOf(db: Db, tenant: Tenant, id: number) {
  const [venue] = await db
    .select()
    .from(venues)
    .where(tenant.where(venues, eq(venues.id, id)));
  return venue ?? null;
}
