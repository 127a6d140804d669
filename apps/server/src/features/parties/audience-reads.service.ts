import { eq, gte, lte, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { partyBookings } from './parties.tables.ts';

/** Families (subquery of parent ids) with a confirmed party on a date in the range (mass mail filter). */
export function familiesWithPartyBetween(
  db: Db,
  tenant: Tenant,
  from: string | null,
  to: string | null,
): SQLWrapper {
  return db
    .select({ parentId: partyBookings.parentId })
    .from(partyBookings)
    .where(
      tenant.where(
        partyBookings,
        eq(partyBookings.status, 'confirmed'),
        from ? gte(partyBookings.date, from) : undefined,
        to ? lte(partyBookings.date, to) : undefined,
      ),
    );
}
