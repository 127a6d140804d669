import { companySignInMessages } from '@tumble/contracts/auth';
import { messages } from '@tumble/contracts/messages';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { COMMON_PASSWORD_MESSAGE } from '../../platform/passwords.ts';
import { sha256, verifyPassword } from '../../platform/secrets.ts';
import { createCompany, createUser, signIn } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { FORGOTTEN_PASSWORD_SENT } from './accounts.routes.ts';
import { LINK_LIFETIME_MS } from './accounts.service.ts';
import { accountLinks, authSessions, companies, users } from './accounts.tables.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// Sign-in and forgotten-password requests are rate-limited per address: one address per request.
let addresses = 0;
const nextIp = () => `10.1.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

let sequence = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${++sequence}@example.test`;

const STAFF_PASSWORD = 'a long staff passphrase';

const post = (url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress: nextIp() });

const login = (username: string, password: string, authhash?: string) =>
  post('/rest', { username, password, ...(authhash ? { authhash } : {}) });

const signupCompany = (overrides: Record<string, unknown> = {}) =>
  post('/api/v1/companies/signup', {
    company_name: 'Bounce Gym',
    full_name: 'Ada Admin',
    email: uniqueEmail('admin'),
    password: STAFF_PASSWORD,
    ...overrides,
  });

const activate = (hashcode: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/auth/activate?hashcode=${encodeURIComponent(hashcode)}&check=result`,
  });

const checkReset = (hashcode: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/auth/reset-password?hashcode=${encodeURIComponent(hashcode)}&check=result`,
  });

const forgotten = (email: string, authhash?: string) =>
  post('/api/v1/auth/forgotten-password', { email, ...(authhash ? { authhash } : {}) });

const resetPassword = (hashcode: string, password: string, password2 = password) =>
  post('/api/v1/auth/reset-password', { hashcode, password, password2 });

async function mailsTo(email: string) {
  return t.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, email))
    .orderBy(mailOutbox.id);
}

/** The hashcode of the link to `page` in a mail's text, as a reader would click it. */
function hashcodeIn(text: string, page: 'activate' | 'reset-password'): string {
  const match = text.match(new RegExp(`http://tumble\\.test/admin/${page}\\?hashcode=([A-Za-z0-9_%-]+)`));
  if (!match) throw new Error(`no /admin/${page} link in:\n${text}`);
  return decodeURIComponent(match[1]!);
}

async function counts() {
  const { db } = t.database;
  return {
    companies: await db.$count(companies),
    users: await db.$count(users),
    links: await db.$count(accountLinks),
    mails: await db.$count(mailOutbox),
  };
}

async function userByEmail(email: string) {
  const rows = await t.database.db.select().from(users).where(eq(users.email, email));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** Requests a reset for `email` and returns the hashcode from the mail. */
async function requestReset(email: string, authhash?: string) {
  const response = await forgotten(email, authhash);
  expect(response.statusCode).toBe(200);
  const mails = (await mailsTo(email)).filter((m) => m.kind === 'password-reset');
  return hashcodeIn(mails.at(-1)!.text, 'reset-password');
}

const expireLink = (hashcode: string) =>
  t.database.db
    .update(accountLinks)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(accountLinks.tokenHash, sha256(hashcode)));

describe('company signup and activation', () => {
  it('creates a pending admin who can sign in only after following the activation link from the mail', async () => {
    const email = uniqueEmail('founder');
    const response = await signupCompany({ email: email.toUpperCase(), company_name: 'Leap Academy' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      valid: true,
      info: {
        title: 'Check your email',
        message: `We have sent an activation link to ${email}. Open it to confirm your email address; we will notify you when your account is active.`,
      },
    });

    const admin = await userByEmail(email);
    expect(admin).toMatchObject({ role: 'companyadmin', status: 'pending', fullName: 'Ada Admin' });
    expect(admin.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(admin.passwordHash, STAFF_PASSWORD)).toBe(true);
    const [company] = await t.database.db.select().from(companies).where(eq(companies.id, admin.companyId));
    // The company waits for an installation operator's approval (decision 018).
    expect(company).toMatchObject({ name: 'Leap Academy', email, status: 'pending' });
    expect(company!.authhash).toMatch(/^[A-Za-z0-9_-]{32}$/);

    // Pending: the right password is still refused, exactly like a wrong one.
    const early = await login(email, STAFF_PASSWORD);
    expect(early.statusCode).toBe(401);
    expect(early.json()).toEqual({ message: messages.loginFailed });

    // Without SMTP_URL the mail is kept in the outbox for staff to read.
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail).toMatchObject({
      kind: 'activation',
      status: 'kept',
      companyId: company!.id,
      subject: 'Activate your Leap Academy account',
      attempts: 0,
      sentAt: null,
    });
    const hashcode = hashcodeIn(mail!.text, 'activate');
    expect(mail!.html).toContain(`http://tumble.test/admin/activate?hashcode=${hashcode}`);

    // Only the hash of the link is stored; it lives 7 days.
    const [link] = await t.database.db.select().from(accountLinks).where(eq(accountLinks.userId, admin.id));
    expect(link).toMatchObject({ kind: 'activation', tokenHash: sha256(hashcode), usedAt: null });
    const lifetime = link!.expiresAt.getTime() - link!.createdAt.getTime();
    expect(Math.abs(lifetime - LINK_LIFETIME_MS.activation)).toBeLessThan(60_000);

    const activated = await activate(hashcode);
    expect(activated.statusCode).toBe(200);
    expect(activated.json()).toEqual({ result: 1 });
    expect((await userByEmail(email)).status).toBe('active');
    // Confirmed, and still waiting for approval: told so (features/operators approves it).
    expect((await login(email, STAFF_PASSWORD)).json()).toEqual({ message: companySignInMessages.pending });
    await t.database.db.update(companies).set({ status: 'active' }).where(eq(companies.id, company!.id));
    await t.syncCache();

    const signedIn = await login(email, STAFF_PASSWORD);
    expect(signedIn.statusCode).toBe(200);
    const acl = await t.app.inject({
      method: 'GET',
      url: '/rest/acl',
      headers: { authorization: `Bearer ${signedIn.json().token}` },
    });
    expect(acl.json()).toMatchObject({
      name: 'Ada Admin',
      meta: { role: 'companyadmin', company_id: company!.id, company_name: 'Leap Academy' },
    });

    // The link works once.
    const reused = await activate(hashcode);
    expect(reused.statusCode).toBe(200);
    expect(reused.json()).toEqual({ result: 0 });
  });

  it('answers 0 to an unknown or empty activation hashcode, and to a reset hashcode', async () => {
    expect((await activate('this-was-never-issued-aaaaaaaaaaaaaaaaaaaaaa')).json()).toEqual({ result: 0 });
    const empty = await t.app.inject({ method: 'GET', url: '/api/v1/auth/activate?check=result' });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ result: 0 });

    const company = await createCompany(t.database.db);
    const pending = await createUser(t.database.db, company.id, { status: 'active' });
    const resetCode = await requestReset(pending.email);
    expect((await activate(resetCode)).json()).toEqual({ result: 0 });
    // Not consumed by the wrong page.
    expect((await checkReset(resetCode)).json()).toEqual({ result: 1 });
  });

  it('answers 2 to a timed-out activation link and leaves the account pending', async () => {
    const email = uniqueEmail('late');
    expect((await signupCompany({ email })).json().valid).toBe(true);
    const hashcode = hashcodeIn((await mailsTo(email))[0]!.text, 'activate');
    await expireLink(hashcode);

    const response = await activate(hashcode);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ result: 2 });
    expect((await userByEmail(email)).status).toBe('pending');
    const [link] = await t.database.db
      .select()
      .from(accountLinks)
      .where(eq(accountLinks.tokenHash, sha256(hashcode)));
    expect(link!.usedAt).toBeNull();
    expect((await login(email, STAFF_PASSWORD)).statusCode).toBe(401);
  });

  it.each([
    [
      'a password shorter than 12 characters',
      { password: 'elevenchars' },
      'password',
      'Password must be at least 12 characters.',
    ],
    ['a malformed email', { email: 'not-an-email' }, 'email', 'Please enter a valid email address.'],
    ['no company name', { company_name: '   ' }, 'company_name', 'Company name is required.'],
  ])(
    'refuses %s with the generated form response and writes nothing',
    async (_, overrides, field, message) => {
      const before = await counts();

      const response = await signupCompany(overrides);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        valid: false,
        error: {
          html_message: 'Please correct the errors below.',
          element: [{ name: field, messages: [message] }],
        },
      });
      expect(await counts()).toEqual(before);
    },
  );

  it('refuses an email that already has a staff account (any case), on the email field, and writes nothing', async () => {
    const company = await createCompany(t.database.db);
    const existing = await createUser(t.database.db, company.id, { role: 'companycoach' });
    const before = await counts();

    const response = await signupCompany({ email: existing.email.toUpperCase() });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      valid: false,
      error: {
        html_message: 'An account with this email address already exists.',
        element: [{ name: 'email', messages: ['An account with this email address already exists.'] }],
      },
    });
    // The company insert of the failed signup is rolled back with the user.
    expect(await counts()).toEqual(before);
  });
});

describe('forgotten password and reset', () => {
  it('queues exactly one reset mail for a known email, none for an unknown one, and answers both identically', async () => {
    const company = await createCompany(t.database.db, { name: 'Tumble Town' });
    const user = await createUser(t.database.db, company.id, { fullName: 'Sam Staff' });
    const before = await counts();

    const known = await forgotten(user.email.toUpperCase());
    const afterKnown = await counts();
    const unknown = await forgotten(uniqueEmail('stranger'));
    const afterUnknown = await counts();

    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: FORGOTTEN_PASSWORD_SENT });
    expect(unknown.body).toBe(known.body);

    expect(afterKnown).toEqual({ ...before, mails: before.mails + 1, links: before.links + 1 });
    expect(afterUnknown).toEqual(afterKnown);

    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: 'password-reset',
      status: 'kept',
      companyId: company.id,
      subject: 'Reset your Tumble Town password',
    });
    expect(mails[0]!.text).toContain('Hello Sam Staff,');
    const hashcode = hashcodeIn(mails[0]!.text, 'reset-password');
    const [link] = await t.database.db
      .select()
      .from(accountLinks)
      .where(and(eq(accountLinks.userId, user.id), eq(accountLinks.kind, 'reset')));
    expect(link!.tokenHash).toBe(sha256(hashcode));
    const lifetime = link!.expiresAt.getTime() - link!.createdAt.getTime();
    expect(Math.abs(lifetime - LINK_LIFETIME_MS.reset)).toBeLessThan(60_000);
  });

  it('sends no reset mail to a pending or disabled account', async () => {
    const company = await createCompany(t.database.db);
    const pending = await createUser(t.database.db, company.id, { status: 'pending' });
    const disabled = await createUser(t.database.db, company.id, { status: 'disabled' });

    for (const user of [pending, disabled]) {
      const response = await forgotten(user.email);
      expect(response.json()).toEqual({ message: FORGOTTEN_PASSWORD_SENT });
      expect(await mailsTo(user.email)).toEqual([]);
    }
  });

  it('checks a reset link: 1 valid, 0 unknown, 2 timed out', async () => {
    const company = await createCompany(t.database.db);
    const user = await createUser(t.database.db, company.id);
    const valid = await requestReset(user.email);
    const other = await createUser(t.database.db, company.id);
    const stale = await requestReset(other.email);
    await expireLink(stale);

    expect((await checkReset(valid)).json()).toEqual({ result: 1 });
    expect((await checkReset('this-was-never-issued-aaaaaaaaaaaaaaaaaaaaaa')).json()).toEqual({ result: 0 });
    expect((await checkReset(stale)).json()).toEqual({ result: 2 });
    // Checking does not use the link up.
    expect((await checkReset(valid)).json()).toEqual({ result: 1 });
  });

  it('refuses mismatched passwords on password2 and changes nothing', async () => {
    const company = await createCompany(t.database.db);
    const user = await createUser(t.database.db, company.id);
    const hashcode = await requestReset(user.email);

    const response = await resetPassword(hashcode, 'a brand new passphrase', 'a different passphrase');

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      valid: false,
      error: {
        html_message: 'Please correct the errors below.',
        element: [{ name: 'password2', messages: ['The passwords do not match.'] }],
      },
    });
    expect((await checkReset(hashcode)).json()).toEqual({ result: 1 });
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it('holds staff to 12 characters and parents to 8, on the password field', async () => {
    const company = await createCompany(t.database.db);
    const staff = await createUser(t.database.db, company.id, { role: 'companystaff' });
    const parent = await createUser(t.database.db, company.id, { role: 'student' });
    const staffCode = await requestReset(staff.email);
    const parentCode = await requestReset(parent.email, company.authhash);

    const staffShort = await resetPassword(staffCode, 'only11chars');
    expect(staffShort.json()).toEqual({
      valid: false,
      error: {
        html_message: 'Password must be at least 12 characters.',
        element: [{ name: 'password', messages: ['Password must be at least 12 characters.'] }],
      },
    });
    expect((await checkReset(staffCode)).json()).toEqual({ result: 1 });

    const parentShort = await resetPassword(parentCode, 'seven77');
    expect(parentShort.json().error.element).toEqual([
      { name: 'password', messages: ['Password must be at least 8 characters.'] },
    ]);
    const parentOk = await resetPassword(parentCode, 'eight888');
    expect(parentOk.json().valid).toBe(true);
    expect((await login(parent.email, 'eight888', company.authhash)).statusCode).toBe(200);
  });

  it('changes the password, ends every session, and works only once', async () => {
    const company = await createCompany(t.database.db);
    const user = await createUser(t.database.db, company.id);
    const { token } = await signIn(t.app, user);
    const hashcode = await requestReset(user.email);
    const newPassword = 'completely new passphrase';

    const response = await resetPassword(hashcode, newPassword);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      valid: true,
      redirect: '/admin/login',
      info: { title: 'Password changed', message: 'Your password has been changed. Please sign in.' },
    });
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    expect((await login(user.email, newPassword)).statusCode).toBe(200);

    const old = await t.app.inject({
      method: 'GET',
      url: '/rest/acl',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(old.statusCode).toBe(403);
    expect(old.json()).toEqual({ message: messages.sessionExpired, reason: 'session_expired' });
    const [oldSession] = await t.database.db
      .select()
      .from(authSessions)
      .where(eq(authSessions.tokenHash, sha256(token)));
    expect(oldSession!.revokedAt).not.toBeNull();

    const reused = await resetPassword(hashcode, 'yet another passphrase');
    expect(reused.json()).toEqual({
      valid: false,
      error: {
        html_message: 'The password reset link you have clicked is invalid. Please contact the provider.',
        element: [],
      },
    });
    expect((await checkReset(hashcode)).json()).toEqual({ result: 0 });
    expect((await login(user.email, newPassword)).statusCode).toBe(200);
  });

  it("refuses a timed-out link with SPEC.md's timed-out message and keeps the old password", async () => {
    const company = await createCompany(t.database.db);
    const user = await createUser(t.database.db, company.id);
    const hashcode = await requestReset(user.email);
    await expireLink(hashcode);

    const response = await resetPassword(hashcode, 'too late passphrase');

    expect(response.json()).toEqual({
      valid: false,
      error: { html_message: 'Your password reset link has timed out', element: [] },
    });
    expect(response.json().error.html_message).toBe(messages.resetLinkTimedOut);
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it('refuses an unknown hashcode with the invalid-link message', async () => {
    const response = await resetPassword(
      'this-was-never-issued-aaaaaaaaaaaaaaaaaaaaaa',
      'whatever passphrase',
    );
    expect(response.json()).toEqual({
      valid: false,
      error: { html_message: messages.resetLinkInvalid, element: [] },
    });
  });
});

describe('parent signup', () => {
  const signupParent = (overrides: Record<string, unknown>) =>
    post('/api/v1/students/signup', {
      full_name: 'Pat Parent',
      email: uniqueEmail('parent'),
      phone: '0400 000 000',
      password: 'parentpw',
      ...overrides,
    });

  it('refuses one of the most common passwords and creates nothing', async () => {
    const company = await createCompany(t.database.db);
    const email = uniqueEmail('parent');
    const response = await signupParent({ authhash: company.authhash, email, password: 'Iloveyou' });
    expect(response.json()).toEqual({
      valid: false,
      error: {
        html_message: COMMON_PASSWORD_MESSAGE,
        element: [{ name: 'password', messages: [COMMON_PASSWORD_MESSAGE] }],
      },
    });
    expect(await t.database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it('creates an active parent of the company the authhash names, who can sign in at once', async () => {
    const company = await createCompany(t.database.db);
    const email = uniqueEmail('parent');

    const response = await signupParent({ authhash: company.authhash, email });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      valid: true,
      redirect: `/admin/students/login?authhash=${encodeURIComponent(company.authhash)}`,
      info: { title: 'Welcome!', message: 'Your account has been created. Please sign in.' },
    });
    const parent = await userByEmail(email);
    expect(parent).toMatchObject({
      companyId: company.id,
      role: 'student',
      status: 'active',
      fullName: 'Pat Parent',
      phone: '0400 000 000',
    });
    expect((await login(email, 'parentpw', company.authhash)).statusCode).toBe(200);
  });

  it('refuses an email already registered at the same company, but not at another', async () => {
    const company = await createCompany(t.database.db);
    const other = await createCompany(t.database.db);
    const existing = await createUser(t.database.db, company.id, { role: 'student' });
    const before = await counts();

    const duplicate = await signupParent({ authhash: company.authhash, email: existing.email.toUpperCase() });

    expect(duplicate.json()).toEqual({
      valid: false,
      error: {
        html_message: 'An account with this email address already exists. Please sign in.',
        element: [
          { name: 'email', messages: ['An account with this email address already exists. Please sign in.'] },
        ],
      },
    });
    expect(await counts()).toEqual(before);

    const elsewhere = await signupParent({ authhash: other.authhash, email: existing.email });
    expect(elsewhere.json().valid).toBe(true);
    expect(await t.database.db.$count(users, eq(users.email, existing.email))).toBe(2);
  });

  it('answers 404 to an unknown authhash and writes nothing', async () => {
    const before = await counts();
    const response = await signupParent({ authhash: 'no-such-company' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found.' });
    expect(await counts()).toEqual(before);
  });

  it('refuses a password under 8 characters and a missing phone on their fields, writing nothing', async () => {
    const company = await createCompany(t.database.db);
    const before = await counts();

    const response = await signupParent({ authhash: company.authhash, password: 'seven77', phone: '' });

    expect(response.json()).toEqual({
      valid: false,
      error: {
        html_message: 'Please correct the errors below.',
        element: [
          { name: 'phone', messages: ['Phone is required.'] },
          { name: 'password', messages: ['Password must be at least 8 characters.'] },
        ],
      },
    });
    expect(await counts()).toEqual(before);
  });
});
