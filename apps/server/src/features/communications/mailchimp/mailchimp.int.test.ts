import { createHash } from 'node:crypto';
import { mailingMessages } from '@tumble/contracts/integrations';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../../platform/mail/mail.tables.ts';
import { Tenant } from '../../../platform/tenancy.ts';
import { createClassWithSessions } from '../../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../../testing/harness.ts';
import { classEnrolments } from '../../classes/classes.tables.ts';
import { children } from '../../students/students.tables.ts';
import { marketingStatusOf, setMarketingConsent } from '../consent.service.ts';
import { marketingConsents } from '../consent.tables.ts';
import { syncConnectedMailchimp } from './mailchimp.service.ts';
import { mailchimpConnections, mailchimpMembers } from './mailchimp.tables.ts';
import {
  type MailchimpStub,
  mailchimpStubEnv,
  STUB_API_KEY,
  STUB_LIST_ID,
  STUB_LIST_NAME,
  STUB_OTHER_LIST_ID,
  startMailchimpStub,
} from './testing/mailchimp-stub.ts';

describe('mailing: Mailchimp sync against a local stub', () => {
  let stub: MailchimpStub;
  let t: TestContext;
  let tenant: Tenant;
  let authhash: string;
  let admin: Record<string, string>;
  let staff: Record<string, string>;
  let otherAdmin: Record<string, string>;
  /** Families: Ann (no answer, a child in Kinder Gym), Ben (granted), Cat (withdrew), Dee (an address Mailchimp refuses), Eve. */
  const fam = {} as Record<'ann' | 'ben' | 'cat' | 'dee' | 'eve', { id: number; email: string }>;
  let otherFamilyEmail: string;
  let annPlaceId: number;
  const path = '/api/v1/admin/integrations/mailing';

  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, payload: method === 'POST' ? (payload ?? {}) : undefined });
  const status = async (headers = admin) => (await call('GET', path, undefined, headers)).json();
  const sync = async () => {
    const response = await call('POST', `${path}/sync`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { sent: number; failed: number; message: string };
  };
  const member = (email: string) => stub.member(STUB_LIST_ID, email);
  const consentOf = async (parentId: number) =>
    (await marketingStatusOf(t.database.db, tenant, [parentId])).get(parentId);
  /** The webhook Mailchimp was given for the audience: its URL's path on our server. */
  const webhookPath = () => new URL(stub.webhooks.find((w) => w.listId === STUB_LIST_ID)!.url).pathname;
  const postWebhook = (url: string, form: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });

  beforeAll(async () => {
    stub = await startMailchimpStub();
    t = await createTestApp(mailchimpStubEnv(stub));
    const { db } = t.database;
    const company = await createCompany(db, { timeZone: 'Australia/Sydney' });
    tenant = new Tenant(company.id);
    authhash = company.authhash;
    admin = (await sessionFor(db, await createUser(db, company.id, { role: 'companyadmin' }))).headers;
    staff = (await sessionFor(db, await createUser(db, company.id, { role: 'companystaff' }))).headers;
    const family = async (fullName: string, email: string) => {
      const user = await createUser(db, company.id, { role: 'student', fullName, email });
      return { id: user.id, email };
    };
    fam.ann = await family('Ann Smith', 'ann@example.test');
    fam.ben = await family('Ben van der Berg', 'ben@example.test');
    fam.cat = await family('Cat Jones', 'cat@example.test');
    fam.dee = await family('Dee Bad', 'dee@mail.invalid');
    fam.eve = await family('Eve Long', 'eve@example.test');
    await setMarketingConsent(db, tenant, fam.ben.id, true, 'parent');
    await setMarketingConsent(db, tenant, fam.cat.id, false, 'parent');
    // Ann's child is in Kinder Gym this term (the term runs into 2030).
    const kinder = await createClassWithSessions(db, company.id, {
      coachId: null,
      dates: ['2026-01-06', '2030-12-10'],
    });
    const [child] = await db
      .insert(children)
      .values(tenant.values({ parentId: fam.ann.id, firstName: 'Amy', lastName: 'Smith', dob: '2020-01-01' }))
      .returning();
    const [place] = await db
      .insert(classEnrolments)
      .values(
        tenant.values({
          termClassId: kinder.termClass.id,
          childId: child!.id,
          kind: 'enrolled' as const,
          startsOn: '2026-01-06',
          status: 'active' as const,
        }),
      )
      .returning();
    annPlaceId = place!.id;

    const other = await createCompany(db);
    otherAdmin = (await sessionFor(db, await createUser(db, other.id, { role: 'companyadmin' }))).headers;
    otherFamilyEmail = (await createUser(db, other.id, { role: 'student', email: 'zed@example.test' })).email;
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  it('refuses a malformed or wrong API key with a clear error and stores nothing', async () => {
    expect(await status()).toMatchObject({ state: 'not_connected', oauth_available: true });
    const malformed = await call('POST', `${path}/connect`, { api_key: 'not a key' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toContain('it ends with your data centre');
    const wrong = await call('POST', `${path}/connect`, { api_key: 'ffffffffffffffffffffffffffffffff-us21' });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().message).toBe(mailingMessages.badKey);
    expect(await t.database.db.select().from(mailchimpConnections)).toHaveLength(0);
    // Staff read the page but do not connect.
    expect((await call('POST', `${path}/connect`, { api_key: STUB_API_KEY }, staff)).statusCode).toBe(403);
    expect(await t.database.db.select().from(mailchimpConnections)).toHaveLength(0);
  });

  it('connects with a key Mailchimp accepts (kept sealed), lists the audiences and chooses one', async () => {
    const connected = await call('POST', `${path}/connect`, { api_key: STUB_API_KEY });
    expect(connected.statusCode, connected.body).toBe(200);
    expect(connected.json()).toMatchObject({
      state: 'connected',
      method: 'api_key',
      account: 'Demo Gym',
      audience: null,
    });
    const [row] = await t.database.db.select().from(mailchimpConnections);
    expect(row!.credential).not.toContain(STUB_API_KEY);
    expect(row!.dataCentre).toBe('us21');
    const ping = stub.requests.findLast((r) => r.path === '/3.0/ping')!;
    expect(Buffer.from(String(ping.headers.authorization).slice(6), 'base64').toString()).toMatch(
      new RegExp(`:${STUB_API_KEY}$`),
    );

    const audiences = await call('GET', `${path}/audiences`);
    expect(audiences.json().audiences.map((a: { name: string }) => a.name)).toEqual([
      STUB_LIST_NAME,
      'Newsletter',
    ]);
    const unknown = await call('POST', `${path}/audience`, { list_id: 'nosuchlist' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(mailingMessages.unknownAudience);
    // As Mailchimp does, the stub checks the webhook's address answers before making it.
    stub.checkWebhook = async (url) =>
      (await t.app.inject({ method: 'GET', url: new URL(url).pathname })).statusCode;
    const chosen = await call('POST', `${path}/audience`, { list_id: STUB_LIST_ID });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().audience).toEqual({ id: STUB_LIST_ID, name: STUB_LIST_NAME });
    const hook = stub.webhooks.find((w) => w.listId === STUB_LIST_ID)!;
    expect(hook.url).toMatch(/^http:\/\/tumble\.test\/integrations\/mailchimp\/webhook\/[A-Za-z0-9_-]{20,}$/);
    expect(hook.events.unsubscribe).toBe(true);
    // Another company sees nothing of it.
    expect(await status(otherAdmin)).toMatchObject({ state: 'not_connected', audience: null });
    expect((await call('POST', `${path}/sync`, {}, otherAdmin)).statusCode).toBe(400);
  });

  it('sends exactly the families who may be mailed, with names and tags by class type and term; a refused address is recorded in plain words', async () => {
    const result = await sync();
    expect(result).toMatchObject({ sent: 3, failed: 1 });
    expect(member(fam.ann.email)).toMatchObject({
      status: 'subscribed',
      merge_fields: { FNAME: 'Ann', LNAME: 'Smith' },
    });
    expect([...member(fam.ann.email)!.tags].sort()).toEqual(['Kinder Gym', 'Term']);
    expect(member(fam.ben.email)).toMatchObject({
      status: 'subscribed',
      merge_fields: { FNAME: 'Ben', LNAME: 'van der Berg' },
    });
    expect(member(fam.ben.email)!.tags.size).toBe(0);
    expect(member(fam.eve.email)?.status).toBe('subscribed');
    // Cat withdrew and was never sent; staff and another company's families are not families here.
    const emails = [...stub.lists.get(STUB_LIST_ID)!.members.values()].map((m) => m.email_address).sort();
    expect(emails).toEqual([fam.ann.email, fam.ben.email, fam.eve.email]);
    expect(emails).not.toContain(otherFamilyEmail);

    const page = await status();
    expect(page).toMatchObject({
      subscribed: 3,
      unsubscribed: 0,
      last_error: '1 family could not be sent to Mailchimp: see below.',
    });
    expect(page.failed).toEqual([
      {
        family: 'Dee Bad',
        email: fam.dee.email,
        error: `${fam.dee.email} looks fake or invalid, please enter a real email address.`,
      },
    ]);
  });

  it('does not send unchanged families again; a change sends only that family', async () => {
    const before = stub.memberCalls().length;
    expect(await sync()).toMatchObject({ sent: 0, failed: 0, message: mailingMessages.nothingToSend });
    expect(stub.memberCalls().length).toBe(before);
    expect((await status()).last_error).toBeNull();

    // Ann's child leaves the class: her tags go inactive, nothing else is sent.
    await t.database.db
      .update(classEnrolments)
      .set({ status: 'withdrawn' })
      .where(eq(classEnrolments.id, annPlaceId));
    expect(await sync()).toMatchObject({ sent: 1, failed: 0 });
    const calls = stub.memberCalls().slice(before);
    expect(calls.map((c) => c.method)).toEqual(['PUT', 'POST']);
    expect(JSON.parse(calls[1]!.body).tags).toEqual(
      expect.arrayContaining([
        { name: 'Kinder Gym', status: 'inactive' },
        { name: 'Term', status: 'inactive' },
      ]),
    );
    expect(member(fam.ann.email)!.tags.size).toBe(0);

    // Ben's address changes: the same member (known by the old address's hash) takes the new one.
    const { users } = await import('../../accounts/accounts.tables.ts');
    const oldEmail = fam.ben.email;
    fam.ben.email = 'ben.new@example.test';
    await t.database.db.update(users).set({ email: fam.ben.email }).where(eq(users.id, fam.ben.id));
    const moved = stub.memberCalls().length;
    expect(await sync()).toMatchObject({ sent: 1 });
    const [put] = stub.memberCalls().slice(moved);
    expect(put!.path).toBe(
      `/3.0/lists/${STUB_LIST_ID}/members/${createHash('md5').update(oldEmail).digest('hex')}`,
    );
    expect(member(oldEmail)).toBeUndefined();
    expect(member(fam.ben.email)).toMatchObject({ status: 'subscribed', merge_fields: { FNAME: 'Ben' } });
  });

  it('sets a family who withdrew unsubscribed, and resubscribes them when they consent again', async () => {
    await setMarketingConsent(t.database.db, tenant, fam.ben.id, false, 'parent');
    expect(await sync()).toMatchObject({ sent: 1 });
    expect(member(fam.ben.email)?.status).toBe('unsubscribed');
    expect(await status()).toMatchObject({ subscribed: 2, unsubscribed: 1 });

    await setMarketingConsent(t.database.db, tenant, fam.ben.id, true, 'parent');
    expect(await sync()).toMatchObject({ sent: 1 });
    expect(member(fam.ben.email)?.status).toBe('subscribed');
  });

  it("Mailchimp's unsubscribe webhook withdraws consent; an unknown address or secret changes nothing; transactional mail still goes", async () => {
    const url = webhookPath();
    // Mailchimp checks the address with a GET when the webhook is made.
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const consentsBefore = await t.database.db.select().from(marketingConsents);

    const unknown = await postWebhook(url, stub.unsubscribe(STUB_LIST_ID, 'nobody@example.test'));
    expect(unknown.statusCode).toBe(200);
    const foreign = await postWebhook(url, stub.unsubscribe(STUB_LIST_ID, otherFamilyEmail));
    expect(foreign.statusCode).toBe(200);
    expect(await t.database.db.select().from(marketingConsents)).toEqual(consentsBefore);
    const forged = await postWebhook(
      '/integrations/mailchimp/webhook/not-the-secret',
      stub.unsubscribe(STUB_LIST_ID, fam.eve.email),
    );
    expect(forged.statusCode).toBe(404);
    expect(await consentOf(fam.eve.id)).toBe('inferred');
    // (stub.unsubscribe above also unsubscribed Eve in Mailchimp: put her back for the next test.)
    member(fam.eve.email)!.status = 'subscribed';

    const form = stub.unsubscribe(STUB_LIST_ID, fam.ann.email.toUpperCase());
    const received = await postWebhook(url, form);
    expect(received.statusCode, received.body).toBe(200);
    expect(await consentOf(fam.ann.id)).toBe('withdrawn');
    const [row] = await t.database.db
      .select()
      .from(marketingConsents)
      .where(eq(marketingConsents.parentId, fam.ann.id));
    expect(row!.source).toBe('mailchimp');
    // Repeated: nothing more changes.
    expect((await postWebhook(url, form)).statusCode).toBe(200);
    expect(await consentOf(fam.ann.id)).toBe('withdrawn');

    // Ann is already unsubscribed there: the next sync sends nothing for her.
    const before = stub.memberCalls().length;
    expect(await sync()).toMatchObject({ sent: 0 });
    expect(stub.memberCalls().length).toBe(before);

    // Marketing consent is not asked for a password reset: the mail goes.
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgotten-password',
      payload: { email: fam.ann.email, authhash },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, fam.ann.email), eq(mailOutbox.kind, 'password-reset')));
    expect(mails).toHaveLength(1);
  });

  it('reads unsubscribes back on every sync (no webhook needed)', async () => {
    const eve = member(fam.eve.email)!;
    eve.status = 'unsubscribed';
    eve.last_changed = new Date().toISOString();
    await sync();
    expect(await consentOf(fam.eve.id)).toBe('withdrawn');
    const [row] = await t.database.db
      .select()
      .from(marketingConsents)
      .where(eq(marketingConsents.parentId, fam.eve.id));
    expect(row!.source).toBe('mailchimp');
    const [eveMember] = await t.database.db
      .select()
      .from(mailchimpMembers)
      .where(eq(mailchimpMembers.parentId, fam.eve.id));
    expect(eveMember!.status).toBe('unsubscribed');
  });

  it('retries a 429; Mailchimp still busy, or refusing the key, is recorded in plain words (never a 500)', async () => {
    await t.database.db
      .update(mailchimpConnections)
      .set({ lastError: null })
      .where(eq(mailchimpConnections.companyId, tenant.companyId));
    const changed = 'Benjamin van der Berg';
    const { users } = await import('../../accounts/accounts.tables.ts');
    await t.database.db.update(users).set({ fullName: changed }).where(eq(users.id, fam.ben.id));
    stub.busy = 1;
    const before = stub.requests.length;
    expect(await sync()).toMatchObject({ sent: 1, failed: 0 });
    expect(member(fam.ben.email)!.merge_fields.FNAME).toBe('Benjamin');
    // The first call answered 429 and was made again.
    const first = stub.requests[before]!;
    expect(stub.requests[before + 1]!.path).toBe(first.path);

    stub.busy = 100;
    const busy = await sync();
    expect(busy.message).toBe('Mailchimp asked us to slow down; the next sync tries again.');
    expect((await status()).last_error).toBe(busy.message);
    stub.busy = 0;

    stub.apiKeys.delete(STUB_API_KEY);
    const refused = await sync();
    expect(refused.message).toBe('Mailchimp did not accept the connection: connect again.');
    expect((await status()).last_error).toBe(refused.message);
    stub.apiKeys.add(STUB_API_KEY);
    expect((await sync()).message).toBe(mailingMessages.nothingToSend);
    expect((await status()).last_error).toBeNull();
  }, 30_000);

  it('archives the member of a family no longer on the books (disabled or merged away)', async () => {
    const { users } = await import('../../accounts/accounts.tables.ts');
    await t.database.db.update(users).set({ status: 'disabled' }).where(eq(users.id, fam.eve.id));
    expect(await sync()).toMatchObject({ sent: 1 });
    expect(member(fam.eve.email)?.status).toBe('archived');
    expect(
      await t.database.db.select().from(mailchimpMembers).where(eq(mailchimpMembers.parentId, fam.eve.id)),
    ).toEqual([]);
    expect((await sync()).message).toBe(mailingMessages.nothingToSend);
  });

  it('one sync at a time: a sync while another holds the lease sends nothing', async () => {
    const lease = (until: Date | null) =>
      t.database.db
        .update(mailchimpConnections)
        .set({ syncLeaseUntil: until })
        .where(eq(mailchimpConnections.companyId, tenant.companyId));
    await lease(new Date(Date.now() + 60_000));
    const before = stub.requests.length;
    expect(await sync()).toMatchObject({
      sent: 0,
      message: 'A sync is already running; it will finish in a moment.',
    });
    expect(stub.requests.length).toBe(before);
    // A lease left by a process that died is taken over once it is over.
    await lease(new Date(Date.now() - 1000));
    expect((await sync()).message).toBe(mailingMessages.nothingToSend);
  });

  it('the job syncs every connected company; the Integrations page shows the connection', async () => {
    await setMarketingConsent(t.database.db, tenant, fam.ben.id, false, 'staff');
    // Integrations turned off for the company: the connection stays, nothing is sent.
    const { companies } = await import('../../accounts/accounts.tables.ts');
    const modules = async (disabledModules: string[]) => {
      await t.database.db
        .update(companies)
        .set({ disabledModules })
        .where(eq(companies.id, tenant.companyId));
      await t.syncCache();
    };
    await modules(['integrations']);
    await syncConnectedMailchimp(t.deps);
    expect(member(fam.ben.email)?.status).toBe('subscribed');
    await modules([]);
    await syncConnectedMailchimp(t.deps);
    expect(member(fam.ben.email)?.status).toBe('unsubscribed');

    const page = await call('GET', '/api/v1/admin/integrations');
    expect(page.statusCode, page.body).toBe(200);
    const rows = page.json().integrations as {
      kind: string;
      state: string;
      detail: string | null;
      page: string;
    }[];
    expect(rows.map((r) => r.kind)).toEqual(['accounting', 'mailing', 'google', 'payments']);
    expect(rows.find((r) => r.kind === 'mailing')).toMatchObject({
      state: 'connected',
      detail: `Mailchimp audience ${STUB_LIST_NAME}`,
      page: '/admin/integrations/mailing',
    });
    const other = (await call('GET', '/api/v1/admin/integrations', undefined, otherAdmin)).json();
    expect(other.integrations.find((r: { kind: string }) => r.kind === 'mailing')).toMatchObject({
      state: 'not_connected',
      detail: null,
    });
  });

  it("connects through Mailchimp's login (OAuth, data centre from the metadata call) and disconnects", async () => {
    const started = await call('POST', `${path}/oauth`);
    expect(started.statusCode, started.body).toBe(200);
    const authorize = new URL(started.json().url);
    expect(authorize.pathname).toBe('/oauth2/authorize');
    expect(authorize.searchParams.get('redirect_uri')).toBe(
      'http://tumble.test/integrations/mailchimp/callback',
    );
    const forged = await t.app.inject({
      method: 'GET',
      url: '/integrations/mailchimp/callback?code=x&state=forged',
    });
    expect(forged.headers.location).toContain('error=');
    // The stub's login sends the browser straight back with a code.
    const back = new URL(String((await fetch(authorize, { redirect: 'manual' })).headers.get('location')));
    const done = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(done.headers.location).toBe('/admin/integrations/mailing?connected=1');
    const connected = await status();
    expect(connected).toMatchObject({ state: 'connected', method: 'oauth', account: 'Demo Gym' });
    // The same account: the audience chosen before stays.
    expect(connected.audience).toEqual({ id: STUB_LIST_ID, name: STUB_LIST_NAME });
    const bearer = stub.requests.at(-1)!;
    expect(String(bearer.headers.authorization)).toMatch(/^Bearer token-/);

    const gone = await call('POST', `${path}/disconnect`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toMatchObject({ state: 'not_connected', audience: null, subscribed: 0 });
    expect(stub.webhooks.filter((w) => w.listId === STUB_LIST_ID)).toHaveLength(0);
    expect(await t.database.db.select().from(mailchimpMembers)).toHaveLength(0);
  });
  it('an audience whose webhook Mailchimp cannot make still syncs, and says unsubscribes are read back instead', async () => {
    expect((await call('POST', `${path}/connect`, { api_key: STUB_API_KEY })).statusCode).toBe(200);
    stub.checkWebhook = async () => 404;
    const chosen = await call('POST', `${path}/audience`, { list_id: STUB_OTHER_LIST_ID });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().last_error).toMatch(
      /^Mailchimp could not reach this server to tell it of unsubscribes .*; they are read back on every sync instead\.$/,
    );
    expect(stub.webhooks.filter((w) => w.listId === STUB_OTHER_LIST_ID)).toHaveLength(0);
    await setMarketingConsent(t.database.db, tenant, fam.ben.id, true, 'parent');
    expect(await sync()).toMatchObject({ sent: 1 });
    expect(stub.member(STUB_OTHER_LIST_ID, fam.ben.email)?.status).toBe('subscribed');
    // Families who withdrew were never in this audience: nothing is sent for them.
    expect(stub.member(STUB_OTHER_LIST_ID, fam.cat.email)).toBeUndefined();
  });
});
