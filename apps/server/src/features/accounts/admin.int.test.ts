import type { Role } from '@tumble/contracts/auth';
import { roles } from '@tumble/contracts/auth';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { createCompany, createUser, signIn, type UserRow } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { accountLinks, companies, users } from './accounts.tables.ts';

// 1×1 transparent PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

function multipart(file: Buffer, filename: string, type: string) {
  const boundary = '----tumble-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('staff account administration', () => {
  let t: TestContext;
  let companyA: Awaited<ReturnType<typeof createCompany>>;
  let companyB: Awaited<ReturnType<typeof createCompany>>;
  const people: Record<Role, UserRow> = {} as Record<Role, UserRow>;
  const headers: Record<Role, Record<string, string>> = {} as Record<Role, Record<string, string>>;
  let adminB: UserRow;
  let headersB: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    companyA = await createCompany(db, { name: 'Alpha Gym' });
    companyB = await createCompany(db, { name: 'Beta Gym' });
    for (const role of roles) {
      people[role] = await createUser(db, companyA.id, { role, password: 'a long enough password' });
      headers[role] = (
        await signIn(t.app, people[role], role === 'student' ? companyA.authhash : undefined)
      ).headers;
    }
    adminB = await createUser(db, companyB.id, { role: 'companyadmin', password: 'a long enough password' });
    headersB = (await signIn(t.app, adminB)).headers;
  });
  afterAll(() => t.close());

  describe('tenancy: company B never sees or changes company A', () => {
    it('answers 404 for A user by id, and lists only B users', async () => {
      const view = await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/users/${people.companystaff.id}`,
        headers: headersB,
      });
      expect(view.statusCode).toBe(404);
      const list = await t.app.inject({ method: 'GET', url: '/api/v1/admin/users', headers: headersB });
      expect(list.json().data.map((u: { email: string }) => u.email)).toEqual([adminB.email]);
    });

    it('answers 404 to an update of an A user and changes nothing', async () => {
      const before = await t.database.db.select().from(users).where(eq(users.id, people.companystaff.id));
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/v1/admin/users/${people.companystaff.id}`,
        headers: headersB,
        payload: { full_name: 'Hijacked', role: 'companyadmin', status: 'disabled' },
      });
      expect(response.statusCode).toBe(404);
      const after = await t.database.db.select().from(users).where(eq(users.id, people.companystaff.id));
      expect(after).toEqual(before);
    });

    it('answers 404 for A mail by id and shows only B mail', async () => {
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/users',
        headers: headers.companyadmin,
        payload: { full_name: 'New Coach', email: 'coach-new@alpha.test', role: 'companycoach' },
      });
      const [mail] = await t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.companyId, companyA.id));
      expect(mail).toBeDefined();
      const view = await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/mail/${mail!.id}`,
        headers: headersB,
      });
      expect(view.statusCode).toBe(404);
      const list = await t.app.inject({ method: 'GET', url: '/api/v1/admin/mail', headers: headersB });
      expect(list.json()).toEqual({ data: [], total: 0 });
      const own = await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/mail/${mail!.id}`,
        headers: headers.companyadmin,
      });
      expect(own.statusCode).toBe(200);
    });

    it('company settings are each company’s own', async () => {
      const a = await t.app.inject({
        method: 'GET',
        url: '/api/v1/admin/my-company',
        headers: headers.companyadmin,
      });
      const b = await t.app.inject({ method: 'GET', url: '/api/v1/admin/my-company', headers: headersB });
      expect(a.json().name).toBe('Alpha Gym');
      expect(b.json().name).toBe('Beta Gym');
      const update = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/my-company',
        headers: headersB,
        payload: {
          name: 'Beta Gym Renamed',
          email: '',
          phone: '',
          time_zone: 'Australia/Perth',
          currency: 'NZD',
        },
      });
      expect(update.json().valid).toBe(true);
      const [alpha] = await t.database.db.select().from(companies).where(eq(companies.id, companyA.id));
      expect(alpha!.name).toBe('Alpha Gym');
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/v1/admin/my-company', headers: headersB })).json(),
      ).toMatchObject({ name: 'Beta Gym Renamed', currency: 'NZD' });
      // The SPA formats amounts in the currency the user meta names.
      const acl = await t.app.inject({ method: 'GET', url: '/rest/acl', headers: headersB });
      expect(acl.json().meta.currency).toBe('NZD');
    });

    it('a new company charges in USD, and the currency must be an ISO 4217 code we offer (issue 21 point 21)', async () => {
      const [created] = await t.database.db
        .insert(companies)
        .values({ name: 'Fresh Co', authhash: `fresh-${Date.now()}` })
        .returning();
      expect(created!.currency).toBe('USD');
      const before = await t.app.inject({
        method: 'GET',
        url: '/api/v1/admin/my-company',
        headers: headersB,
      });
      for (const currency of ['usd', 'XYZ', 'JPY', '', 'AUDD']) {
        const refused = await t.app.inject({
          method: 'POST',
          url: '/api/v1/admin/my-company',
          headers: headersB,
          payload: { name: 'Beta Gym', email: '', phone: '', time_zone: 'Australia/Perth', currency },
        });
        expect(refused.json(), currency).toMatchObject({
          valid: false,
          error: { element: [{ name: 'currency', messages: ['Please choose a currency.'] }] },
        });
      }
      const after = await t.app.inject({ method: 'GET', url: '/api/v1/admin/my-company', headers: headersB });
      expect(after.json()).toEqual(before.json());
    });
  });

  describe('users', () => {
    it('invites a staff member with a mail whose link sets the first password', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/users',
        headers: headers.companyadmin,
        payload: { full_name: 'Sam Staff', email: 'Sam.Staff@Alpha.test', role: 'companystaff' },
      });
      expect(response.json()).toMatchObject({ valid: true, redirect: '/admin/users' });
      const [mail] = await t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, 'sam.staff@alpha.test'));
      // The link opens "Set your password", not "Reset your password" (issue 21 point 16).
      expect(mail!.text).toMatch(/\/admin\/reset-password\?hashcode=[^\s&]+&invitation=1/);
      const hashcode = decodeURIComponent(/hashcode=([^\s&]+)/.exec(mail!.text)![1]!);
      // Listed as invited, not active, until the first sign-in.
      const listed = async () =>
        (
          await t.app.inject({
            method: 'GET',
            url: '/api/v1/admin/users?q=sam.staff',
            headers: headers.companyadmin,
          })
        ).json().data[0];
      expect(await listed()).toMatchObject({ status: 'active', invited: true, last_login_at: null });
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/reset-password',
        payload: { hashcode, password: 'sam chooses a passphrase', password2: 'sam chooses a passphrase' },
      });
      expect(reset.json().valid).toBe(true);
      expect((await listed()).invited).toBe(true);
      await signIn(t.app, { email: 'sam.staff@alpha.test', password: 'sam chooses a passphrase' });
      expect(await listed()).toMatchObject({ status: 'active', invited: false });
    });

    it('refuses an invalid invitation with field errors and writes nothing', async () => {
      const [before] = await t.database.db.select({ n: count() }).from(users);
      const [linksBefore] = await t.database.db.select({ n: count() }).from(accountLinks);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/users',
        headers: headers.companyadmin,
        payload: { full_name: '', email: 'not-an-email', role: 'student' },
      });
      const body = response.json();
      expect(response.statusCode).toBe(200);
      expect(body.valid).toBe(false);
      expect(body.error.element.map((e: { name: string }) => e.name).sort()).toEqual([
        'email',
        'full_name',
        'role',
      ]);
      const [after] = await t.database.db.select({ n: count() }).from(users);
      const [linksAfter] = await t.database.db.select({ n: count() }).from(accountLinks);
      expect(after!.n).toBe(before!.n);
      expect(linksAfter!.n).toBe(linksBefore!.n);
    });

    it('disabling a user ends their sessions', async () => {
      const coach = await createUser(t.database.db, companyA.id, {
        role: 'companycoach',
        password: 'a long enough password',
      });
      const session = await signIn(t.app, coach);
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/v1/admin/users/${coach.id}`,
        headers: headers.companyadmin,
        payload: { full_name: coach.fullName, role: 'companycoach', status: 'disabled' },
      });
      expect(response.json().valid).toBe(true);
      const after = await t.app.inject({
        method: 'GET',
        url: '/api/v1/admin/my-account',
        headers: session.headers,
      });
      expect(after.statusCode).toBe(403);
    });

    it('an administrator cannot remove their own access', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/v1/admin/users/${people.companyadmin.id}`,
        headers: headers.companyadmin,
        payload: { full_name: 'Me', role: 'companystaff', status: 'active' },
      });
      expect(response.json()).toMatchObject({ valid: false, error: { element: [{ name: 'role' }] } });
    });
  });

  describe('my account', () => {
    it('changes the password only with the current one, and keeps this session', async () => {
      const user = await createUser(t.database.db, companyA.id, {
        role: 'companystaff',
        password: 'the old passphrase',
      });
      const first = await signIn(t.app, user);
      const second = await signIn(t.app, user);
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/my-account',
        headers: first.headers,
        payload: {
          full_name: 'Staff',
          email: user.email,
          phone: '',
          current_password: 'nope',
          new_password: 'the new passphrase',
        },
      });
      expect(wrong.json()).toMatchObject({
        valid: false,
        error: { element: [{ name: 'current_password' }] },
      });
      const right = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/my-account',
        headers: first.headers,
        payload: {
          full_name: 'Staff Renamed',
          email: user.email,
          phone: '0400 111 222',
          current_password: 'the old passphrase',
          new_password: 'the new passphrase',
        },
      });
      expect(right.json().valid).toBe(true);
      expect(
        (
          await t.app.inject({ method: 'GET', url: '/api/v1/admin/my-account', headers: first.headers })
        ).json(),
      ).toEqual({
        full_name: 'Staff Renamed',
        email: user.email,
        phone: '0400 111 222',
        role: 'companystaff',
      });
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/v1/admin/my-account', headers: second.headers }))
          .statusCode,
      ).toBe(403);
      await signIn(t.app, { email: user.email, password: 'the new passphrase' });
    });
  });

  describe('logo', () => {
    it('uploads a PNG, serves it publicly, shows it in /rest/acl, and deletes it', async () => {
      const upload = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/my-company/logo',
        headers: { ...headers.companyadmin, ...multipart(PNG, 'logo.png', 'image/png').headers },
        payload: multipart(PNG, 'logo.png', 'image/png').payload,
      });
      expect(upload.statusCode).toBe(200);
      const { logo } = upload.json();
      expect(logo).toMatch(new RegExp(`^/api/v1/files/public/${companyA.id}/`));
      const served = await t.app.inject({ method: 'GET', url: logo });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.rawPayload.equals(PNG)).toBe(true);
      const acl = await t.app.inject({ method: 'GET', url: `/rest/acl?authhash=${companyA.authhash}` });
      expect(acl.json().meta.logo).toBe(logo);

      const removed = await t.app.inject({
        method: 'DELETE',
        url: '/api/v1/admin/my-company/logo',
        headers: headers.companyadmin,
      });
      expect(removed.statusCode).toBe(204);
      expect((await t.app.inject({ method: 'GET', url: logo })).statusCode).toBe(404);
    });

    it('refuses a file that is not an image, whatever its name says', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
      const upload = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/my-company/logo',
        headers: { ...headers.companyadmin, ...multipart(svg, 'logo.png', 'image/png').headers },
        payload: multipart(svg, 'logo.png', 'image/png').payload,
      });
      expect(upload.statusCode).toBe(400);
      expect(upload.json().message).toBe('The logo must be a PNG, JPEG, GIF or WebP image.');
      const [company] = await t.database.db.select().from(companies).where(eq(companies.id, companyA.id));
      expect(company!.logoFile).toBeNull();
    });

    it('does not serve paths outside the file store', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/v1/files/public/..%2F..%2Fetc%2Fpasswd',
      });
      expect(response.statusCode).toBe(404);
    });
  });
});
