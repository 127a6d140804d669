import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { MovedCounts } from '../students/merge-rows.ts';
import { moveConvertedContacts } from './crm.service.ts';

/** A family merge: leads converted to (or linked with) the duplicate family now name the family kept. */
export async function moveFamilyRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return { 'contacts (family)': await moveConvertedContacts(tx, tenant, from, to) };
}
