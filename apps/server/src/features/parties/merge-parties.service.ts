import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { type MovedCounts, moveRows } from '../students/merge-rows.ts';
import { partyBookings } from './parties.tables.ts';

/** A family merge: the duplicate parent's party bookings. */
export async function moveFamilyRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return { 'party_bookings (family)': await moveRows(tx, tenant, partyBookings, 'parentId', from, to) };
}

/** A child merge: parties for the duplicate child (the birthday child). */
export async function moveChildRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return { 'party_bookings (child)': await moveRows(tx, tenant, partyBookings, 'childId', from, to) };
}
