import {
  type FamilyInviteRequest,
  familyInviteMessages,
  type InviteAcceptRequest,
  type InviteAcceptResponse,
} from '@tumble/contracts/class-students';
import type { FormResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import { and, eq } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { pgCode } from '../../platform/db-errors.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { newPasswordProblem } from '../../platform/passwords.ts';
import { hashPassword, randomToken, sha256 } from '../../platform/secrets.ts';
import { publishedForm } from '../registration/registration.service.ts';
import { createChildren } from '../students/children.service.ts';
import { companyOf, consumeLink, createLink, linkState, normaliseEmail } from './accounts.service.ts';
import { accountLinks, users } from './accounts.tables.ts';

/**
 * Staff invite a family (SPEC students/invite): a pending parent account with the children
 * prefilled, and a mailed link (the activation link of accounts.service.ts) where the parent
 * chooses a password and lands on the registration form staff picked.
 */

const fieldError = (name: string, message: string): FormResponse => ({
  valid: false,
  error: { html_message: message, element: [{ name, messages: [message] }] },
});

/** The parent's page: sets the password, then opens the form `f` of the company `authhash`. */
export const acceptPath = '/admin/students/invite/accept';

export async function inviteFamily(
  deps: AppDeps,
  auth: AuthContext,
  input: FamilyInviteRequest,
): Promise<FormResponse> {
  const { tenant } = auth;
  const { db } = deps.database;
  const email = normaliseEmail(input.email);
  const form = await publishedForm(db, tenant, input.form_key);
  if (!form) return fieldError('form_key', familyInviteMessages.formNotFound);
  const company = await companyOf(db, tenant);
  try {
    await db.transaction(async (tx) => {
      // The unique index (company, email) is the real guard; this only answers before writing.
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(tenant.where(users, eq(users.email, email)));
      if (taken) throw new EmailTaken();
      const [parent] = await tx
        .insert(users)
        .values(
          tenant.values({
            role: 'student' as const,
            email,
            fullName: input.full_name,
            phone: input.phone || null,
            // Nobody knows this password; the invitation link sets the real one.
            passwordHash: await hashPassword(randomToken()),
            status: 'pending' as const,
          }),
        )
        .returning();
      await createChildren(
        tx,
        tenant,
        parent!.id,
        input.children.map((c) => ({
          firstName: c.first_name,
          lastName: c.last_name,
          dob: c.dob,
          consent: false,
        })),
      );
      await recordAudit(tx, auth, {
        action: 'invite',
        entity: 'parents',
        entityId: parent!.id,
        after: parent,
      });
      const hashcode = await createLink(tx, tenant, parent!.id, 'activation');
      const query = new URLSearchParams({ hashcode, f: form.key, authhash: company.authhash });
      await queueMail(tx, tenant, deps.config, 'family-invitation', email, {
        name: input.full_name,
        inviter: auth.fullName,
        company: company.name,
        children: input.children.map((c) => c.first_name).join(', '),
        link: `${deps.config.publicUrl}${acceptPath}?${query}`,
      });
    });
  } catch (error) {
    if (error instanceof EmailTaken || pgCode(error) === '23505')
      return fieldError('email', familyInviteMessages.emailTaken);
    throw error;
  }
  await deps.jobs.nudge(queues.mailDeliver);
  return { valid: true, info: { title: 'Invitation sent', message: familyInviteMessages.sent(email) } };
}

class EmailTaken extends Error {}

/** The invited parent of a link, or null: only a pending parent's activation link is an invitation. */
async function invitedBy(deps: AppDeps, hashcode: string) {
  const [row] = await deps.database.db
    .select({ link: accountLinks, fullName: users.fullName, email: users.email })
    .from(accountLinks)
    .innerJoin(users, and(eq(users.id, accountLinks.userId), eq(users.companyId, accountLinks.companyId)))
    // cross-tenant: a mailed link is found by its hash alone; the link names its company.
    .where(
      and(
        eq(accountLinks.tokenHash, sha256(hashcode)),
        eq(accountLinks.kind, 'activation'),
        eq(users.role, 'student'),
      ),
    );
  return row ?? null;
}

/** GET: whether the link still works (1), has timed out (2) or is unknown or used (0), and for whom. */
export async function checkInvite(deps: AppDeps, hashcode: string) {
  const invited = await invitedBy(deps, hashcode);
  const state = linkState(invited?.link ?? null);
  return {
    state,
    full_name: state === 1 ? (invited?.fullName ?? null) : null,
    email: state === 1 ? (invited?.email ?? null) : null,
  };
}

/**
 * POST: the parent's first password. The link is used once (two taps at once cannot both set it);
 * the account becomes active and the answer says where the form is, for the page to sign in and go.
 */
export async function acceptInvite(
  deps: AppDeps,
  input: InviteAcceptRequest,
  formKey: string,
): Promise<InviteAcceptResponse> {
  const problem = newPasswordProblem(input.password, 'student');
  if (problem) return { valid: false, field: 'password', message: problem };
  if (!(await invitedBy(deps, input.hashcode))) return { valid: false, message: messages.activationInvalid };
  const passwordHash = await hashPassword(input.password);
  const { state, result } = await consumeLink(
    deps,
    'activation',
    input.hashcode,
    async (tx, tenant, link) => {
      const [parent] = await tx
        .update(users)
        .set({ passwordHash, status: 'active' })
        .where(tenant.byId(users, link.userId, eq(users.role, 'student'), eq(users.status, 'pending')))
        .returning({ email: users.email });
      const company = await companyOf(tx, tenant);
      const form = formKey ? await publishedForm(tx, tenant, formKey) : null;
      return { email: parent?.email ?? null, authhash: company.authhash, formKey: form?.key ?? null };
    },
  );
  if (state === 2) return { valid: false, message: messages.activationTimedOut };
  if (state !== 1 || !result?.email) return { valid: false, message: messages.activationInvalid };
  const authhash = encodeURIComponent(result.authhash);
  return {
    valid: true,
    email: result.email,
    authhash: result.authhash,
    redirect: result.formKey
      ? `/registration/?f=${encodeURIComponent(result.formKey)}&authhash=${authhash}`
      : '/admin/students/profile',
  };
}
