import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { type MovedCounts, moveRows } from '../students/merge-rows.ts';
import { signedWaivers } from './waivers.tables.ts';

/** A family merge: waivers the duplicate parent signed. */
export async function moveFamilyRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return { 'signed_waivers (family)': await moveRows(tx, tenant, signedWaivers, 'parentId', from, to) };
}

/** A child merge: waivers signed for the duplicate child (they still cover the kept one). */
export async function moveChildRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return { 'signed_waivers (child)': await moveRows(tx, tenant, signedWaivers, 'childId', from, to) };
}
