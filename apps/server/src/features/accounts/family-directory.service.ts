import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { users } from './accounts.tables.ts';

/**
 * The tenant's parents (id, name, email, phone) as a subquery, for the staff Students directory to
 * join its children to in one query (searching and sorting by the family) without reading this
 * feature's tables itself.
 */
export function familiesSubquery(db: Db, tenant: Tenant) {
  return db
    .select({
      parentId: users.id,
      parentName: users.fullName,
      parentEmail: users.email,
      parentPhone: users.phone,
    })
    .from(users)
    .where(tenant.where(users, eq(users.role, 'student')))
    .as('families');
}
