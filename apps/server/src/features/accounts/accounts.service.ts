import { DEFAULT_CURRENCY } from '@tumble/contracts/admin-accounts';
import type {
  AclResponse,
  CompanySignupRequest,
  LinkCheckResult,
  LoginRequest,
  ResetPasswordRequest,
  Role,
  StudentSignupRequest,
} from '@tumble/contracts/auth';
import { companySignInMessages } from '@tumble/contracts/auth';
import type { FormResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { CompanyClosedError, SESSION_ABSOLUTE_MS } from '../../platform/auth.ts';
import { pgCode } from '../../platform/db-errors.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { AppError, NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { enabledModules } from '../../platform/modules.ts';
import { newPasswordProblem } from '../../platform/passwords.ts';
import { readTogether } from '../../platform/reads.ts';
import {
  dummyPasswordHash,
  hashPassword,
  randomToken,
  sha256,
  verifyPassword,
} from '../../platform/secrets.ts';
import { Tenant, type TenantTable } from '../../platform/tenancy.ts';
import {
  clearFailures,
  countAttempt,
  forgiveAttempt,
  resetThrottleKeys,
  throttleKeys,
} from '../../platform/throttle.ts';
import { defaultPaymentProvider } from '../billing/payment-methods.service.ts';
import { navigationFor } from './accounts.navigation.ts';
import { accountLinks, authSessions, companies, users } from './accounts.tables.ts';
import { mailOperatorsOfSignup } from './companies.service.ts';

/** How long activation and reset links live (Accounts issue). */
export const LINK_LIFETIME_MS = { activation: 7 * 24 * 60 * 60 * 1000, reset: 60 * 60 * 1000 } as const;

const _STAFF_ROLES: Role[] = ['companyadmin', 'companystaff', 'companycoach'];

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** The public URL of a company's logo, or null. */
export const logoUrl = (logoFile: string | null) => (logoFile ? `/api/v1/files/${logoFile}` : null);

/**
 * The companies table seen by the tenant helper: a company is its own tenant, so
 * `tenant.where(ownCompany)` is `companies.id = <the tenant>`.
 */
export const ownCompany: TenantTable = { companyId: companies.id };

/**
 * The active company an authhash names, or null. `closed`: a suspended company answers "bookings
 * are closed" (410) instead, for the public pages that show it (decision 018); sign-in and reset
 * just find nobody.
 */
async function companyByAuthhash(db: Db, authhash: string, closed: 'answer-closed' | 'none' = 'none') {
  const [company] = await db
    .select()
    .from(companies)
    // cross-tenant: a public page names its company only by authhash; this finds the tenant.
    .where(and(eq(companies.authhash, authhash), eq(companies.kind, 'customer')))
    .limit(1);
  if (company?.status === 'suspended' && closed === 'answer-closed')
    throw new CompanyClosedError(company.name);
  return company?.status === 'active' ? company : null;
}

/**
 * Why the staff of a company that is not active cannot sign in (decision 018). Told only after the
 * password was right, so it reveals nothing to someone guessing.
 */
export function companyNotActiveMessage(company: { status: string; statusReason: string | null }): string {
  if (company.status === 'pending') return companySignInMessages.pending;
  if (company.status === 'declined') return companySignInMessages.declined;
  const reason = company.statusReason ? ` Reason: ${company.statusReason}` : '';
  return `${companySignInMessages.suspended}${reason}`;
}

/**
 * POST /rest. Staff sign in with email and password; parents also name their company by authhash.
 * Unknown email, wrong password and inactive account look the same to the caller.
 */
export async function login(deps: AppDeps, input: LoginRequest, ip: string): Promise<string> {
  const { db } = deps.database;
  const email = normaliseEmail(input.username);
  const keys = throttleKeys(email, ip);
  // Counted before the password is checked, so parallel guesses cannot overrun the limit.
  await countAttempt(db, keys);

  const company = input.authhash ? await companyByAuthhash(db, input.authhash) : null;
  const candidates = await db
    .select({
      id: users.id,
      companyId: users.companyId,
      role: users.role,
      passwordHash: users.passwordHash,
      companyStatus: companies.status,
      statusReason: companies.statusReason,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    // cross-tenant: staff sign in by email alone, so the account names its company (an authhash narrows it below).
    .where(
      and(
        eq(users.email, email),
        eq(users.status, 'active'),
        // A company that is not active still finds its staff, to tell them why (below); never its parents.
        or(eq(companies.status, 'active'), ne(users.role, 'student')),
        // With an authhash: that company's accounts only (none when it names no active company).
        // Without: staff first, then parents.
        input.authhash ? eq(users.companyId, company?.id ?? 0) : undefined,
      ),
    )
    .orderBy(sql`${users.role} = 'student'`, users.id)
    .limit(5);

  let matched: (typeof candidates)[number] | undefined;
  for (const candidate of candidates) {
    if (await verifyPassword(candidate.passwordHash, input.password)) {
      matched = candidate;
      break;
    }
  }
  if (candidates.length === 0) await verifyPassword(await dummyPasswordHash(), input.password);
  if (!matched) throw new AppError(401, messages.loginFailed);
  await clearFailures(db, keys.account);
  await forgiveAttempt(db, keys.ip);
  if (matched.companyStatus !== 'active') {
    throw new AppError(
      401,
      companyNotActiveMessage({ status: matched.companyStatus, statusReason: matched.statusReason }),
    );
  }

  const token = randomToken();
  const tenant = new Tenant(matched.companyId);
  await db.transaction(async (tx) => {
    await tx.insert(authSessions).values({
      companyId: matched.companyId,
      userId: matched.id,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + SESSION_ABSOLUTE_MS),
    });
    await tx.update(users).set({ lastLoginAt: sql`now()` }).where(tenant.byId(users, matched.id));
  });
  return token;
}

export async function logout(deps: AppDeps, auth: AuthContext): Promise<void> {
  // An operator's session row lives in the operator's own company, also during support access.
  const tenant = auth.support?.home ?? auth.tenant;
  await deps.database.db
    .update(authSessions)
    .set({ revokedAt: sql`now()` })
    .where(tenant.byId(authSessions, auth.sessionId, isNull(authSessions.revokedAt)));
}

/** Ends every session of a user (password change, disabling), optionally keeping the current one. */
export async function revokeSessions(
  tx: Db,
  tenant: Tenant,
  userId: number,
  keepSessionId?: number,
): Promise<void> {
  await tx
    .update(authSessions)
    .set({ revokedAt: sql`now()` })
    .where(
      tenant.where(
        authSessions,
        eq(authSessions.userId, userId),
        isNull(authSessions.revokedAt),
        keepSessionId ? ne(authSessions.id, keepSessionId) : undefined,
      ),
    );
}

/** GET /rest/acl: the signed-in user's meta and navigation, or a company's branding for a public page. */
export async function acl(deps: AppDeps, auth: AuthContext | null, authhash?: string): Promise<AclResponse> {
  const { db } = deps.database;
  if (auth) {
    const [company] = await db.select().from(companies).where(auth.tenant.where(ownCompany)).limit(1);
    return {
      name: auth.fullName,
      meta: {
        logo: logoUrl(company?.logoFile ?? null),
        role: auth.role,
        is_company: auth.role !== 'student',
        company_id: auth.tenant.companyId,
        company_name: company?.name ?? null,
        currency: company?.currency ?? DEFAULT_CURRENCY,
        ...(auth.support && {
          support: {
            company_name: company?.name ?? '',
            reason: auth.support.reason,
            until: auth.support.until.toISOString(),
          },
        }),
      },
      navigation: navigationFor(auth.role, await enabledModules(db, auth.tenant)),
    };
  }
  const company = authhash ? await companyByAuthhash(db, authhash, 'answer-closed') : null;
  if (!company) throw new NotFoundError();
  return {
    name: company.name,
    meta: {
      logo: logoUrl(company.logoFile),
      role: null,
      is_company: false,
      company_id: company.id,
      company_name: company.name,
      currency: company.currency,
    },
    navigation: { side: [], top: [] },
  };
}

/** Creates a single-use link and returns the raw hashcode for the mail. */
export async function createLink(
  tx: Db,
  tenant: Tenant,
  userId: number,
  kind: 'activation' | 'reset',
  lifetimeMs: number = LINK_LIFETIME_MS[kind],
) {
  const hashcode = randomToken();
  await tx.insert(accountLinks).values(
    tenant.values({
      userId,
      kind,
      tokenHash: sha256(hashcode),
      expiresAt: new Date(Date.now() + lifetimeMs),
    }),
  );
  return hashcode;
}

async function mailLink(
  deps: AppDeps,
  tx: Db,
  tenant: Tenant,
  user: { id: number; email: string; fullName: string },
  kind: 'activation' | 'reset',
) {
  const [company] = await tx.select().from(companies).where(tenant.where(ownCompany));
  const hashcode = await createLink(tx, tenant, user.id, kind);
  const page = kind === 'activation' ? 'activate' : 'reset-password';
  await queueMail(
    tx,
    tenant,
    deps.config,
    kind === 'activation' ? 'activation' : 'password-reset',
    user.email,
    {
      name: user.fullName,
      company: company?.name ?? '',
      link: `${deps.config.publicUrl}/admin/${page}?hashcode=${encodeURIComponent(hashcode)}`,
    },
  );
}

/**
 * /admin/forgotten-password. Mails a reset link when the email belongs to an active account; the
 * answer is the same either way so it never reveals whether an email exists.
 */
export async function requestPasswordReset(
  deps: AppDeps,
  input: { email: string; authhash?: string | undefined },
  ip: string,
): Promise<void> {
  const { db } = deps.database;
  const email = normaliseEmail(input.email);
  const keys = resetThrottleKeys(email, ip);
  // Every request counts: this endpoint sends mail, so it is rate-limited like a failed sign-in.
  await countAttempt(db, keys);
  const company = input.authhash ? await companyByAuthhash(db, input.authhash) : null;
  const [user] = await db
    .select({ id: users.id, email: users.email, fullName: users.fullName, companyId: users.companyId })
    .from(users)
    // cross-tenant: a staff reset names only an email, so the account names its company (an authhash narrows it below).
    .where(
      and(
        eq(users.email, email),
        eq(users.status, 'active'),
        company ? eq(users.companyId, company.id) : undefined,
      ),
    )
    .orderBy(sql`${users.role} = 'student'`, users.id)
    .limit(1);
  if (!user) return;
  await db.transaction((tx) => mailLink(deps, tx, new Tenant(user.companyId), user, 'reset'));
  await deps.jobs.nudge(queues.mailDeliver);
}

async function findLink(db: Db, kind: 'activation' | 'reset', hashcode: string) {
  const [link] = await db
    .select()
    .from(accountLinks)
    // cross-tenant: a mailed link is found by its hash alone; the link names its company.
    .where(and(eq(accountLinks.tokenHash, sha256(hashcode)), eq(accountLinks.kind, kind)))
    .limit(1);
  return link ?? null;
}

/** Link check of SPEC.md point 4: 0 invalid (unknown or used), 2 timed out, 1 valid. */
export function linkState(link: { expiresAt: Date; usedAt: Date | null } | null): LinkCheckResult {
  if (!link || link.usedAt) return 0;
  if (link.expiresAt.getTime() <= Date.now()) return 2;
  return 1;
}

export async function checkLink(deps: AppDeps, kind: 'activation' | 'reset', hashcode: string) {
  return linkState(await findLink(deps.database.db, kind, hashcode));
}

/**
 * Uses a link once: locks it, re-checks it, and runs `use` in the same transaction. Two clicks at
 * once cannot both succeed. (A family invitation, invite.service.ts, sets its first password here too.)
 */
export async function consumeLink<T>(
  deps: AppDeps,
  kind: 'activation' | 'reset',
  hashcode: string,
  use: (tx: Db, tenant: Tenant, link: typeof accountLinks.$inferSelect) => Promise<T>,
): Promise<{ state: LinkCheckResult; result?: T }> {
  return deps.database.db.transaction(async (tx) => {
    const [link] = await tx
      .select()
      .from(accountLinks)
      // cross-tenant: a mailed link is found by its hash alone; the link names its company.
      .where(and(eq(accountLinks.tokenHash, sha256(hashcode)), eq(accountLinks.kind, kind)))
      .for('update');
    const state = linkState(link ?? null);
    if (state !== 1 || !link) return { state };
    const tenant = new Tenant(link.companyId);
    const result = await use(tx, tenant, link);
    await tx.update(accountLinks).set({ usedAt: sql`now()` }).where(tenant.byId(accountLinks, link.id));
    return { state, result };
  });
}

/**
 * /admin/activate: valid → the account becomes active. The administrator of a company waiting for
 * approval has now confirmed the email: the operators hear of the sign-up (decision 018).
 */
export async function activate(deps: AppDeps, hashcode: string): Promise<LinkCheckResult> {
  const { state } = await consumeLink(deps, 'activation', hashcode, async (tx, tenant, link) => {
    const [user] = await tx
      .update(users)
      .set({ status: 'active' })
      .where(tenant.byId(users, link.userId, eq(users.status, 'pending')))
      .returning({ role: users.role });
    const [company] = await tx.select().from(companies).where(tenant.where(ownCompany));
    if (user?.role === 'companyadmin' && company?.status === 'pending')
      await mailOperatorsOfSignup(deps, tx, company);
  });
  if (state === 1) await deps.jobs.nudge(queues.mailDeliver);
  return state;
}

const invalidForm = (field: string, message: string, html?: string): FormResponse => ({
  valid: false,
  error: { html_message: html ?? message, element: [{ name: field, messages: [message] }] },
});

/** /admin/reset-password: sets the new password, ends every session of the account. */
export async function resetPassword(deps: AppDeps, input: ResetPasswordRequest): Promise<FormResponse> {
  const [user] = await deps.database.db
    .select({ role: users.role })
    .from(users)
    .innerJoin(accountLinks, eq(accountLinks.userId, users.id))
    // cross-tenant: the reset link is found by its hash alone, before its company is known.
    .where(eq(accountLinks.tokenHash, sha256(input.hashcode)));
  const problem = newPasswordProblem(input.password, user?.role ?? 'student');
  if (problem) return invalidForm('password', problem);

  const passwordHash = await hashPassword(input.password);
  const { state } = await consumeLink(deps, 'reset', input.hashcode, async (tx, tenant, link) => {
    await tx.update(users).set({ passwordHash }).where(tenant.byId(users, link.userId));
    await revokeSessions(tx, tenant, link.userId);
  });
  if (state === 0) return { valid: false, error: { html_message: messages.resetLinkInvalid, element: [] } };
  if (state === 2) return { valid: false, error: { html_message: messages.resetLinkTimedOut, element: [] } };
  return {
    valid: true,
    redirect: '/admin/login',
    info: { title: 'Password changed', message: 'Your password has been changed. Please sign in.' },
  };
}

const isUniqueViolation = (error: unknown) => pgCode(error) === '23505';

/** /admin/company/signup: a company and its first administrator, who activates by email. */
export async function signupCompany(deps: AppDeps, input: CompanySignupRequest): Promise<FormResponse> {
  const problem = newPasswordProblem(input.password, 'companyadmin');
  if (problem) return invalidForm('password', problem);
  const email = normaliseEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  try {
    await deps.database.db.transaction(async (tx) => {
      const [company] = await tx
        .insert(companies)
        // Waits for an operator's approval once its administrator confirms the email (decision 018).
        .values({ name: input.company_name, authhash: randomToken(24), email, status: 'pending' })
        .returning();
      const tenant = new Tenant(company!.id);
      const [user] = await tx
        .insert(users)
        .values(
          tenant.values({ role: 'companyadmin' as const, email, fullName: input.full_name, passwordHash }),
        )
        .returning();
      await mailLink(deps, tx, tenant, user!, 'activation');
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      return invalidForm('email', 'An account with this email address already exists.');
    }
    throw error;
  }
  await deps.jobs.nudge(queues.mailDeliver);
  return {
    valid: true,
    info: {
      title: 'Check your email',
      message: `We have sent an activation link to ${email}. Open it to confirm your email address; we will notify you when your account is active.`,
    },
  };
}

/**
 * Parent signup through a company's public pages. Parents are active at once: a parent part-way
 * through a booking on a phone should not be sent to their inbox first.
 */
export async function signupParent(deps: AppDeps, input: StudentSignupRequest): Promise<FormResponse> {
  const company = await companyByAuthhash(deps.database.db, input.authhash, 'answer-closed');
  if (!company) throw new NotFoundError();
  const problem = newPasswordProblem(input.password, 'student');
  if (problem) return invalidForm('password', problem);
  const tenant = new Tenant(company.id);
  const email = normaliseEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  try {
    await deps.database.db.insert(users).values(
      tenant.values({
        role: 'student' as const,
        email,
        fullName: input.full_name,
        phone: input.phone,
        passwordHash,
        status: 'active' as const,
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) {
      return invalidForm('email', 'An account with this email address already exists. Please sign in.');
    }
    throw error;
  }
  return {
    valid: true,
    redirect: `/admin/students/login?authhash=${encodeURIComponent(input.authhash)}`,
    info: { title: 'Welcome!', message: 'Your account has been created. Please sign in.' },
  };
}

/**
 * The tenant's company, with the payment method its checkouts use: the enabled default of its
 * payment methods (billing), else the method set on the company.
 */
export async function companyOf(db: Db, tenant: Tenant) {
  // Side by side on the pool (every public booking and party call reads the company); one after
  // the other inside a transaction.
  const [[company], method] = await readTogether(db, [
    () => db.select().from(companies).where(tenant.where(ownCompany)).limit(1),
    () => defaultPaymentProvider(db, tenant),
  ]);
  if (!company) throw new NotFoundError();
  return { ...company, paymentMethod: method ?? company.paymentMethod };
}

export type Company = Awaited<ReturnType<typeof companyOf>>;

/** A user's name and email for mail (checkout, confirmations). */
export async function contactOf(db: Db, tenant: Tenant, userId: number) {
  const [user] = await db
    .select({ email: users.email, fullName: users.fullName })
    .from(users)
    .where(tenant.where(users, eq(users.id, userId)));
  if (!user) throw new NotFoundError();
  return user;
}

/** Where mail to the company goes: its own address, else its first administrator's. */
export async function companyContact(db: Db, tenant: Tenant): Promise<{ name: string; email: string }> {
  const [company] = await db.select().from(companies).where(tenant.where(ownCompany));
  const [admin] = await db
    .select({ email: users.email })
    .from(users)
    .where(tenant.where(users, eq(users.role, 'companyadmin')))
    .orderBy(users.id)
    .limit(1);
  return { name: company?.name ?? '', email: company?.email ?? admin?.email ?? '' };
}
