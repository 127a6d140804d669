import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { type MovedCounts, moveRows } from '../students/merge-rows.ts';
import { tasks } from './tasks.tables.ts';

/** A family merge: tasks linked to (or addressed to) the duplicate family. */
export async function moveFamilyRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return { 'tasks (family)': await moveRows(tx, tenant, tasks, 'parentId', from, to) };
}

/** A child merge: tasks linked to the duplicate child. */
export async function moveChildRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return { 'tasks (child)': await moveRows(tx, tenant, tasks, 'childId', from, to) };
}
