import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { type MovedCounts, moveRows } from '../students/merge-rows.ts';
import { registrationAnomalies } from './registration.tables.ts';

/** A family merge: registration anomalies about the duplicate family. */
export async function moveFamilyRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return {
    'registration_anomalies (family)': await moveRows(
      tx,
      tenant,
      registrationAnomalies,
      'parentId',
      from,
      to,
    ),
  };
}

/** A child merge: registration anomalies about the duplicate child. */
export async function moveChildRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return {
    'registration_anomalies (child)': await moveRows(tx, tenant, registrationAnomalies, 'childId', from, to),
  };
}
