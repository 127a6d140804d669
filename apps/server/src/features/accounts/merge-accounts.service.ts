import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { accountLinks, authSessions, users } from './accounts.tables.ts';

export interface MergeableParent {
  id: number;
  fullName: string;
  email: string;
  status: 'pending' | 'active' | 'disabled';
}

/** A parent (role student) of this company, locked for the merge; null for anyone else. */
export async function lockParent(tx: Db, tenant: Tenant, id: number): Promise<MergeableParent | null> {
  const [row] = await tx
    .select({
      id: users.id,
      fullName: users.fullName,
      email: users.email,
      status: users.status,
      role: users.role,
    })
    .from(users)
    .where(tenant.byId(users, id))
    .for('update');
  if (row?.role !== 'student') return null;
  return { id: row.id, fullName: row.fullName, email: row.email, status: row.status };
}

/**
 * The duplicate of a family merge: disabled (never deleted: the audit log and the outbox still
 * name it), its email freed with a suffix so the kept family may take it, signed out everywhere
 * and its pending links (activation, reset) void.
 */
export async function retireDuplicateParent(tx: Db, tenant: Tenant, parent: MergeableParent) {
  await tx
    .update(users)
    .set({ status: 'disabled', email: `${parent.email}.merged-${parent.id}` })
    .where(tenant.byId(users, parent.id));
  const sessions = await tx
    .delete(authSessions)
    .where(tenant.where(authSessions, eq(authSessions.userId, parent.id)))
    .returning({ id: authSessions.id });
  const links = await tx
    .delete(accountLinks)
    .where(tenant.where(accountLinks, eq(accountLinks.userId, parent.id)))
    .returning({ id: accountLinks.id });
  return { auth_sessions: sessions.length, account_links: links.length };
}
