import type {
  CompanySettings,
  CompanySettingsUpdate,
  MyAccount,
  MyAccountUpdate,
  PageQuery,
  UserCreate,
  UserSummary,
  UserUpdate,
} from '@tumble/contracts/admin-accounts';
import type { FormResponse } from '@tumble/contracts/http';
import { and, count, desc, eq, ilike, ne, or } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { pgCode } from '../../platform/db-errors.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { newFileKey, sniffImage } from '../../platform/files.ts';
import { assertRoomFor } from '../../platform/installation/subscriptions.service.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { newPasswordProblem } from '../../platform/passwords.ts';
import { hashPassword, randomToken, verifyPassword } from '../../platform/secrets.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { createLink, logoUrl, normaliseEmail, ownCompany, revokeSessions } from './accounts.service.ts';
import { companies, users } from './accounts.tables.ts';

/** Invitations use the reset-password page to choose a first password; they live as long as an activation link. */
const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

const fieldError = (name: string, message: string): FormResponse => ({
  valid: false,
  error: { html_message: message, element: [{ name, messages: [message] }] },
});
const saved = (message: string, redirect?: string): FormResponse => ({
  valid: true,
  ...(redirect ? { redirect } : {}),
  info: { title: 'Saved', message },
});
const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);
const isUniqueViolation = (error: unknown) => pgCode(error) === '23505';

async function loadUser(deps: AppDeps, tenant: Tenant, id: number) {
  const [user] = await deps.database.db
    .select()
    .from(users)
    .where(tenant.where(users, eq(users.id, id)));
  if (!user) throw new NotFoundError();
  return user;
}

export async function getMyAccount(deps: AppDeps, auth: AuthContext): Promise<MyAccount> {
  const user = await loadUser(deps, auth.tenant, auth.userId);
  return { full_name: user.fullName, email: user.email, phone: user.phone ?? '', role: user.role };
}

/**
 * Profile changes; a new password needs the current one and ends the user's other sessions (this
 * one stays signed in).
 */
export async function updateMyAccount(
  deps: AppDeps,
  auth: AuthContext,
  input: MyAccountUpdate,
): Promise<FormResponse> {
  const user = await loadUser(deps, auth.tenant, auth.userId);
  let passwordHash: string | undefined;
  if (input.new_password) {
    if (!(await verifyPassword(user.passwordHash, input.current_password))) {
      return fieldError('current_password', 'The current password is not correct.');
    }
    const problem = newPasswordProblem(input.new_password, user.role);
    if (problem) return fieldError('new_password', problem);
    passwordHash = await hashPassword(input.new_password);
  }
  try {
    await deps.database.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          fullName: input.full_name,
          email: normaliseEmail(input.email),
          phone: input.phone,
          ...(passwordHash ? { passwordHash } : {}),
        })
        .where(auth.tenant.where(users, eq(users.id, auth.userId)));
      if (passwordHash) await revokeSessions(tx, auth.tenant, auth.userId, auth.sessionId);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      return fieldError('email', 'An account with this email address already exists.');
    throw error;
  }
  return saved('Your account has been updated.');
}

async function loadCompany(deps: AppDeps, tenant: Tenant) {
  const [company] = await deps.database.db.select().from(companies).where(tenant.where(ownCompany));
  if (!company) throw new NotFoundError();
  return company;
}

export async function getCompanySettings(deps: AppDeps, tenant: Tenant): Promise<CompanySettings> {
  const company = await loadCompany(deps, tenant);
  return {
    id: company.id,
    name: company.name,
    email: company.email ?? '',
    phone: company.phone ?? '',
    time_zone: company.timeZone as CompanySettings['time_zone'],
    currency: company.currency as CompanySettings['currency'],
    payment_method: company.paymentMethod,
    authhash: company.authhash,
    logo: logoUrl(company.logoFile),
  };
}

export async function updateCompanySettings(
  deps: AppDeps,
  tenant: Tenant,
  input: CompanySettingsUpdate,
): Promise<FormResponse> {
  await deps.database.db
    .update(companies)
    .set({
      name: input.name,
      email: input.email || null,
      phone: input.phone || null,
      timeZone: input.time_zone,
      currency: input.currency,
    })
    .where(tenant.where(ownCompany));
  return saved('The company settings have been saved.');
}

/** Stores a new logo (PNG, JPEG, GIF or WebP up to 2 MB) and removes the old one. */
export async function replaceLogo(deps: AppDeps, tenant: Tenant, data: Buffer): Promise<{ logo: string }> {
  if (data.length > LOGO_MAX_BYTES) throw new BadRequestError('The logo must be at most 2 MB.');
  const image = sniffImage(data);
  if (!image) throw new BadRequestError('The logo must be a PNG, JPEG, GIF or WebP image.');
  const company = await loadCompany(deps, tenant);
  const key = newFileKey('public', tenant.companyId, image.extension);
  await deps.files.put(key, data);
  await deps.database.db.update(companies).set({ logoFile: key }).where(tenant.where(ownCompany));
  if (company.logoFile) await deps.files.delete(company.logoFile);
  return { logo: logoUrl(key)! };
}

export async function deleteLogo(deps: AppDeps, tenant: Tenant): Promise<void> {
  const company = await loadCompany(deps, tenant);
  if (!company.logoFile) return;
  await deps.database.db.update(companies).set({ logoFile: null }).where(tenant.where(ownCompany));
  await deps.files.delete(company.logoFile);
}

const summary = (u: typeof users.$inferSelect): UserSummary => ({
  id: u.id,
  full_name: u.fullName,
  email: u.email,
  role: u.role,
  status: u.status,
  invited: u.status === 'active' && u.lastLoginAt === null,
  last_login_at: u.lastLoginAt?.toISOString() ?? null,
});

/** Company users: staff only (parents are managed under students). */
export async function listUsers(deps: AppDeps, tenant: Tenant, query: PageQuery) {
  const search = query.q
    ? or(ilike(users.fullName, `%${escapeLike(query.q)}%`), ilike(users.email, `%${escapeLike(query.q)}%`))
    : undefined;
  const staff = and(ne(users.role, 'student'), search);
  const { db } = deps.database;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(tenant.where(users, staff))
      .orderBy(users.fullName, users.id)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage),
    db.select({ value: count() }).from(users).where(tenant.where(users, staff)),
  ]);
  return { data: rows.map(summary), total: total?.value ?? 0 };
}

export async function getUser(deps: AppDeps, tenant: Tenant, id: number): Promise<UserSummary> {
  const user = await loadUser(deps, tenant, id);
  if (user.role === 'student') throw new NotFoundError();
  return summary(user);
}

/** Invites a staff member: an active account whose first password is chosen through a mailed link. */
export async function inviteUser(deps: AppDeps, auth: AuthContext, input: UserCreate): Promise<FormResponse> {
  const email = normaliseEmail(input.email);
  try {
    await deps.database.db.transaction(async (tx) => {
      // Over the plan's staff limit: refused, naming the limit and the plan to move to.
      await assertRoomFor(tx, auth.tenant, 'staff');
      const [user] = await tx
        .insert(users)
        .values(
          auth.tenant.values({
            role: input.role,
            email,
            fullName: input.full_name,
            // Nobody knows this password; the invitation link sets the real one.
            passwordHash: await hashPassword(randomToken()),
            status: 'active' as const,
          }),
        )
        .returning();
      await recordAudit(tx, auth, { action: 'invite', entity: 'users', entityId: user!.id, after: user });
      const [company] = await tx.select().from(companies).where(auth.tenant.where(ownCompany));
      const hashcode = await createLink(tx, auth.tenant, user!.id, 'reset', INVITATION_LIFETIME_MS);
      await queueMail(tx, auth.tenant, deps.config, 'invitation', email, {
        name: input.full_name,
        inviter: auth.fullName,
        company: company?.name ?? '',
        link: `${deps.config.publicUrl}/admin/reset-password?hashcode=${encodeURIComponent(hashcode)}&invitation=1`,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error))
      return fieldError('email', 'An account with this email address already exists.');
    throw error;
  }
  await deps.jobs.nudge(queues.mailDeliver);
  return saved(`An invitation has been sent to ${email}.`, '/admin/users');
}

/** Changes a staff member. An administrator cannot demote or disable themselves (the company would lose its last admin). */
export async function updateUser(
  deps: AppDeps,
  auth: AuthContext,
  id: number,
  input: UserUpdate,
): Promise<FormResponse> {
  const user = await loadUser(deps, auth.tenant, id);
  if (user.role === 'student') throw new NotFoundError();
  if (id === auth.userId && (input.role !== 'companyadmin' || input.status !== 'active')) {
    return fieldError('role', 'You cannot remove your own administrator access.');
  }
  await deps.database.db.transaction(async (tx) => {
    // Enabling a disabled staff member counts against the plan's staff limit, as inviting does.
    if (user.status === 'disabled' && input.status !== 'disabled')
      await assertRoomFor(tx, auth.tenant, 'staff');
    const [after] = await tx
      .update(users)
      .set({ fullName: input.full_name, role: input.role, status: input.status })
      .where(auth.tenant.where(users, eq(users.id, id)))
      .returning();
    await recordAudit(tx, auth, { action: 'update', entity: 'users', entityId: id, before: user, after });
    if (input.status === 'disabled' || input.role !== user.role) await revokeSessions(tx, auth.tenant, id);
  });
  return saved('The user has been saved.', '/admin/users');
}

export async function listOutbox(deps: AppDeps, tenant: Tenant, query: PageQuery) {
  const { db } = deps.database;
  const search = query.q
    ? or(
        ilike(mailOutbox.toAddress, `%${escapeLike(query.q)}%`),
        ilike(mailOutbox.subject, `%${escapeLike(query.q)}%`),
      )
    : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(mailOutbox)
      .where(tenant.where(mailOutbox, search))
      .orderBy(desc(mailOutbox.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage),
    db.select({ value: count() }).from(mailOutbox).where(tenant.where(mailOutbox, search)),
  ]);
  return {
    data: rows.map((m) => ({
      id: m.id,
      kind: m.kind,
      to: m.toAddress,
      subject: m.subject,
      status: m.status,
      created_at: m.createdAt.toISOString(),
    })),
    total: total?.value ?? 0,
  };
}

export async function getOutboxMail(deps: AppDeps, tenant: Tenant, id: number) {
  const [m] = await deps.database.db
    .select()
    .from(mailOutbox)
    .where(tenant.where(mailOutbox, eq(mailOutbox.id, id)));
  if (!m) throw new NotFoundError();
  return {
    id: m.id,
    kind: m.kind,
    to: m.toAddress,
    subject: m.subject,
    status: m.status,
    created_at: m.createdAt.toISOString(),
    text: m.text,
    html: m.html,
  };
}
