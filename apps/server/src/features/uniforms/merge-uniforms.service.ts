import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { type MovedCounts, moveRows } from '../students/merge-rows.ts';
import { uniformOrders } from './uniform-orders.tables.ts';

/** A family merge: the duplicate parent's uniform orders. */
export async function moveFamilyRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return { 'uniform_orders (family)': await moveRows(tx, tenant, uniformOrders, 'parentId', from, to) };
}

/** A child merge: uniform orders for the duplicate child. */
export async function moveChildRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return { 'uniform_orders (child)': await moveRows(tx, tenant, uniformOrders, 'childId', from, to) };
}
