import { companySignInMessages } from '@tumble/contracts/auth';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { roleHas } from '../../platform/permissions.ts';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { type CompanyRow, createCompany, createUser, sessionFor, signIn } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createChild, createConfirmedBooking } from '../../testing/waiver-fixtures.ts';
import { companies, users } from '../accounts/accounts.tables.ts';
import { installationCompany } from '../accounts/companies.service.ts';
import { runOperatorCommand } from './operators.commands.ts';

let t: TestContext;
type Headers = Record<string, string>;
const PASSWORD = 'a long operator passphrase';

const inject = (method: 'GET' | 'POST', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, ...(method === 'POST' ? { payload: payload ?? {} } : {}) });

const mailsTo = (email: string) =>
  t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(mailOutbox.id);

const linkIn = (text: string) => /(https?:\/\/\S+hashcode=[^\s&]+)/.exec(text)![1]!;
const hashcodeOf = (link: string) => decodeURIComponent(new URL(link).searchParams.get('hashcode')!);

/** `npm run operator -- add`, then the invitation link sets the password; returns a signed-in session. */
async function newOperator(email: string): Promise<Headers> {
  const added = await runOperatorCommand(t.deps, ['add', email, 'Olive', 'Operator']);
  expect(added.code).toBe(0);
  const link = linkIn(added.lines.join('\n'));
  const reset = await inject(
    'POST',
    '/api/v1/auth/reset-password',
    {},
    {
      hashcode: hashcodeOf(link),
      password: PASSWORD,
      password2: PASSWORD,
    },
  );
  expect(reset.json().valid).toBe(true);
  return (await signIn(t.app, { email, password: PASSWORD })).headers;
}

const companyAudit = (companyId: number) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.companyId, companyId), eq(auditLog.entity, 'companies')))
    .orderBy(auditLog.id);

let operator: Headers;
beforeAll(async () => {
  t = await createTestApp();
  operator = await newOperator('olive@installation.test');
});
afterAll(() => t.close());

describe('npm run operator', () => {
  it('adds an operator of the installation company, mails the invitation, lists and removes', async () => {
    const home = await installationCompany(t.database.db);
    const [row] = await t.database.db.select().from(users).where(eq(users.email, 'olive@installation.test'));
    expect(row).toMatchObject({
      role: 'operator',
      companyId: home.id,
      status: 'active',
      fullName: 'Olive Operator',
    });
    const [mail] = await mailsTo('olive@installation.test');
    expect(mail!.companyId).toBe(home.id);
    expect(mail!.text).toContain('/admin/reset-password?hashcode=');
    // The installation's own company is no customer.
    const [own] = await t.database.db.select().from(companies).where(eq(companies.id, home.id));
    expect(own!.kind).toBe('installation');

    expect((await runOperatorCommand(t.deps, ['add', 'olive@installation.test'])).lines).toEqual([
      'An account with this email address already exists.',
    ]);
    expect((await runOperatorCommand(t.deps, ['add', 'not-an-email'])).code).toBe(1);
    expect((await runOperatorCommand(t.deps, ['frobnicate'])).code).toBe(2);

    const second = await newOperator('otto@installation.test');
    expect((await runOperatorCommand(t.deps, ['list'])).lines.join('\n')).toContain('otto@installation.test');
    expect((await runOperatorCommand(t.deps, ['remove', 'otto@installation.test'])).code).toBe(0);
    // Signed out, and cannot sign in again.
    expect((await inject('GET', '/api/v1/operators/customers', second)).statusCode).toBe(403);
    const login = await inject(
      'POST',
      '/rest',
      {},
      { username: 'otto@installation.test', password: PASSWORD },
    );
    expect(login.statusCode).toBe(401);
    expect((await runOperatorCommand(t.deps, ['remove', 'nobody@installation.test'])).code).toBe(1);
  });

  it('signs an operator in to their own navigation: Customers, no company page', async () => {
    const acl = (await inject('GET', '/rest/acl', operator)).json();
    expect(acl.meta.role).toBe('operator');
    expect(acl.meta.support).toBeUndefined();
    const paths = acl.navigation.side.map((i: { path: string }) => i.path);
    expect(paths).toContain('/admin/customers');
    expect(paths).not.toContain('/admin/dashboard');
    // Their own profile and password, in the top menu.
    expect(acl.navigation.top).toEqual([{ label: 'My Account', path: '/admin/my-account' }]);
    const account = await inject('GET', '/api/v1/admin/my-account', operator);
    expect(account.json()).toMatchObject({ email: 'olive@installation.test', role: 'operator' });
  });
});

describe('an operator inside a company', () => {
  it('is refused every company route without support access (403)', async () => {
    const company = await createCompany(t.database.db);
    const refused: string[] = [];
    for (const route of t.app.routeAccess) {
      if (route.access === 'public' || route.access === 'signed-in') continue;
      if (roleHas('operator', route.access)) continue;
      const url = route.url.replace(/:\w+/g, String(company.id)).replace('*', 'missing.png');
      const response = await inject(route.method as 'GET', url, operator);
      if (response.statusCode !== 403) refused.push(`${route.method} ${url} → ${response.statusCode}`);
    }
    expect(refused).toEqual([]);
    // The operator permission is the only one an operator holds.
    expect(roleHas('operator', 'admin.access')).toBe(false);
    expect(roleHas('operator', 'installation.operate')).toBe(true);
  });

  it('opens a company as support only with a reason, audited, and ends it', async () => {
    const company = await createCompany(t.database.db, { name: 'Bounce House' });
    const session = await newOperator('sally@installation.test');

    const noReason = await inject('POST', `/api/v1/operators/customers/${company.id}/support`, session, {
      reason: '  ',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('A reason is required to open a company as support.');
    expect(await companyAudit(company.id)).toEqual([]);
    expect((await inject('GET', '/api/v1/admin/my-company', session)).statusCode).toBe(403);

    const opened = await inject('POST', `/api/v1/operators/customers/${company.id}/support`, session, {
      reason: 'Ticket 42: cannot add a venue',
    });
    expect(opened.statusCode).toBe(200);
    expect(opened.json().company_name).toBe('Bounce House');

    const acl = (await inject('GET', '/rest/acl', session)).json();
    expect(acl.meta).toMatchObject({
      role: 'companyadmin',
      company_id: company.id,
      company_name: 'Bounce House',
      support: { company_name: 'Bounce House', reason: 'Ticket 42: cannot add a venue' },
    });
    const myCompany = await inject('GET', '/api/v1/admin/my-company', session);
    expect(myCompany.statusCode).toBe(200);
    // A change made in support is audited in the company under the operator's name.
    const venue = await inject('POST', '/api/v1/admin/venues', session, {
      name: 'Support Hall',
      address: '1 Help St',
    });
    expect(venue.statusCode).toBe(200);
    const [venueAudit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.entity, 'venues')));
    expect(venueAudit?.actorName).toBe('Olive Operator (operator support)');
    // Every call made inside the company is logged there too, reads included.
    const calls = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'support-request')));
    expect(calls.map((c) => c.after)).toEqual([
      { method: 'GET', path: '/api/v1/admin/my-company', status: 200 },
      { method: 'POST', path: '/api/v1/admin/venues', status: 200 },
    ]);
    expect(calls[0]!.actorName).toBe('Olive Operator (operator support)');
    // Operator pages are closed while inside a company.
    expect((await inject('GET', '/api/v1/operators/customers', session)).statusCode).toBe(403);

    expect((await inject('POST', '/api/v1/operators/support/end', session)).statusCode).toBe(204);
    expect((await inject('GET', '/api/v1/admin/my-company', session)).statusCode).toBe(403);
    expect((await inject('GET', '/rest/acl', session)).json().meta.role).toBe('operator');

    const audit = await companyAudit(company.id);
    expect(audit.map((a) => a.action)).toEqual(['support-open', 'support-end']);
    expect(audit[0]!.summary).toContain('Ticket 42: cannot add a venue');
    expect(audit[0]!.actorName).toBe('Olive Operator (operator)');
  });

  it('answers 404 to support for an unknown company or the installation itself', async () => {
    const home = await installationCompany(t.database.db);
    for (const id of [home.id, 2_000_000]) {
      const response = await inject('POST', `/api/v1/operators/customers/${id}/support`, operator, {
        reason: 'Looking around',
      });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('customers', () => {
  it('lists every customer company with status, usage and contact, never the installation', async () => {
    const company = await createCompany(t.database.db, { name: 'Tumble Tots', email: 'hello@tots.test' });
    const admin = await createUser(t.database.db, company.id, {
      role: 'companyadmin',
      fullName: 'Ada Admin',
    });
    await createUser(t.database.db, company.id, { role: 'companycoach' });
    const parent = await createUser(t.database.db, company.id, { role: 'student' });
    const child = await createChild(t.database.db, company.id, parent.id);
    await createChild(t.database.db, company.id, parent.id, 'Leo');
    const { event } = await createBookableEvent(t.database.db, company.id);
    await createConfirmedBooking(t.database.db, company.id, {
      parentId: parent.id,
      eventId: event.id,
      childIds: [child.id],
      total: 4500,
    });
    await t.deps.files.put(`public/${company.id}/abcdefghijklmnop.png`, Buffer.alloc(1234));

    const response = await inject('GET', '/api/v1/operators/customers', operator);
    expect(response.statusCode).toBe(200);
    const rows = response.json().customers;
    const home = await installationCompany(t.database.db);
    expect(rows.some((r: { id: number }) => r.id === home.id)).toBe(false);
    expect(rows.find((r: { id: number }) => r.id === company.id)).toMatchObject({
      name: 'Tumble Tots',
      status: 'active',
      plan: null,
      usage: { children: 2, staff: 2, bookings_this_month: 1, revenue_this_month: 4500, storage_bytes: 1234 },
      contact: { name: admin.fullName, email: 'hello@tots.test' },
    });

    // Its plan and trial come from its subscription (platform/installation).
    await t.database.db.execute(sql`
      with plan as (insert into plans (name, monthly_price) values ('Operator test plan', 4900) returning id)
      insert into subscriptions (company_id, plan_id, status, trial_ends_at, provider)
      select ${company.id}, id, 'trialing', '2030-01-31T00:00:00Z', 'test' from plan`);
    const withPlan = (await inject('GET', '/api/v1/operators/customers', operator)).json().customers;
    expect(withPlan.find((r: { id: number }) => r.id === company.id)).toMatchObject({
      plan: 'Operator test plan',
      subscription_status: 'trialing',
      trial_ends_at: '2030-01-31T00:00:00.000Z',
    });

    const detail = await inject('GET', `/api/v1/operators/customers/${company.id}`, operator);
    expect(detail.json()).toMatchObject({ id: company.id, history: [] });
    expect((await inject('GET', `/api/v1/operators/customers/${home.id}`, operator)).statusCode).toBe(404);
    // Company staff are refused the operator's pages.
    expect(
      (await inject('GET', '/api/v1/operators/customers', (await sessionFor(t.database.db, admin)).headers))
        .statusCode,
    ).toBe(403);
  });
});

describe('approval and suspension', () => {
  let company: CompanyRow;
  let admin: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    company = await createCompany(t.database.db, { name: 'Flip Out', status: 'pending' });
    admin = await createUser(t.database.db, company.id, { role: 'companyadmin', fullName: 'Fay Flip' });
  });

  const act = (action: string, payload: object = {}) =>
    inject('POST', `/api/v1/operators/customers/${company.id}/${action}`, operator, payload);
  const login = () => inject('POST', '/rest', {}, { username: admin.email, password: admin.password });

  it('approves a pending company: its admin is mailed and can sign in', async () => {
    expect((await login()).json().message).toBe(companySignInMessages.pending);
    expect((await act('suspend', { reason: 'x' })).statusCode).toBe(409);

    const approved = await act('approve');
    expect(approved.statusCode).toBe(200);
    expect(approved.json().status).toBe('active');
    expect((await login()).statusCode).toBe(200);
    const [mail] = await mailsTo(admin.email);
    expect(mail).toMatchObject({ companyId: company.id, subject: 'Your Flip Out account is active' });
    expect(mail!.text).toContain('http://tumble.test/admin/login');
    expect(approved.json().history[0]).toMatchObject({
      action: 'approve',
      actor: 'Olive Operator (operator)',
    });
  });

  it('suspends only with a reason: staff told why, public pages closed (410), nothing deleted', async () => {
    const staffSession = (await signIn(t.app, admin)).headers;
    const parent = await createUser(t.database.db, company.id, { role: 'student' });
    const missing = await act('suspend', { reason: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('A reason is required to suspend a company.');

    const suspended = await act('suspend', { reason: 'Unpaid invoice' });
    expect(suspended.json()).toMatchObject({ status: 'suspended', status_reason: 'Unpaid invoice' });
    const refused = await login();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(`${companySignInMessages.suspended} Reason: Unpaid invoice`);
    // Sessions already open end at once (loadSession lets only active companies in).
    expect((await inject('GET', '/api/v1/admin/my-company', staffSession)).statusCode).toBe(403);
    for (const url of [
      `/rest/acl?authhash=${company.authhash}`,
      `/api/v1/booking?e=00&authhash=${company.authhash}`,
      `/api/v1/birthday-party/booking/load-calendar?year=2030&authhash=${company.authhash}`,
    ]) {
      const page = await inject('GET', url);
      expect(page.statusCode, url).toBe(410);
      expect(page.json(), url).toEqual({
        message: 'Bookings with Flip Out are closed at the moment.',
        reason: 'company_closed',
      });
    }
    expect((await mailsTo(admin.email)).at(-1)!.text).toContain('Reason: Unpaid invoice');
    // Nothing deleted: the parent and the admin are still there.
    expect(await t.database.db.$count(users, eq(users.companyId, company.id))).toBe(2);
    expect(parent.id).toBeGreaterThan(0);

    const reactivated = await act('reactivate');
    expect(reactivated.json()).toMatchObject({ status: 'active', status_reason: null });
    expect((await login()).statusCode).toBe(200);
    expect((await inject('GET', `/rest/acl?authhash=${company.authhash}`)).statusCode).toBe(200);
    expect((await companyAudit(company.id)).map((a) => a.action)).toEqual([
      'approve',
      'suspend',
      'reactivate',
    ]);
  });

  it('declines a pending company with a mail; a pending company’s public pages are not found', async () => {
    const other = await createCompany(t.database.db, { name: 'Nope Gym', status: 'pending' });
    const otherAdmin = await createUser(t.database.db, other.id, { role: 'companyadmin' });
    expect((await inject('GET', `/rest/acl?authhash=${other.authhash}`)).statusCode).toBe(404);
    const declined = await inject('POST', `/api/v1/operators/customers/${other.id}/decline`, operator, {
      reason: 'Not a children’s activity provider',
    });
    expect(declined.json()).toMatchObject({ status: 'declined' });
    expect((await mailsTo(otherAdmin.email)).at(-1)!.subject).toBe('Your Nope Gym sign-up was not approved');
    const refused = await inject(
      'POST',
      '/rest',
      {},
      { username: otherAdmin.email, password: otherAdmin.password },
    );
    expect(refused.json().message).toBe(companySignInMessages.declined);
  });
});

describe('company sign-up', () => {
  it('signs up pending, confirms, operators mailed, waits, then signs in once approved', async () => {
    const email = 'owner@newgym.test';
    const signup = await inject(
      'POST',
      '/api/v1/companies/signup',
      {},
      {
        company_name: 'New Gym',
        full_name: 'Nora Owner',
        email,
        password: 'a long company passphrase',
      },
    );
    expect(signup.json().valid).toBe(true);
    const [company] = await t.database.db.select().from(companies).where(eq(companies.name, 'New Gym'));
    expect(company!.status).toBe('pending');
    // Nobody is told before the email is confirmed.
    expect(await mailsTo('olive@installation.test')).toHaveLength(1);

    const [activation] = await mailsTo(email);
    const activated = await inject(
      'GET',
      `/api/v1/auth/activate?hashcode=${encodeURIComponent(hashcodeOf(linkIn(activation!.text)))}`,
    );
    expect(activated.json()).toEqual({ result: 1 });
    const operatorMails = await mailsTo('olive@installation.test');
    expect(operatorMails.at(-1)!.subject).toBe('New sign-up waiting for approval: New Gym');
    expect(operatorMails.at(-1)!.text).toContain(`/admin/customers/${company!.id}`);

    const waiting = await inject(
      'POST',
      '/rest',
      {},
      { username: email, password: 'a long company passphrase' },
    );
    expect(waiting.statusCode).toBe(401);
    expect(waiting.json().message).toBe(companySignInMessages.pending);
    // A wrong password still says only that sign-in failed.
    const wrong = await inject('POST', '/rest', {}, { username: email, password: 'not the passphrase' });
    expect(wrong.json().message).not.toBe(companySignInMessages.pending);

    await inject('POST', `/api/v1/operators/customers/${company!.id}/approve`, operator);
    const signedIn = await inject(
      'POST',
      '/rest',
      {},
      { username: email, password: 'a long company passphrase' },
    );
    expect(signedIn.statusCode).toBe(200);
  });
});
