import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { children } from './students.tables.ts';

/** A child named at checkout who is not in the family yet. */
export interface NewChild {
  firstName: string;
  lastName: string;
  dob: string;
  consent: boolean;
}

/** The children must be the parent's own; a foreign or unknown id answers 404. */
export async function assertOwnChildren(db: Db, tenant: Tenant, parentId: number, ids: number[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const own = await db
    .select({ id: children.id })
    .from(children)
    .where(tenant.where(children, eq(children.parentId, parentId), inArray(children.id, unique)));
  if (own.length !== unique.length) throw new NotFoundError('That child could not be found.');
}

/** In the purchase's transaction: creates the new children; returns every child's id in order. */
export async function createChildren(
  tx: Db,
  tenant: Tenant,
  parentId: number,
  list: ({ id: number } | NewChild)[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const child of list) {
    if ('id' in child) {
      ids.push(child.id);
      continue;
    }
    const [created] = await tx
      .insert(children)
      .values(tenant.values({ parentId, ...child }))
      .returning({ id: children.id });
    ids.push(created!.id);
  }
  return ids;
}

/** A child's first name (party mails), or '' when gone. */
export async function childFirstName(db: Db, tenant: Tenant, childId: number): Promise<string> {
  const [child] = await db
    .select({ firstName: children.firstName })
    .from(children)
    .where(tenant.where(children, eq(children.id, childId)));
  return child?.firstName ?? '';
}
