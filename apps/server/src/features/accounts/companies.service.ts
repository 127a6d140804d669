import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import { type AuthContext, SUPPORT_ACCESS_MS } from '../../platform/auth.ts';
import { pgCode } from '../../platform/db-errors.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { AppError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail, queueRenderedMail } from '../../platform/mail/mail.service.ts';
import { hashPassword, randomToken, sha256 } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { accountLinks, authSessions, companies, users } from './accounts.tables.ts';

/**
 * The installation side of companies (decision 018): the installation's own company and its
 * operators, every customer company with its status, approval and suspension, and an operator's
 * support access to one company.
 */

export type CompanyStatus = (typeof companies.$inferSelect)['status'];
export type CompanyAction = 'approve' | 'decline' | 'suspend' | 'reactivate';

const staffRoles = ['companyadmin', 'companystaff', 'companycoach'] as const;

/** Which statuses each action starts from, and where it leads. */
const transitions: Record<CompanyAction, { from: CompanyStatus[]; to: CompanyStatus }> = {
  approve: { from: ['pending', 'declined'], to: 'active' },
  decline: { from: ['pending'], to: 'declined' },
  suspend: { from: ['active'], to: 'suspended' },
  reactivate: { from: ['suspended'], to: 'active' },
};

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * Installation mail (not a company's system email, so no company may reword it): paragraphs, a
 * paragraph that is a URL becomes a link.
 */
function installationMail(kind: string, to: string, subject: string, paragraphs: string[]) {
  const html = paragraphs
    .map((p) =>
      /^https?:\/\/\S+$/.test(p)
        ? `<p><a href="${escapeHtml(p)}">${escapeHtml(p)}</a></p>`
        : `<p>${escapeHtml(p)}</p>`,
    )
    .join('\n');
  return { kind, to, subject, text: paragraphs.join('\n\n'), html, data: {} };
}

/**
 * The installation's own company: the home of its operators, never a customer, no public pages.
 * Made on first use; the advisory lock keeps two first uses from making two.
 */
export async function installationCompany(db: Db): Promise<{ id: number; name: string }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('installation-company'))`);
    const [found] = await tx
      .select({ id: companies.id, name: companies.name })
      .from(companies)
      // cross-tenant: the installation's row is found by its kind, before any tenant is known.
      .where(eq(companies.kind, 'installation'))
      .orderBy(asc(companies.id))
      .limit(1);
    if (found) return found;
    const [made] = await tx
      .insert(companies)
      .values({ name: 'Tumble installation', kind: 'installation', authhash: randomToken(24) })
      .returning({ id: companies.id, name: companies.name });
    return made!;
  });
}

/**
 * `npm run operator -- add <email>`: an operator account, invited like a staff member (admin.service
 * inviteUser): active, with a password nobody knows until the mailed link (also returned for the CLI
 * to print) sets one on the reset-password page.
 */
export async function addOperator(deps: AppDeps, email: string, fullName?: string) {
  const { db } = deps.database;
  const normalised = email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalised))
    throw new AppError(400, 'Please enter a valid email address.');
  const home = await installationCompany(db);
  const tenant = new Tenant(home.id);
  const hashcode = randomToken();
  const link = `${deps.config.publicUrl}/admin/reset-password?hashcode=${encodeURIComponent(hashcode)}&invitation=1`;
  const name = fullName?.trim() || normalised;
  const passwordHash = await hashPassword(randomToken());
  try {
    await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values(
          tenant.values({
            role: 'operator' as const,
            email: normalised,
            fullName: name,
            passwordHash,
            status: 'active' as const,
          }),
        )
        .returning();
      await tx.insert(accountLinks).values(
        tenant.values({
          userId: user!.id,
          kind: 'reset' as const,
          tokenHash: sha256(hashcode),
          expiresAt: new Date(Date.now() + OPERATOR_LINK_MS),
        }),
      );
      await queueMail(tx, tenant, deps.config, 'invitation', normalised, {
        name,
        inviter: 'The installation',
        company: home.name,
        link,
      });
    });
  } catch (error) {
    if (pgCode(error) === '23505')
      throw new ConflictError('An account with this email address already exists.');
    throw error;
  }
  await deps.jobs.nudge(queues.mailDeliver);
  return { email: normalised, link };
}

/** An operator's invitation lives as long as an activation link. */
const OPERATOR_LINK_MS = 7 * 24 * 60 * 60 * 1000;

/** Every operator account of the installation. */
export async function listOperators(db: Db) {
  const home = await installationCompany(db);
  const tenant = new Tenant(home.id);
  return db
    .select({ id: users.id, email: users.email, fullName: users.fullName, status: users.status })
    .from(users)
    .where(tenant.where(users, eq(users.role, 'operator')))
    .orderBy(users.email);
}

/** Disables an operator (rows that name them, such as audit entries, stay) and ends their sessions. */
export async function removeOperator(db: Db, email: string): Promise<boolean> {
  const home = await installationCompany(db);
  const tenant = new Tenant(home.id);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ status: 'disabled' })
      .where(tenant.where(users, eq(users.role, 'operator'), eq(users.email, email.trim().toLowerCase())))
      .returning({ id: users.id });
    if (!user) return false;
    await tx
      .update(authSessions)
      .set({ revokedAt: sql`now()` })
      .where(tenant.where(authSessions, eq(authSessions.userId, user.id), isNull(authSessions.revokedAt)));
    return true;
  });
}

/** Operators who receive the installation's mail (new sign-ups). */
async function activeOperators(tx: Db) {
  const [home] = await tx
    .select({ id: companies.id })
    .from(companies)
    // cross-tenant: the installation's row is found by its kind.
    .where(eq(companies.kind, 'installation'))
    .orderBy(asc(companies.id))
    .limit(1);
  if (!home) return { tenant: null, emails: [] as string[] };
  const tenant = new Tenant(home.id);
  const rows = await tx
    .select({ email: users.email })
    .from(users)
    .where(tenant.where(users, eq(users.role, 'operator'), eq(users.status, 'active')));
  return { tenant, emails: rows.map((r) => r.email) };
}

/** A company's administrator confirmed the email of its sign-up: every operator hears of it. */
export async function mailOperatorsOfSignup(
  deps: AppDeps,
  tx: Db,
  company: { id: number; name: string; email: string | null },
) {
  const { tenant, emails } = await activeOperators(tx);
  if (!tenant) return;
  const page = `${deps.config.publicUrl}/admin/customers/${company.id}`;
  for (const to of emails) {
    await queueRenderedMail(
      tx,
      tenant,
      deps.config,
      installationMail('company-signup', to, `New sign-up waiting for approval: ${company.name}`, [
        `${company.name} (${company.email ?? 'no email'}) signed up and confirmed its email address.`,
        'Approve or decline it on its customer page:',
        page,
      ]),
    );
  }
}

/** What the operator's Customers list and a customer's page show of a company. */
const customerColumns = {
  id: companies.id,
  name: companies.name,
  status: companies.status,
  statusReason: companies.statusReason,
  email: companies.email,
  phone: companies.phone,
  timeZone: companies.timeZone,
  currency: companies.currency,
  authhash: companies.authhash,
  createdAt: companies.createdAt,
};

/** Customer companies (never the installation's own row), oldest first. */
export async function customerCompanies(db: Db) {
  return (
    db
      .select(customerColumns)
      .from(companies)
      // cross-tenant: the operator's Customers list is every company.
      .where(eq(companies.kind, 'customer'))
      .orderBy(asc(companies.id))
  );
}

export type CustomerCompany = Awaited<ReturnType<typeof customerCompanies>>[number];

/** One customer company; an unknown id or the installation's own row is 404. */
export async function customerCompany(db: Db, companyId: number): Promise<CustomerCompany> {
  const tenant = new Tenant(companyId);
  const [company] = await db
    .select(customerColumns)
    .from(companies)
    .where(and(eq(companies.id, tenant.companyId), eq(companies.kind, 'customer')));
  if (!company) throw new NotFoundError();
  return company;
}

/** Each company's first administrator (its contact) and its count of staff users. */
export async function staffOfCompanies(db: Db) {
  const rows = await db
    .select({
      companyId: users.companyId,
      staff: sql<number>`count(*) filter (where ${users.status} <> 'disabled')::int`,
      contactName: sql<
        string | null
      >`(array_agg(${users.fullName} order by ${users.id}) filter (where ${users.role} = 'companyadmin'))[1]`,
      contactEmail: sql<
        string | null
      >`(array_agg(${users.email} order by ${users.id}) filter (where ${users.role} = 'companyadmin'))[1]`,
    })
    .from(users)
    // cross-tenant: the operator's Customers list counts the staff of every company.
    .where(inArray(users.role, [...staffRoles]))
    .groupBy(users.companyId);
  return new Map(rows.map((r) => [r.companyId, r]));
}

/**
 * Approve, decline, suspend (with a reason) or reactivate a company: one status change, audited in
 * the company's own log under the operator's name, and mailed to its administrators. Suspending
 * deletes nothing: its staff cannot sign in and its public pages say bookings are closed.
 */
export async function changeCompanyStatus(
  deps: AppDeps,
  operator: AuthContext,
  companyId: number,
  action: CompanyAction,
  reason: string | null,
) {
  const { from, to } = transitions[action];
  const tenant = new Tenant(companyId);
  const result = await deps.database.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(companies)
      .where(and(eq(companies.id, tenant.companyId), eq(companies.kind, 'customer')))
      .for('update');
    if (!before) throw new NotFoundError();
    if (!from.includes(before.status)) {
      throw new ConflictError(`This company is ${before.status}: it cannot be ${pastTense[action]}.`);
    }
    const [after] = await tx
      .update(companies)
      .set({ status: to, statusReason: action === 'suspend' || action === 'decline' ? reason : null })
      .where(eq(companies.id, tenant.companyId))
      .returning();
    // Audited in the company's log, so its own history says what the installation did to it.
    await recordAudit(
      tx,
      { ...operator, tenant, fullName: `${operator.fullName} (operator)` },
      {
        action,
        entity: 'companies',
        entityId: companyId,
        before: { status: before.status, statusReason: before.statusReason },
        after: { status: after!.status, statusReason: after!.statusReason },
      },
    );
    const admins = await tx
      .select({ email: users.email, fullName: users.fullName })
      .from(users)
      .where(tenant.where(users, eq(users.role, 'companyadmin'), ne(users.status, 'disabled')));
    const signIn = `${deps.config.publicUrl}/admin/login`;
    for (const admin of admins) {
      const mail = companyStatusMail(action, after!.name, reason, signIn);
      await queueRenderedMail(
        tx,
        tenant,
        deps.config,
        installationMail(`company-${action}`, admin.email, mail.subject, [
          `Hello ${admin.fullName},`,
          ...mail.body,
        ]),
      );
    }
    return after!;
  });
  await deps.jobs.nudge(queues.mailDeliver);
  return result;
}

const pastTense: Record<CompanyAction, string> = {
  approve: 'approved',
  decline: 'declined',
  suspend: 'suspended',
  reactivate: 'reactivated',
};

function companyStatusMail(action: CompanyAction, name: string, reason: string | null, signIn: string) {
  switch (action) {
    case 'approve':
      return {
        subject: `Your ${name} account is active`,
        body: [`Your company ${name} has been approved. You can sign in now:`, signIn],
      };
    case 'reactivate':
      return {
        subject: `Your ${name} account is active again`,
        body: [
          `Your company ${name} has been reactivated: bookings are open and staff can sign in again:`,
          signIn,
        ],
      };
    case 'decline':
      return {
        subject: `Your ${name} sign-up was not approved`,
        body: [
          `We are sorry: the sign-up of ${name} was not approved.`,
          ...(reason ? [`Reason: ${reason}`] : []),
          'Reply to this email if you think this is a mistake.',
        ],
      };
    case 'suspend':
      return {
        subject: `Your ${name} account is suspended`,
        body: [
          `Your company ${name} has been suspended: bookings are closed and staff cannot sign in. Nothing has been deleted.`,
          ...(reason ? [`Reason: ${reason}`] : []),
          'Reply to this email to restore it.',
        ],
      };
  }
}

/**
 * "Open as support": the operator's session acts in the company, as its administrator, for
 * SUPPORT_ACCESS_MS; the reason is required and recorded in the company's audit log.
 */
export async function startSupport(deps: AppDeps, operator: AuthContext, companyId: number, reason: string) {
  const company = await customerCompany(deps.database.db, companyId);
  const tenant = new Tenant(company.id);
  const until = new Date(Date.now() + SUPPORT_ACCESS_MS);
  await deps.database.db.transaction(async (tx) => {
    await tx
      .update(authSessions)
      .set({ supportCompanyId: company.id, supportReason: reason, supportUntil: until })
      .where(operator.tenant.byId(authSessions, operator.sessionId));
    await recordAudit(
      tx,
      { ...operator, tenant, fullName: `${operator.fullName} (operator)` },
      {
        action: 'support-open',
        entity: 'companies',
        entityId: company.id,
        after: { reason, until: until.toISOString() },
      },
    );
  });
  return { companyName: company.name, until };
}

/** "End" on the support banner: the session is the operator's own again. */
export async function endSupport(deps: AppDeps, auth: AuthContext) {
  if (!auth.support) return;
  const { home: tenant, companyId } = auth.support;
  await deps.database.db.transaction(async (tx) => {
    await tx
      .update(authSessions)
      .set({ supportCompanyId: null, supportReason: null, supportUntil: null })
      .where(tenant.byId(authSessions, auth.sessionId));
    await recordAudit(tx, auth, { action: 'support-end', entity: 'companies', entityId: companyId });
  });
}
