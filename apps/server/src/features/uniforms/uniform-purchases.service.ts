import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { uniformOrders } from './uniform-orders.tables.ts';

/** A family's uniform orders as their statement names them ("Uniform order UO-…"), by id. */
export async function uniformPurchasesOfParent(db: Db, tenant: Tenant, parentId: number) {
  const rows = await db
    .select({ id: uniformOrders.id, code: uniformOrders.code })
    .from(uniformOrders)
    .where(tenant.where(uniformOrders, eq(uniformOrders.parentId, parentId)));
  return new Map(rows.map((r) => [r.id, `Uniform order ${r.code}`]));
}
