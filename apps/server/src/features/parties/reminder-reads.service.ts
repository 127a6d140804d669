import { asc, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { partyBookings, partyGuests, partySlots } from './parties.tables.ts';

/** What reminder emails (features/communications/reminders) read of parties. */

export interface UpcomingParty {
  id: number;
  parentId: number;
  childId: number;
  date: string;
  startTime: string;
  /** The link secret of the guest list and waiver pages. */
  reference: string;
  /** Guests booked, and guests entered on the guest list so far. */
  guests: number;
  entered: number;
}

/** Confirmed parties on these dates. */
export async function confirmedPartiesOn(db: Db, tenant: Tenant, dates: string[]): Promise<UpcomingParty[]> {
  if (dates.length === 0) return [];
  const parties = await db
    .select({
      id: partyBookings.id,
      parentId: partyBookings.parentId,
      childId: partyBookings.childId,
      date: partyBookings.date,
      startTime: partySlots.startTime,
      reference: partyBookings.reference,
      guests: partyBookings.guests,
    })
    .from(partyBookings)
    .innerJoin(partySlots, eq(partySlots.id, partyBookings.slotId))
    .where(
      tenant.where(partyBookings, eq(partyBookings.status, 'confirmed'), inArray(partyBookings.date, dates)),
    )
    .orderBy(asc(partyBookings.id));
  if (parties.length === 0) return [];
  const entered = await db
    .select({ partyId: partyGuests.partyBookingId, entered: count() })
    .from(partyGuests)
    .where(
      tenant.where(
        partyGuests,
        inArray(
          partyGuests.partyBookingId,
          parties.map((p) => p.id),
        ),
      ),
    )
    .groupBy(partyGuests.partyBookingId);
  const enteredOf = new Map(entered.map((e) => [e.partyId, e.entered]));
  return parties.map((party) => ({ ...party, entered: enteredOf.get(party.id) ?? 0 }));
}
