import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { hashPassword, randomToken } from '../../platform/secrets.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { accountLinks, authSessions, users } from './accounts.tables.ts';

/** Where an erased family's email goes: never deliverable (RFC 2606), unique per parent. */
const erasedEmail = (parentId: number) => `erased-${parentId}@erased.invalid`;

/** A family (parent user) of the tenant, locked for the erasure's transaction; null when not one. */
export async function lockFamily(tx: Db, tenant: Tenant, parentId: number) {
  const [parent] = await tx
    .select({ id: users.id, fullName: users.fullName, email: users.email, phone: users.phone })
    .from(users)
    .where(tenant.byId(users, parentId, eq(users.role, 'student')))
    .for('update');
  if (!parent) return null;
  return { ...parent, erased: parent.email === erasedEmail(parentId) };
}

/**
 * The parent's own details become the placeholder, and sign-in becomes impossible: the account is
 * disabled, its password a random one nobody knows, every session revoked and every link spent.
 */
export async function eraseParentAccount(tx: Db, tenant: Tenant, parentId: number, placeholder: string) {
  await tx
    .update(users)
    .set({
      fullName: placeholder,
      email: erasedEmail(parentId),
      phone: null,
      status: 'disabled',
      passwordHash: await hashPassword(randomToken()),
    })
    .where(tenant.byId(users, parentId));
  await tx
    .update(authSessions)
    .set({ revokedAt: new Date() })
    .where(tenant.where(authSessions, eq(authSessions.userId, parentId), isNull(authSessions.revokedAt)));
  await tx.delete(accountLinks).where(tenant.where(accountLinks, and(eq(accountLinks.userId, parentId))));
}
