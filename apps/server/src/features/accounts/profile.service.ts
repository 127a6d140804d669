import { eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { normaliseEmail } from './accounts.service.ts';
import { users } from './accounts.tables.ts';

/** A user's own details as the profile page shows them; null when the user is not the tenant's. */
export async function profileOf(db: Db, tenant: Tenant, userId: number) {
  const [user] = await db
    .select({ fullName: users.fullName, email: users.email, phone: users.phone })
    .from(users)
    .where(tenant.byId(users, userId));
  return user ?? null;
}

/**
 * Saves a user's own name, email (normalised) and phone; false, changing nothing, when another
 * user of the tenant already has that email.
 */
export async function saveProfile(
  db: Db,
  tenant: Tenant,
  userId: number,
  input: { fullName: string; email: string; phone: string | null },
): Promise<boolean> {
  const email = normaliseEmail(input.email);
  const taken = await db
    .select({ id: users.id })
    .from(users)
    .where(tenant.where(users, eq(users.email, email), ne(users.id, userId)));
  if (taken.length > 0) return false;
  await db
    .update(users)
    .set({ fullName: input.fullName, email, phone: input.phone })
    .where(tenant.byId(users, userId));
  return true;
}

/** The names and emails of these users of the tenant, by id (receipts, waiver forms and mails). */
export async function contactsByIds(db: Db, tenant: Tenant, userIds: number[]) {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map<number, { fullName: string; email: string }>();
  const rows = await db
    .select({ id: users.id, fullName: users.fullName, email: users.email })
    .from(users)
    .where(tenant.where(users, inArray(users.id, ids)));
  return new Map(rows.map(({ id, ...contact }) => [id, contact]));
}
