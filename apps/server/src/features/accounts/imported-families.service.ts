import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { hashPassword, randomToken } from '../../platform/secrets.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { type Company, createLink } from './accounts.service.ts';
import { users } from './accounts.tables.ts';
import { acceptPath } from './invite.service.ts';

/**
 * Families brought in by the CSV import (features/import): who already has an account here, and a
 * new family invited the way staff invite one by hand (invite.service.ts), inside the import's
 * transaction so a rolled-back import leaves no account and no mail in the outbox.
 */

/** The company's users with these (normalised) emails, by email. */
export async function usersByEmails(db: Db, tenant: Tenant, emails: string[]) {
  if (emails.length === 0) return new Map<string, { id: number; role: string }>();
  const rows = await db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(tenant.where(users, inArray(users.email, emails)));
  return new Map(rows.map((r) => [r.email, { id: r.id, role: r.role }]));
}

/** A pending parent account and its invitation to choose a password (no registration form to follow). */
export async function inviteImportedParent(
  tx: Db,
  deps: AppDeps,
  auth: AuthContext,
  company: Company,
  family: { email: string; fullName: string; phone: string | null; childNames: string[] },
): Promise<number> {
  const { tenant } = auth;
  const [parent] = await tx
    .insert(users)
    .values(
      tenant.values({
        role: 'student' as const,
        email: family.email,
        fullName: family.fullName,
        phone: family.phone,
        // Nobody knows this password; the invitation link sets the real one.
        passwordHash: await hashPassword(randomToken()),
        status: 'pending' as const,
      }),
    )
    .returning();
  await recordAudit(tx, auth, { action: 'import', entity: 'parents', entityId: parent!.id, after: parent });
  const hashcode = await createLink(tx, tenant, parent!.id, 'activation');
  const query = new URLSearchParams({ hashcode, f: '', authhash: company.authhash });
  await queueMail(tx, tenant, deps.config, 'family-invitation', family.email, {
    name: family.fullName,
    inviter: auth.fullName,
    company: company.name,
    children: family.childNames.join(', '),
    link: `${deps.config.publicUrl}${acceptPath}?${query}`,
  });
  return parent!.id;
}
