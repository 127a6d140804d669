import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { partyBookings, partyGuests, partySlots } from './parties.tables.ts';

/**
 * The parties feature's reads for a family's pages (the parent's account, waivers): plain rows,
 * every query scoped to the tenant. Kept apart from party.service.ts, which uses the waivers
 * feature, so that waivers can read parties without an import cycle.
 */

export type PartyBookingRow = typeof partyBookings.$inferSelect;
export type PartyGuestRow = typeof partyGuests.$inferSelect;
type PartyStatus = PartyBookingRow['status'];

/** A parent's party bookings (in these statuses, or all) with their slots, latest party date first. */
export function parentPartyBookings(db: Db, tenant: Tenant, parentId: number, statuses?: PartyStatus[]) {
  return db
    .select({ party: partyBookings, slot: partySlots })
    .from(partyBookings)
    .innerJoin(partySlots, eq(partySlots.id, partyBookings.slotId))
    .where(
      tenant.where(
        partyBookings,
        eq(partyBookings.parentId, parentId),
        statuses === undefined ? undefined : inArray(partyBookings.status, statuses),
      ),
    )
    .orderBy(desc(partyBookings.date), desc(partyBookings.id));
}

/** A party booking of the tenant by id, any status; null when there is none. */
export async function partyBookingById(db: Db, tenant: Tenant, id: number): Promise<PartyBookingRow | null> {
  const [party] = await db.select().from(partyBookings).where(tenant.byId(partyBookings, id));
  return party ?? null;
}

/** The confirmed party a waiver link names (its reference, the link secret); null otherwise. */
export async function confirmedPartyByReference(
  db: Db,
  tenant: Tenant,
  reference: string,
): Promise<PartyBookingRow | null> {
  const [party] = await db
    .select()
    .from(partyBookings)
    .where(
      tenant.where(
        partyBookings,
        eq(partyBookings.reference, reference),
        eq(partyBookings.status, 'confirmed'),
      ),
    );
  return party ?? null;
}

/** The guest a guest's waiver link names (its token), with the party, when that party is confirmed. */
export async function confirmedPartyGuestByToken(
  db: Db,
  tenant: Tenant,
  token: string,
): Promise<{ guest: PartyGuestRow; party: PartyBookingRow } | null> {
  const [row] = await db
    .select({ guest: partyGuests, party: partyBookings })
    .from(partyGuests)
    .innerJoin(partyBookings, eq(partyBookings.id, partyGuests.partyBookingId))
    .where(
      tenant.where(partyGuests, eq(partyGuests.waiverToken, token), eq(partyBookings.status, 'confirmed')),
    );
  return row ?? null;
}

/** The guests of these parties, each party's in guest-list order. */
export function guestsOfParties(db: Db, tenant: Tenant, partyIds: number[]): Promise<PartyGuestRow[]> {
  if (partyIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(partyGuests)
    .where(tenant.where(partyGuests, inArray(partyGuests.partyBookingId, partyIds)))
    .orderBy(asc(partyGuests.partyBookingId), asc(partyGuests.position));
}
