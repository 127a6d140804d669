import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { users } from './accounts.tables.ts';

/** A parent (a user whose role is student) of the tenant, or null: a booking changes hands only to one. */
export async function parentOf(db: Db, tenant: Tenant, userId: number) {
  const [parent] = await db
    .select({ id: users.id, fullName: users.fullName, email: users.email })
    .from(users)
    .where(tenant.byId(users, userId, eq(users.role, 'student')));
  return parent ?? null;
}
