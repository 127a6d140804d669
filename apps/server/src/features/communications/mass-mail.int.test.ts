import type { AudienceFilterInput } from '@tumble/contracts/communications';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { deliverPendingMail, queueMail } from '../../platform/mail/mail.service.ts';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { parseMail, startSmtpServer, type TestSmtpServer } from '../../testing/mail-smtp.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import { users } from '../accounts/accounts.tables.ts';
import { invoices } from '../billing/ledger.tables.ts';
import { bookings } from '../bookings/bookings.tables.ts';
import { classWaitlist } from '../classes/class-waitlist.tables.ts';
import { classEnrolments, classTypes, termClasses, terms } from '../classes/classes.tables.ts';
import { events } from '../events/events.tables.ts';
import { partyBookings } from '../parties/parties.tables.ts';
import { flagAssignments, flags } from '../students/flags.tables.ts';
import { children } from '../students/students.tables.ts';
import { setMarketingConsent, unsubscribeUrl } from './consent.service.ts';
import { marketingConsents } from './consent.tables.ts';
import { createMassMail, MASS_MAIL_KIND, runMassMails } from './mass-mail.service.ts';
import { massMailRecipients } from './mass-mail.tables.ts';

let t: TestContext;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    // One pooled connection: a new SMTP connection per mail makes 2,000 mails take minutes here.
    SMTP_URL: `${smtp.url}?pool=true`,
    // The throttle is for real SMTP servers; 2,000 mails here must not take minutes.
    SMTP_MAX_PER_MINUTE: '10000000',
    // The test runs the job itself, batch by batch.
    WORKERS_IN_SERVER: 'false',
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const TZ = 'Australia/Sydney';
const today = () => todayIn(TZ);
/** A date of birth making a child `years` old today (and a month more). */
const bornYearsAgo = (years: number) =>
  addDays(`${Number(today().slice(0, 4)) - years}${today().slice(4)}`, -31);

let seq = 0;
async function family(db: Db, companyId: number, name: string, status: 'active' | 'disabled' = 'active') {
  const parent = await createUser(db, companyId, {
    role: 'student',
    fullName: name,
    email: `${name.toLowerCase().replace(/\W+/g, '.')}.${++seq}@example.test`,
    status,
  });
  return parent;
}
async function child(db: Db, companyId: number, parentId: number, firstName: string, age: number) {
  const [row] = await db
    .insert(children)
    .values({ companyId, parentId, firstName, lastName: 'Test', dob: bornYearsAgo(age) })
    .returning();
  return row!;
}

describe('audience filters', () => {
  let admin: { headers: Record<string, string> };
  const f: Record<string, number> = {};
  let foreignClassId = 0;

  beforeAll(async () => {
    const db = t.database.db;
    const company = await createCompany(db, { timeZone: TZ });
    const c = company.id;
    const staff = await createUser(db, c, { role: 'companystaff' });
    admin = await sessionFor(db, staff);

    const [gym, ninja] = await db
      .insert(classTypes)
      .values([
        { companyId: c, name: 'Gym' },
        { companyId: c, name: 'Ninja' },
      ])
      .returning();
    const [t1, t2] = await db
      .insert(terms)
      .values([
        { companyId: c, name: 'Term 1', startDate: addDays(today(), -30), endDate: addDays(today(), 40) },
        { companyId: c, name: 'Term 2', startDate: addDays(today(), 50), endDate: addDays(today(), 120) },
      ])
      .returning();
    const klass = (termId: number, classTypeId: number, name: string, weekday: number) => ({
      companyId: c,
      termId,
      classTypeId,
      name,
      weekday,
      startTime: '16:00',
      durationMinutes: 60,
      capacity: 10,
    });
    const [c1, c2, c3] = await db
      .insert(termClasses)
      .values([
        klass(t1!.id, gym!.id, 'Monday Gym', 1),
        klass(t1!.id, ninja!.id, 'Wednesday Ninja', 3),
        klass(t2!.id, gym!.id, 'Term 2 Monday Gym', 1),
      ])
      .returning();
    Object.assign(f, {
      gym: gym!.id,
      ninja: ninja!.id,
      t1: t1!.id,
      t2: t2!.id,
      c1: c1!.id,
      c2: c2!.id,
      c3: c3!.id,
    });

    const place = (
      termClassId: number,
      childId: number,
      kind: 'enrolled' | 'trial',
      status: 'active' | 'withdrawn',
    ) => ({
      companyId: c,
      termClassId,
      childId,
      kind,
      status,
    });

    const amy = await family(db, c, 'Amy Active');
    const mia = await child(db, c, amy.id, 'Mia', 6);
    const tom = await family(db, c, 'Tom Trial');
    const leo = await child(db, c, tom.id, 'Leo', 4);
    const wendy = await family(db, c, 'Wendy Waitlist');
    const ava = await child(db, c, wendy.id, 'Ava', 8);
    const willa = await family(db, c, 'Willa Withdrawn');
    const zoe = await child(db, c, willa.id, 'Zoe', 9);
    const eve = await family(db, c, 'Eve Event');
    const pat = await family(db, c, 'Pat Party');
    const patKid = await child(db, c, pat.id, 'Pip', 3);
    const owen = await family(db, c, 'Owen Owing');
    const fay = await family(db, c, 'Fay Flagged');
    const gina = await family(db, c, 'Gina Granted');
    const ted = await family(db, c, 'Ted Termtwo');
    const tim = await child(db, c, ted.id, 'Tim', 12);
    const dan = await family(db, c, 'Dan Disabled', 'disabled');
    const dot = await child(db, c, dan.id, 'Dot', 6);
    Object.assign(f, {
      amy: amy.id,
      tom: tom.id,
      wendy: wendy.id,
      willa: willa.id,
      eve: eve.id,
      pat: pat.id,
      owen: owen.id,
      fay: fay.id,
      gina: gina.id,
      ted: ted.id,
      dan: dan.id,
    });

    await db
      .insert(classEnrolments)
      .values([
        place(c1!.id, mia.id, 'enrolled', 'active'),
        place(c1!.id, leo.id, 'trial', 'active'),
        place(c2!.id, zoe.id, 'enrolled', 'withdrawn'),
        place(c3!.id, tim.id, 'enrolled', 'active'),
        place(c1!.id, dot.id, 'enrolled', 'active'),
      ]);
    await db.insert(classWaitlist).values({
      companyId: c,
      termClassId: c2!.id,
      childId: ava.id,
      parentId: wendy.id,
      householdKey: 'w',
      source: 'staff',
    });

    const [event] = await db
      .insert(events)
      .values({
        companyId: c,
        name: 'Holiday camp',
        startDate: addDays(today(), 10),
        endDate: addDays(today(), 12),
      })
      .returning();
    f.event = event!.id;
    const booking = (parentId: number, status: 'confirmed' | 'cancelled') => ({
      companyId: c,
      parentId,
      eventId: event!.id,
      reference: `ref-${++seq}-${parentId}`,
      code: `BK-${seq}`,
      status,
      quantity: 1,
      pricing: {},
      total: 1000,
      provider: 'test' as const,
    });
    await db.insert(bookings).values([booking(eve.id, 'confirmed'), booking(amy.id, 'cancelled')]);

    const slots = await createPartySetup(db, c);
    await db.insert(partyBookings).values({
      companyId: c,
      parentId: pat.id,
      slotId: slots.morning.id,
      date: addDays(today(), 20),
      childId: patKid.id,
      reference: `party-${++seq}`,
      code: `BP-${seq}`,
      status: 'confirmed',
      guests: 10,
      pricing: {},
      total: 30000,
      deposit: 10000,
      balance: 20000,
      provider: 'test',
    });

    const invoice = (parentId: number, status: 'issued' | 'paid', total: number, amountPaid: number) => ({
      companyId: c,
      parentId,
      kind: 'one_off' as const,
      status,
      buyerName: 'x',
      buyerEmail: 'x@example.test',
      gstRegistered: false,
      total,
      amountPaid,
    });
    await db
      .insert(invoices)
      .values([invoice(owen.id, 'issued', 5000, 1000), invoice(amy.id, 'paid', 5000, 5000)]);

    const [medical, unused] = await db
      .insert(flags)
      .values([
        { companyId: c, name: 'Medical' },
        { companyId: c, name: 'Unused' },
      ])
      .returning();
    f.flag = medical!.id;
    f.unusedFlag = unused!.id;
    await db.insert(flagAssignments).values([
      { companyId: c, flagId: medical!.id, parentId: fay.id, appliedById: staff.id },
      { companyId: c, flagId: medical!.id, childId: leo.id, appliedById: staff.id },
    ]);

    const tenant = new Tenant(c);
    await setMarketingConsent(db, tenant, gina.id, true, 'parent');
    await setMarketingConsent(db, tenant, willa.id, false, 'parent');

    // Another company: its class and family never show.
    const other = await createCompany(db);
    const otherParent = await family(db, other.id, 'Olga Other');
    const otherChild = await child(db, other.id, otherParent.id, 'Oli', 6);
    const [otherType] = await db.insert(classTypes).values({ companyId: other.id, name: 'Gym' }).returning();
    const [otherTerm] = await db
      .insert(terms)
      .values({ companyId: other.id, name: 'T', startDate: today(), endDate: addDays(today(), 30) })
      .returning();
    const [otherClass] = await db
      .insert(termClasses)
      .values({ ...klass(otherTerm!.id, otherType!.id, 'Other', 1), companyId: other.id })
      .returning();
    foreignClassId = otherClass!.id;
    await db.insert(classEnrolments).values({
      companyId: other.id,
      termClassId: otherClass!.id,
      childId: otherChild.id,
      kind: 'enrolled',
      status: 'active',
    });
  }, 60_000);

  async function audience(filter: AudienceFilterInput, marketing = true) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/communications/audience',
      headers: admin.headers,
      payload: { filter, marketing },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { count: number; families: { id: number }[]; unsubscribed: number };
    expect(body.families).toHaveLength(body.count);
    return { ids: body.families.map((x) => x.id).sort((a, b) => a - b), unsubscribed: body.unsubscribed };
  }
  const expectIds = (...names: string[]) => names.map((n) => f[n]!).sort((a, b) => a - b);

  it('gives exactly the expected families for each kind of filter', async () => {
    expect((await audience({ class_ids: [f.c1!] })).ids).toEqual(expectIds('amy', 'tom'));
    expect((await audience({ class_ids: [f.c1!], enrolment_statuses: ['active'] })).ids).toEqual(
      expectIds('amy'),
    );
    expect((await audience({ enrolment_statuses: ['trial'] })).ids).toEqual(expectIds('tom'));
    expect((await audience({ enrolment_statuses: ['waitlisted'] })).ids).toEqual(expectIds('wendy'));
    expect((await audience({ enrolment_statuses: ['withdrawn'] }, false)).ids).toEqual(expectIds('willa'));
    expect((await audience({ term_ids: [f.t2!] })).ids).toEqual(expectIds('ted'));
    expect((await audience({ class_type_ids: [f.gym!] })).ids).toEqual(expectIds('amy', 'tom', 'ted'));
    expect((await audience({ weekdays: [1] })).ids).toEqual(expectIds('amy', 'tom', 'ted'));
    expect((await audience({ event_ids: [f.event!] })).ids).toEqual(expectIds('eve'));
    expect(
      (await audience({ party_from: addDays(today(), 19), party_to: addDays(today(), 21) })).ids,
    ).toEqual(expectIds('pat'));
    expect((await audience({ party_from: addDays(today(), 21) })).ids).toEqual([]);
    expect((await audience({ age_min: 10 })).ids).toEqual(expectIds('ted'));
    expect((await audience({ age_min: 5, age_max: 7 })).ids).toEqual(expectIds('amy'));
    expect((await audience({ unpaid_balance: true })).ids).toEqual(expectIds('owen'));
    expect((await audience({ flag_ids: [f.flag!] })).ids).toEqual(expectIds('tom', 'fay'));
    expect((await audience({ flag_ids: [f.unusedFlag!] })).ids).toEqual([]);
    expect((await audience({ consent_granted: true })).ids).toEqual(expectIds('gina'));
  });

  it('ANDs between kinds, ORs within a kind, one row per family, never another company', async () => {
    expect((await audience({ class_type_ids: [f.gym!], flag_ids: [f.flag!] })).ids).toEqual(expectIds('tom'));
    expect((await audience({ class_ids: [f.c1!, f.c3!] })).ids).toEqual(expectIds('amy', 'tom', 'ted'));
    expect(
      (await audience({ weekdays: [3], enrolment_statuses: ['waitlisted', 'withdrawn'] }, false)).ids,
    ).toEqual(expectIds('wendy', 'willa'));
    expect((await audience({ class_type_ids: [f.gym!], age_max: 5 })).ids).toEqual(expectIds('tom'));
    expect((await audience({ class_ids: [foreignClassId] })).ids).toEqual([]);
    // Everyone: the disabled family and the other company's never; the withdrawn one only without marketing.
    const everyone = await audience({});
    expect(everyone.ids).toEqual(
      expectIds('amy', 'tom', 'wendy', 'eve', 'pat', 'owen', 'fay', 'gina', 'ted'),
    );
    expect(everyone.unsubscribed).toBe(1);
    expect((await audience({}, false)).ids).toEqual(
      expectIds('amy', 'tom', 'wendy', 'willa', 'eve', 'pat', 'owen', 'fay', 'gina', 'ted'),
    );
  });

  it('refuses a bad filter with a clear message', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/communications/audience',
      headers: admin.headers,
      payload: { filter: { age_min: 9, age_max: 3 } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The highest age is below the lowest age.' });
  });
});

/** Outbox rows of the mass mail kind per address. */
async function outboxCounts(db: Db, companyId: number) {
  const rows = await db
    .select({ to: mailOutbox.toAddress, n: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.companyId, companyId), eq(mailOutbox.kind, MASS_MAIL_KIND)))
    .groupBy(mailOutbox.toAddress);
  return rows;
}

describe('sending', () => {
  it('sends 2,000 families one mail each across a restart in the middle', async () => {
    const db = t.database.db;
    const company = await createCompany(db, { timeZone: TZ, name: 'Bulk Gym' });
    const staff = await createUser(db, company.id, { role: 'companystaff' });
    const N = 2000;
    const rows = Array.from({ length: N }, (_, i) => ({
      companyId: company.id,
      role: 'student' as const,
      email: `bulk${i}@bulk.example.test`,
      fullName: `Parent${i} Bulk`,
      passwordHash: 'x',
      status: 'active' as const,
    }));
    for (let i = 0; i < N; i += 500) await db.insert(users).values(rows.slice(i, i + 500));
    const auth = {
      userId: staff.id,
      tenant: new Tenant(company.id),
    } as Parameters<typeof createMassMail>[1];
    const created = await createMassMail(t.deps, auth, {
      subject: 'News for {parent_first_name}',
      body: '<p>Hello {parent_first_name}, news from {company}.</p>',
      marketing: true,
      filter: {
        term_ids: [],
        class_type_ids: [],
        class_ids: [],
        weekdays: [],
        event_ids: [],
        party_from: null,
        party_to: null,
        enrolment_statuses: [],
        age_min: null,
        age_max: null,
        unpaid_balance: false,
        flag_ids: [],
        consent_granted: false,
      },
      send_at: null,
    });
    expect(created.valid).toBe(true);

    // First run stops after 5 batches of 100 (the process ends), and some of it is delivered.
    expect(await runMassMails(t.deps, new Date(), { batchSize: 100, maxBatches: 5 })).toBe(500);
    await Promise.all([1, 2, 3, 4].map(() => deliverPendingMail(t.database, t.config)));
    expect(smtp.inbox.filter((m) => m.envelopeTo[0]!.endsWith('@bulk.example.test'))).toHaveLength(500);

    // Second run dies half-way through its second batch: that batch's outbox rows roll back with it.
    await expect(
      runMassMails(t.deps, new Date(), {
        batchSize: 100,
        beforeCommit: (batch) => {
          if (batch === 2) throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    expect((await outboxCounts(db, company.id)).length).toBe(600);

    // Started again, it finishes; then delivery sends the rest.
    expect(await runMassMails(t.deps, new Date(), { batchSize: 100 })).toBe(1400);
    expect(await runMassMails(t.deps, new Date(), { batchSize: 100 })).toBe(0);
    // Four delivery workers at once (rows are claimed with SKIP LOCKED): none sends a mail twice.
    await Promise.all([1, 2, 3, 4].map(() => deliverPendingMail(t.database, t.config)));

    const perAddress = await outboxCounts(db, company.id);
    expect(perAddress).toHaveLength(N);
    expect(perAddress.every((row) => row.n === 1)).toBe(true);
    const received = new Map<string, number>();
    for (const mail of smtp.inbox) {
      const to = mail.envelopeTo[0]!;
      if (to.endsWith('@bulk.example.test')) received.set(to, (received.get(to) ?? 0) + 1);
    }
    expect(received.size).toBe(N);
    expect([...received.values()].every((n) => n === 1)).toBe(true);

    // Each copy is the family's own, with the one-click unsubscribe headers and the footer link.
    const one = parseMail(smtp.inbox.find((m) => m.envelopeTo[0] === 'bulk7@bulk.example.test')!.raw);
    expect(one.subject).toBe('News for Parent7');
    expect(one.text).toContain('Hello Parent7, news from Bulk Gym.');
    expect(one.headers.get('list-unsubscribe')).toMatch(
      /^<http:\/\/tumble\.test\/unsubscribe\/[A-Za-z0-9_-]+>$/,
    );
    expect(one.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(one.html).toContain('/unsubscribe/');

    // The status page: every family sent.
    const session = await sessionFor(db, staff);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/v1/communications/mass-mails/${created.redirect!.split('/').pop()}`,
      headers: session.headers,
    });
    expect(detail.statusCode).toBe(200);
    const body = detail.json() as {
      status: string;
      total: number;
      sent: number;
      recipients: { status: string }[];
    };
    expect(body).toMatchObject({ status: 'sent', total: N, sent: N });
    expect(body.recipients.every((r) => r.status === 'sent')).toBe(true);
  }, 300_000);
});

describe('schedule and status', () => {
  it('sends a scheduled mail only when its time comes, refuses a time past, and shows a failure with its reason', async () => {
    const db = t.database.db;
    const company = await createCompany(db, { timeZone: TZ, name: 'Later Gym' });
    const session = await sessionFor(db, await createUser(db, company.id, { role: 'companystaff' }));
    const parent = await family(db, company.id, 'Sam Scheduled');
    const compose = (send_at: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/communications/mass-mails',
        headers: session.headers,
        payload: { subject: 'Later', body: '<p>Later</p>', filter: {}, send_at },
      });
    const past = await compose(`${addDays(today(), -1)}T09:00`);
    expect(past.json()).toMatchObject({
      valid: false,
      error: { element: [{ name: 'send_at', messages: ['Choose a time in the future.'] }] },
    });
    const created = await compose(`${addDays(today(), 2)}T09:00`);
    const id = Number((created.json() as { redirect: string }).redirect.split('/').pop());
    const detail = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/communications/mass-mails/${id}`,
          headers: session.headers,
        })
      ).json() as {
        status: string;
        send_at_local: string;
        total: number;
        failed: number;
        recipients: { parent_id: number; status: string; reason: string | null }[];
      };
    // 9 am in Sydney on that day, not the server's zone.
    expect((await detail()).send_at_local).toMatch(/9:00\sam$/);
    await runMassMails(t.deps, new Date());
    expect(await detail()).toMatchObject({ status: 'scheduled', total: 0 });
    await runMassMails(t.deps, new Date(Date.now() + 3 * 24 * 60 * 60 * 1000));
    expect(await detail()).toMatchObject({ status: 'sent', total: 1 });
    expect((await detail()).recipients).toEqual([
      expect.objectContaining({ parent_id: parent.id, status: 'queued', reason: null }),
    ]);
    // The SMTP server refused it for good: the family shows failed, with the reason.
    const [link] = await db
      .select({ outboxId: massMailRecipients.outboxId })
      .from(massMailRecipients)
      .where(eq(massMailRecipients.massMailId, id));
    await db
      .update(mailOutbox)
      .set({ status: 'failed', lastError: '550 mailbox unavailable' })
      .where(eq(mailOutbox.id, link!.outboxId!));
    expect(await detail()).toMatchObject({
      failed: 1,
      recipients: [{ parent_id: parent.id, status: 'failed', reason: '550 mailbox unavailable' }],
    });
  });
});

describe('attachment', () => {
  it('attaches the uploaded file to each family copy; another company cannot use its key', async () => {
    const db = t.database.db;
    const company = await createCompany(db, { timeZone: TZ, name: 'File Gym' });
    const other = await createCompany(db);
    const session = await sessionFor(db, await createUser(db, company.id, { role: 'companystaff' }));
    const otherSession = await sessionFor(db, await createUser(db, other.id, { role: 'companystaff' }));
    const parent = await family(db, company.id, 'Fiona File');
    const boundary = '----massmail';
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/v1/communications/attachments',
      headers: { ...session.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: [
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="camp-notes.txt"',
        'Content-Type: text/plain',
        '',
        'Bring a drink bottle.',
        `--${boundary}--`,
        '',
      ].join('\r\n'),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const attachment = upload.json() as { key: string; name: string };
    expect(attachment.name).toBe('camp-notes.txt');

    const compose = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/communications/mass-mails',
        headers,
        payload: { subject: 'Camp', body: '<p>See the notes</p>', marketing: false, filter: {}, attachment },
      });
    expect((await compose(otherSession.headers)).json()).toMatchObject({
      valid: false,
      error: { element: [{ name: 'attachment', messages: ['Upload the file again.'] }] },
    });
    expect((await compose(session.headers)).json()).toMatchObject({ valid: true });
    await runMassMails(t.deps, new Date());
    await deliverPendingMail(t.database, t.config);
    const mail = await smtp.waitFor((m) => m.envelopeTo.includes(parent.email));
    expect(mail.raw).toMatch(/filename=camp-notes\.txt/);
    expect(mail.raw).toContain(Buffer.from('Bring a drink bottle.').toString('base64'));
    // A service notice carries no unsubscribe link.
    expect(parseMail(mail.raw).headers.get('list-unsubscribe')).toBeUndefined();
  }, 60_000);
});

describe('unsubscribe', () => {
  it('one-click POST withdraws marketing only: a service notice and a booking confirmation still go', async () => {
    const db = t.database.db;
    const company = await createCompany(db, { timeZone: TZ, name: 'Consent Gym' });
    const tenant = new Tenant(company.id);
    const staff = await createUser(db, company.id, { role: 'companystaff' });
    const session = await sessionFor(db, staff);
    const stays = await family(db, company.id, 'Stella Stays');
    const leaves = await family(db, company.id, 'Lou Leaves');
    const link = await unsubscribeUrl(db, tenant, t.config, leaves.id);
    const path = new URL(link).pathname;

    // The mail client's one-click POST goes to the link itself (RFC 8058).
    const oneClick = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    expect(oneClick.json()).toEqual({ unsubscribed: true, company: 'Consent Gym' });
    const [consent] = await db
      .select()
      .from(marketingConsents)
      .where(and(eq(marketingConsents.companyId, company.id), eq(marketingConsents.parentId, leaves.id)));
    expect(consent).toMatchObject({ status: 'withdrawn', source: 'unsubscribe-link' });

    // The page's button (API path) answers the same, repeated; an unknown token is a 404.
    const again = await t.app.inject({ method: 'POST', url: `/api/v1/public${path}` });
    expect(again.statusCode).toBe(200);
    const unknown = await t.app.inject({ method: 'POST', url: '/api/v1/public/unsubscribe/nope' });
    expect(unknown.statusCode).toBe(404);

    const send = async (marketing: boolean) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/communications/mass-mails',
        headers: session.headers,
        payload: { subject: 'Hi', body: '<p>Class cancelled today</p>', marketing, filter: {} },
      });
      expect(response.json()).toMatchObject({ valid: true });
      await runMassMails(t.deps, new Date());
      const id = Number((response.json() as { redirect: string }).redirect.split('/').pop());
      const recipients = await db
        .select({ parentId: massMailRecipients.parentId })
        .from(massMailRecipients)
        .where(eq(massMailRecipients.massMailId, id));
      return recipients.map((r) => r.parentId).sort((a, b) => a - b);
    };
    expect(await send(true)).toEqual([stays.id]);
    expect(await send(false)).toEqual([stays.id, leaves.id].sort((a, b) => a - b));

    // Transactional mail never reads consent: the booking confirmation is written, with no unsubscribe link.
    const outboxId = await db.transaction((tx) =>
      queueMail(tx, tenant, t.config, 'booking-confirmation', leaves.email, {
        event: 'Camp',
        reference: 'BK-1',
      }),
    );
    const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId));
    expect(row!.toAddress).toBe(leaves.email);
    expect(row!.data.unsubscribeUrl).toBeUndefined();
  }, 60_000);

  it("answers 404 for another company's mass mail", async () => {
    const db = t.database.db;
    const a = await createCompany(db);
    const b = await createCompany(db);
    const staffA = await sessionFor(db, await createUser(db, a.id, { role: 'companyadmin' }));
    const staffB = await sessionFor(db, await createUser(db, b.id, { role: 'companyadmin' }));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/communications/mass-mails',
      headers: staffA.headers,
      payload: { subject: 'Hi', body: '<p>Hi</p>', filter: {}, send_at: '2099-01-01T09:00' },
    });
    const id = (created.json() as { redirect: string }).redirect.split('/').pop();
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/v1/communications/mass-mails/${id}`,
      headers: staffB.headers,
    });
    expect(foreign.statusCode).toBe(404);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/v1/communications/mass-mails/${id}/cancel`,
      headers: staffB.headers,
    });
    expect(cancel.statusCode).toBe(404);
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/v1/communications/mass-mails/${id}`,
      headers: staffA.headers,
    });
    expect(own.json()).toMatchObject({ status: 'scheduled', total: 0 });
  });

  it("keeps a mass mail's body sanitised (the status page shows it as HTML)", async () => {
    const db = t.database.db;
    const company = await createCompany(db);
    const staff = await sessionFor(db, await createUser(db, company.id, { role: 'companystaff' }));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/communications/mass-mails',
      headers: staff.headers,
      payload: {
        subject: 'Hi',
        body: 'Hi <img src=x onerror=alert(1)> <a href="javascript:alert(2)">x</a><script>alert(3)</script>',
        filter: {},
        send_at: '2099-01-01T09:00',
      },
    });
    const id = (created.json() as { redirect: string }).redirect.split('/').pop();
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/v1/communications/mass-mails/${id}`,
      headers: staff.headers,
    });
    const body = (detail.json() as { body: string }).body;
    expect(body).toContain('Hi ');
    expect(body).not.toMatch(/onerror|javascript:|<script/i);
  });
});
