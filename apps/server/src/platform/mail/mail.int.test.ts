import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, users } from '../../features/accounts/accounts.tables.ts';
import { createCompany, createUser, type UserRow } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import {
  parseMail,
  type ReceivedMail,
  startSmtpServer,
  type TestSmtpServer,
  unusedSmtpUrl,
} from '../../testing/mail-smtp.ts';
import { Tenant } from '../tenancy.ts';
import { deliverPendingMail, mailWithoutSmtpNotice, queueRenderedMail } from './mail.service.ts';
import { mailOutbox } from './mail.tables.ts';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

let addresses = 0;
const nextIp = () => `10.2.0.${++addresses}`;

const NEW_PASSWORD = 'the password from the mail';

async function requestReset(t: TestContext, email: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/forgotten-password',
    payload: { email },
    remoteAddress: nextIp(),
  });
  expect(response.statusCode).toBe(200);
}

async function outboxFor(t: TestContext, email: string) {
  return t.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, email))
    .orderBy(mailOutbox.id);
}

const mailTo = (email: string) => (mail: ReceivedMail) => mail.envelopeTo.includes(email);

/** The /admin/<page>?hashcode=... link in a received mail's text part, with its hashcode. */
function linkIn(mail: ReceivedMail, page: 'reset-password' | 'activate') {
  const parsed = parseMail(mail.raw);
  const match = parsed.text.match(
    new RegExp(`(http://tumble\\.test/admin/${page}\\?hashcode=[A-Za-z0-9_%-]+)`),
  );
  if (!match) throw new Error(`no ${page} link in the mail text:\n${parsed.text}`);
  const url = new URL(match[1]!);
  return { parsed, url: match[1]!, hashcode: url.searchParams.get('hashcode')! };
}

/** Follows a reset link through the API as the SPA does, then signs in with the new password. */
async function followResetLink(t: TestContext, user: UserRow, hashcode: string) {
  const check = await t.app.inject({
    method: 'GET',
    url: `/api/v1/auth/reset-password?hashcode=${encodeURIComponent(hashcode)}&check=result`,
  });
  expect(check.json()).toEqual({ result: 1 });

  const reset = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/reset-password',
    payload: { hashcode, password: NEW_PASSWORD, password2: NEW_PASSWORD },
  });
  expect(reset.json()).toMatchObject({ valid: true, redirect: '/admin/login' });

  const login = (password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/rest',
      payload: { username: user.email, password },
      remoteAddress: nextIp(),
    });
  const signedIn = await login(NEW_PASSWORD);
  expect(signedIn.statusCode).toBe(200);
  expect(signedIn.json().token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect((await login(user.password)).statusCode).toBe(401);
}

describe('mail through a real SMTP server', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ SMTP_URL: smtp.url });
  });
  afterAll(() => t.close());

  it('delivers the reset mail, and the link in it resets the password when followed', async () => {
    const company = await createCompany(t.database.db, {
      name: 'Flip Side',
      email: 'hello@flipside.example',
    });
    const user = await createUser(t.database.db, company.id, { fullName: 'Morgan Staff' });

    await requestReset(t, user.email);
    const [queued] = await outboxFor(t, user.email);
    expect(queued).toMatchObject({ kind: 'password-reset', status: 'pending', attempts: 0, sentAt: null });
    expect(smtp.inbox.filter(mailTo(user.email))).toEqual([]);

    expect(await deliverPendingMail(t.database, t.config)).toBe(1);

    const [sent] = await outboxFor(t, user.email);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(sent!.sentAt).toBeInstanceOf(Date);
    const received = smtp.inbox.filter(mailTo(user.email));
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.envelopeFrom).toBe('no-reply@tumble.local');
    expect(mail!.envelopeTo).toEqual([user.email]);

    const { parsed, url, hashcode } = linkIn(mail!, 'reset-password');
    expect(parsed.subject).toBe('Reset your Flip Side password');
    expect(parsed.headers.get('to')).toBe(user.email);
    // The company's name, with the installation's address: the family sees who wrote.
    expect(parsed.headers.get('from')).toBe('Flip Side <no-reply@tumble.local>');
    expect(parsed.headers.get('reply-to')).toBe('hello@flipside.example');
    expect(parsed.text).toContain('Hello Morgan Staff,');
    expect(parsed.text).toContain('The link works once and expires in 1 hour.');
    // The HTML part links to the same address.
    expect(parsed.html).toContain(`<a href="${url}">${url}</a>`);
    expect(hashcode).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // On the wire the long link line is quoted-printable: soft-broken and with '=' encoded.
    expect(mail!.raw).toMatch(/Content-Transfer-Encoding: quoted-printable/i);
    expect(mail!.raw).toContain('hashcode=3D');
    expect(mail!.raw).not.toContain(url);

    await followResetLink(t, user, hashcode);
  });

  it('delivers the activation mail of a company signup, and its link activates the admin', async () => {
    const email = `founder-${Date.now()}@example.test`;
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/companies/signup',
      payload: {
        company_name: 'Vault & Co',
        full_name: 'Ada <Admin>',
        email,
        password: 'founder passphrase',
      },
    });
    expect(signup.json().valid).toBe(true);

    expect(await deliverPendingMail(t.database, t.config)).toBe(1);
    const mail = smtp.inbox.find(mailTo(email));
    const { parsed, hashcode } = linkIn(mail!, 'activate');
    expect(parsed.subject).toBe('Activate your Vault & Co account');
    // Values are escaped in the HTML part only.
    expect(parsed.text).toContain('Hello Ada <Admin>,');
    expect(parsed.html).toContain('Hello Ada &lt;Admin&gt;,');

    const activated = await t.app.inject({
      method: 'GET',
      url: `/api/v1/auth/activate?hashcode=${encodeURIComponent(hashcode)}&check=result`,
    });
    expect(activated.json()).toEqual({ result: 1 });
    const [admin] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(admin!.status).toBe('active');
  });

  it('never sends a mail twice, whether the runs follow each other or overlap', async () => {
    const company = await createCompany(t.database.db);
    const people = await Promise.all([1, 2, 3].map(() => createUser(t.database.db, company.id)));
    for (const person of people) await requestReset(t, person.email);

    // Two workers at once: SKIP LOCKED hands each mail to exactly one of them.
    const [first, second] = await Promise.all([
      deliverPendingMail(t.database, t.config),
      deliverPendingMail(t.database, t.config),
    ]);
    expect(first + second).toBe(3);
    expect(await deliverPendingMail(t.database, t.config)).toBe(0);

    for (const person of people) {
      expect(smtp.inbox.filter(mailTo(person.email))).toHaveLength(1);
      const rows = await outboxFor(t, person.email);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'sent', attempts: 1 });
    }
  });

  it('passes over a mail that cannot be sent (its file is gone) and sends the mail queued after it; the next run tries it again', async () => {
    const company = await createCompany(t.database.db);
    const parent = await createUser(t.database.db, company.id);
    const staff = await createUser(t.database.db, company.id);
    const broken = await t.database.db.transaction((tx) =>
      queueRenderedMail(tx, new Tenant(company.id), t.config, {
        kind: 'mass-mail',
        to: parent.email,
        subject: 'Term 1 timetable',
        text: 'The timetable is attached.',
        html: '<p>The timetable is attached.</p>',
        data: {
          attachmentFile: path.join(t.config.filesDir, 'mass-mail', 'gone.pdf'),
          attachmentName: 'timetable.pdf',
          attachmentType: 'application/pdf',
        },
      }),
    );
    await requestReset(t, staff.email);

    expect(await deliverPendingMail(t.database, t.config)).toBe(1);
    expect(smtp.inbox.filter(mailTo(staff.email))).toHaveLength(1);
    const [passedOver] = await outboxFor(t, parent.email);
    expect(passedOver).toMatchObject({ id: broken, status: 'pending', attempts: 1, sentAt: null });
    expect(passedOver!.lastError).toMatch(/ENOENT/);

    expect(await deliverPendingMail(t.database, t.config)).toBe(0);
    expect((await outboxFor(t, parent.email))[0]).toMatchObject({ status: 'pending', attempts: 2 });
    expect(smtp.inbox.filter(mailTo(parent.email))).toEqual([]);
  });
});

describe('mail while the SMTP server is down', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ SMTP_URL: await unusedSmtpUrl() });
  });
  afterAll(() => t.close());

  it('keeps the mail pending with the attempt counted and the error recorded, then sends it once the server is back', async () => {
    const company = await createCompany(t.database.db);
    const user = await createUser(t.database.db, company.id);
    await requestReset(t, user.email);

    expect(await deliverPendingMail(t.database, t.config)).toBe(0);
    const [afterOne] = await outboxFor(t, user.email);
    expect(afterOne).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
    expect(afterOne!.lastError).toMatch(/ECONNREFUSED/);

    expect(await deliverPendingMail(t.database, t.config)).toBe(0);
    const [afterTwo] = await outboxFor(t, user.email);
    expect(afterTwo).toMatchObject({ status: 'pending', attempts: 2 });

    // The server is back: the same row goes out, once.
    expect(await deliverPendingMail(t.database, { ...t.config, SMTP_URL: smtp.url })).toBe(1);
    const [sent] = await outboxFor(t, user.email);
    expect(sent).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(smtp.inbox.filter(mailTo(user.email))).toHaveLength(1);
    await followResetLink(t, user, linkIn(smtp.inbox.find(mailTo(user.email))!, 'reset-password').hashcode);
  });

  it('gives up after the fifth failed attempt and marks the mail failed', async () => {
    const company = await createCompany(t.database.db);
    const user = await createUser(t.database.db, company.id);
    await requestReset(t, user.email);
    await t.database.db.update(mailOutbox).set({ attempts: 4 }).where(eq(mailOutbox.toAddress, user.email));

    expect(await deliverPendingMail(t.database, t.config)).toBe(0);
    const [failed] = await outboxFor(t, user.email);
    expect(failed).toMatchObject({ status: 'failed', attempts: 5 });
    expect(failed!.lastError).toMatch(/ECONNREFUSED/);

    // A failed mail is not picked up again, even with the server back.
    expect(await deliverPendingMail(t.database, { ...t.config, SMTP_URL: smtp.url })).toBe(0);
    expect(smtp.inbox.filter(mailTo(user.email))).toEqual([]);
  });
});

describe('mail without SMTP_URL', () => {
  it("keeps the mail in the outbox as 'kept', sends nothing, and writes it once as an .eml file under DATA_DIR/mail", async () => {
    const t = await createTestApp();
    try {
      const company = await createCompany(t.database.db);
      const user = await createUser(t.database.db, company.id);
      await requestReset(t, user.email);

      expect(await deliverPendingMail(t.database, t.config)).toBe(1);
      const [kept] = await outboxFor(t, user.email);
      expect(kept).toMatchObject({ status: 'kept', attempts: 0, sentAt: null });
      expect(kept!.file).toMatch(/\.eml$/);
      expect(smtp.inbox.filter(mailTo(user.email))).toEqual([]);
      const eml = await readFile(path.join(t.config.mailDir, kept!.file!), 'utf8');
      expect(eml).toContain(`To: ${user.email}`);
      // Written once: the next run has nothing to write.
      expect(await deliverPendingMail(t.database, t.config)).toBe(0);
      expect(await readdir(t.config.mailDir)).toEqual([kept!.file]);
      expect(mailWithoutSmtpNotice(t.config)).toContain(t.config.mailDir);
    } finally {
      await t.close();
    }
  });

  it('a company that signs itself up can read its activation mail in DATA_DIR/mail and activate (issue 21 point 15)', async () => {
    const t = await createTestApp();
    try {
      const email = `founder-${Date.now()}@example.test`;
      const signup = await t.app.inject({
        method: 'POST',
        url: '/api/v1/companies/signup',
        payload: {
          company_name: 'Nobody Reads Co',
          full_name: 'Ada Admin',
          email,
          password: 'founder passphrase',
        },
      });
      expect(signup.json().valid).toBe(true);

      expect(await deliverPendingMail(t.database, t.config)).toBe(1);
      const [file] = await readdir(t.config.mailDir);
      const parsed = parseMail(await readFile(path.join(t.config.mailDir, file!), 'utf8'));
      expect(parsed.subject).toBe('Activate your Nobody Reads Co account');
      const hashcode = decodeURIComponent(
        /\/admin\/activate\?hashcode=([A-Za-z0-9_%-]+)/.exec(parsed.text)![1]!,
      );
      const activated = await t.app.inject({
        method: 'GET',
        url: `/api/v1/auth/activate?hashcode=${encodeURIComponent(hashcode)}&check=result`,
      });
      expect(activated.json()).toEqual({ result: 1 });
    } finally {
      await t.close();
    }
  });
});

describe('mail through the pg-boss worker', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ SMTP_URL: smtp.url }, { workers: true });
  });
  afterAll(() => t.close());

  it('delivers the reset mail without anyone calling deliverPendingMail, and the link works', async () => {
    const company = await createCompany(t.database.db);
    await t.database.db.update(companies).set({ name: 'Worker Gym' }).where(eq(companies.id, company.id));
    await t.syncCache();
    const user = await createUser(t.database.db, company.id);

    await requestReset(t, user.email);
    const mail = await smtp.waitFor(mailTo(user.email), 15_000);

    expect(parseMail(mail.raw).subject).toBe('Reset your Worker Gym password');
    // The worker marks the row right after the SMTP server accepted the mail.
    await expect
      .poll(async () => (await outboxFor(t, user.email)).map((r) => [r.kind, r.status, r.attempts]), {
        timeout: 5_000,
      })
      .toEqual([['password-reset', 'sent', 1]]);
    expect(smtp.inbox.filter(mailTo(user.email))).toHaveLength(1);
    await followResetLink(t, user, linkIn(mail, 'reset-password').hashcode);
  });
});
