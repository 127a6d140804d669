import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { users } from './accounts.tables.ts';

export interface FamilyContact {
  id: number;
  fullName: string;
  email: string;
  phone: string | null;
}

/** The parents' names and how to reach them (a class's students list), by id. */
export async function familyContacts(db: Db, tenant: Tenant, parentIds: number[]) {
  const ids = [...new Set(parentIds)];
  const contacts = new Map<number, FamilyContact>();
  if (ids.length === 0) return contacts;
  const rows = await db
    .select({ id: users.id, fullName: users.fullName, email: users.email, phone: users.phone })
    .from(users)
    .where(tenant.where(users, inArray(users.id, ids)));
  for (const row of rows) contacts.set(row.id, row);
  return contacts;
}
