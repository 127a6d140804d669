import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { users } from './accounts.tables.ts';

/** The company's families (parent users), by name: choices for flags and tasks (issue 17). */
export function familyChoices(db: Db, tenant: Tenant) {
  return db
    .select({ id: users.id, fullName: users.fullName, email: users.email })
    .from(users)
    .where(tenant.where(users, eq(users.role, 'student'), ne(users.status, 'disabled')))
    .orderBy(asc(users.fullName), asc(users.id));
}

/** The company's staff users who can take a task, by name. */
export function staffChoices(db: Db, tenant: Tenant) {
  return db
    .select({ id: users.id, fullName: users.fullName, role: users.role })
    .from(users)
    .where(tenant.where(users, ne(users.role, 'student'), ne(users.status, 'disabled')))
    .orderBy(asc(users.fullName), asc(users.id));
}

/** These users of the company with their role (a foreign id is simply absent). */
export async function usersWithRoles(db: Db, tenant: Tenant, ids: number[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map<number, { fullName: string; role: string }>();
  const rows = await db
    .select({ id: users.id, fullName: users.fullName, role: users.role })
    .from(users)
    .where(tenant.where(users, and(inArray(users.id, unique))));
  return new Map(rows.map((r) => [r.id, { fullName: r.fullName, role: r.role }]));
}
