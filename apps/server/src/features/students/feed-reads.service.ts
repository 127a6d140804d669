import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { children } from './students.tables.ts';

/** The students feature's reads for the calendar feeds (features/calendar-feeds). */

/** A parent's children: ids and first names (a family feed names who each class is for). */
export function childrenForFeed(
  db: Db,
  tenant: Tenant,
  parentId: number,
): Promise<{ id: number; firstName: string }[]> {
  return db
    .select({ id: children.id, firstName: children.firstName })
    .from(children)
    .where(tenant.where(children, eq(children.parentId, parentId)))
    .orderBy(asc(children.firstName), asc(children.id));
}
