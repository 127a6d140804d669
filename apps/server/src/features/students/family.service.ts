import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { children } from './students.tables.ts';

/** Every child of these parents, by parent: the siblings a class waitlist's priority looks at. */
export async function childIdsOfParents(
  db: Db,
  tenant: Tenant,
  parentIds: number[],
): Promise<Map<number, number[]>> {
  const byParent = new Map<number, number[]>();
  const ids = [...new Set(parentIds)];
  if (ids.length === 0) return byParent;
  const rows = await db
    .select({ id: children.id, parentId: children.parentId })
    .from(children)
    .where(tenant.where(children, inArray(children.parentId, ids)));
  for (const row of rows) byParent.set(row.parentId, [...(byParent.get(row.parentId) ?? []), row.id]);
  return byParent;
}
