import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import type { Tenant, TenantRowTable } from '../../platform/tenancy.ts';

/** What a merge moved (or, in a preview, would move): rows per table name. */
export type MovedCounts = Record<string, number>;

type Key = 'parentId' | 'childId';

/**
 * Points every row of one tenant table that names `from` in its `parentId` or `childId` at `to`;
 * returns how many moved. The one way each feature's merge service moves its rows (merge.service.ts).
 */
export async function moveRows<K extends Key, T extends PgTable & TenantRowTable & Record<K, PgColumn>>(
  tx: Db,
  tenant: Tenant,
  table: T,
  key: K,
  from: number,
  to: number,
): Promise<number> {
  const moved = await tx
    .update(table)
    .set({ [key]: to } as Partial<T['$inferInsert']>)
    .where(tenant.where(table, eq(table[key], from)))
    .returning({ id: table.id });
  return moved.length;
}
