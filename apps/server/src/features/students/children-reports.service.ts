import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { children } from './students.tables.ts';

/** The company's children with their display name, for the reports (features/reports) to join. */
export function childNamesQuery(db: Db, tenant: Tenant) {
  return db
    .select({
      id: children.id,
      parentId: children.parentId,
      name: sql<string>`${children.firstName} || ' ' || ${children.lastName}`.as('child_name'),
    })
    .from(children)
    .where(tenant.where(children))
    .as('child_names');
}
