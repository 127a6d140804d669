import { type ReminderKind, reminderInfo } from '@tumble/contracts/reminders';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../../db/client.ts';
import type { AuthContext } from '../../../platform/auth.ts';
import type { AppDeps } from '../../../platform/deps.ts';
import { mailOutbox } from '../../../platform/mail/mail.tables.ts';
import { Tenant } from '../../../platform/tenancy.ts';
import { zonedInstant } from '../../../platform/time.ts';
import { createBookableEvent } from '../../../testing/booking-fixtures.ts';
import { createClassWithSessions, createCoach } from '../../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../../testing/harness.ts';
import { createPartySetup } from '../../../testing/party-fixtures.ts';
import {
  createChild,
  createConfirmedBooking,
  createConfirmedParty,
  createWaiverTemplate,
  SIGNATURE,
} from '../../../testing/waiver-fixtures.ts';
import { companies } from '../../accounts/accounts.tables.ts';
import { createInvoice } from '../../billing/ledger.service.ts';
import { invoices } from '../../billing/ledger.tables.ts';
import { bookingPlaces } from '../../bookings/bookings.tables.ts';
import { attendance, classEnrolments, classSessions, terms } from '../../classes/classes.tables.ts';
import { rolloverItems, rollovers } from '../../classes/rollover.tables.ts';
import { listSystemEmails } from '../../settings/email-settings.service.ts';
import { signedWaivers, waiverUses } from '../../waivers/waivers.tables.ts';
import { runReminders } from './reminder-scheduler.service.ts';
import { defaultWording, saveReminderRule } from './reminders.service.ts';
import { reminderRules, reminderSends } from './reminders.tables.ts';

const TZ = 'Australia/Sydney';
const at = (date: string, time: string) => zonedInstant(date, time, TZ);
const MINUTE = 60_000;

describe('reminder emails', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
  });
  // Each test its own company: the scheduler runs for every company, and each test reads its own sends.
  beforeEach(async () => {
    company = await createCompany(t.database.db, {
      timeZone: TZ,
      currency: 'AUD',
      email: 'office@gym.example',
    });
    tenant = new Tenant(company.id);
  });
  afterAll(() => t.close());

  /** A company administrator's context, as a request's (saving wording is audited). */
  async function adminOf(target: Tenant): Promise<AuthContext> {
    const user = await createUser(t.database.db, target.companyId, {
      role: 'companyadmin',
      fullName: 'Alex Admin',
    });
    return {
      sessionId: 0,
      token: '',
      userId: user.id,
      role: 'companyadmin',
      fullName: user.fullName,
      email: user.email,
      tenant: target,
    };
  }

  /** Switches a rule on with its default wording, as if saved at `since`. */
  async function enable(kind: ReminderKind, amount: number, since: Date, target = tenant) {
    const result = await saveReminderRule(
      t.deps,
      await adminOf(target),
      { kind, enabled: true, amount, ...defaultWording(kind) },
      since,
    );
    expect(result.valid, JSON.stringify(result)).toBe(true);
  }

  /** Who was reminded of what in this company: "kind occasion → address". */
  async function sent(target = tenant) {
    const rows = await t.database.db
      .select()
      .from(reminderSends)
      .where(target.where(reminderSends))
      .orderBy(asc(reminderSends.occasionKey), asc(reminderSends.recipient));
    return rows.map((r) => `${r.kind} ${r.occasionKey} → ${r.recipient}`);
  }

  /** The company's own wording of the class reminder mail, as the System emails page reads it. */
  async function wordingOf(target: Tenant) {
    const kinds = await listSystemEmails(t.deps, target);
    return kinds.find((k) => k.kind === 'reminder-class')!.custom;
  }

  async function mails(target = tenant) {
    return t.database.db
      .select()
      .from(mailOutbox)
      .where(target.where(mailOutbox))
      .orderBy(asc(mailOutbox.toAddress), asc(mailOutbox.id));
  }

  async function parent(name: string) {
    const slug = name.toLowerCase().replace(/\W+/g, '.');
    return createUser(t.database.db, company.id, {
      role: 'student',
      fullName: name,
      email: `${slug}@family.test`,
    });
  }

  async function enrol(
    termClassId: number,
    childId: number,
    extra: Partial<typeof classEnrolments.$inferInsert> = {},
  ) {
    const [row] = await t.database.db
      .insert(classEnrolments)
      .values(
        tenant.values({
          termClassId,
          childId,
          kind: 'enrolled' as const,
          status: 'active' as const,
          ...extra,
        }),
      )
      .returning();
    return row!;
  }

  /**
   * Session on Tue 2 Mar 2027 at 16:00: Ava and Ben (one family) enrolled, Cleo enrolled but marked
   * absent, Dan on a trial of that session, Eve withdrawn before it, Finn enrolled from after it.
   * A second class the same day has its session cancelled.
   */
  async function classFixture() {
    const { db } = t.database;
    const [jo, kim, lee, max, ned, oli] = await Promise.all(
      ['Jo Walker', 'Kim Lane', 'Lee Trial', 'Max Gone', 'Ned Later', 'Oli Cancelled'].map(parent),
    );
    const klass = await createClassWithSessions(db, company.id, { coachId: null, dates: ['2027-03-02'] });
    const session = klass.sessions[0]!;
    const [ava, ben, cleo, dan, eve, finn] = await Promise.all([
      createChild(db, company.id, jo!.id, 'Ava'),
      createChild(db, company.id, jo!.id, 'Ben'),
      createChild(db, company.id, kim!.id, 'Cleo'),
      createChild(db, company.id, lee!.id, 'Dan'),
      createChild(db, company.id, max!.id, 'Eve'),
      createChild(db, company.id, ned!.id, 'Finn'),
    ]);
    await enrol(klass.termClass.id, ava!.id);
    await enrol(klass.termClass.id, ben!.id);
    await enrol(klass.termClass.id, cleo!.id);
    await db
      .insert(attendance)
      .values(tenant.values({ sessionId: session.id, childId: cleo!.id, status: 'absent' as const }));
    await enrol(klass.termClass.id, dan!.id, { kind: 'trial', sessionId: session.id });
    await enrol(klass.termClass.id, eve!.id, { withdrawnFrom: '2027-03-01' });
    await enrol(klass.termClass.id, finn!.id, { startsOn: '2027-03-09' });
    const other = await createClassWithSessions(db, company.id, {
      coachId: null,
      dates: ['2027-03-02'],
      name: 'Cancelled class',
    });
    await db
      .update(classSessions)
      .set({ status: 'cancelled', cancelReason: 'Hall flooded' })
      .where(tenant.byId(classSessions, other.sessions[0]!.id));
    const oliver = await createChild(db, company.id, oli!.id, 'Oliver');
    await enrol(other.termClass.id, oliver.id);
    return { session, klass, jo: jo!, lee: lee!, dan: dan!, cancelled: other.sessions[0]! };
  }

  it('class reminder: N hours before, to each family of the children expected, once', async () => {
    const { session, jo, lee } = await classFixture();
    const start = at('2027-03-02', '16:00');
    await enable('class', 24, new Date(start.getTime() - 3 * 86_400_000));
    const due = new Date(start.getTime() - 24 * 3_600_000);

    expect(await runReminders(t.deps, new Date(due.getTime() - MINUTE))).toBe(0);
    expect(await sent()).toEqual([]);

    await runReminders(t.deps, new Date(due.getTime() + 5 * MINUTE));
    expect(await sent()).toEqual([
      `class session:${session.id} → ${jo.email}`,
      `class session:${session.id} → ${lee.email}`,
    ]);
    const [toJo, toLee] = await mails();
    expect(toJo!.toAddress).toBe(jo.email);
    expect(toJo!.kind).toBe('reminder-class');
    expect(toJo!.subject).toBe('Reminder: Kinder Gym Tuesday on 02/03/2027 at 16:00');
    expect(toJo!.text).toContain('Ava and Ben has Kinder Gym Tuesday');
    expect(toLee!.text).toContain('Dan has');

    // A rerun a minute later, and one within the grace window, send nothing more.
    expect(await runReminders(t.deps, new Date(due.getTime() + 6 * MINUTE))).toBe(0);
    expect(await runReminders(t.deps, new Date(due.getTime() + 3 * 3_600_000))).toBe(0);
    expect(await mails()).toHaveLength(2);
  });

  it('a cancelled session sends nothing, to its own families or to the other class', async () => {
    const { cancelled, session } = await classFixture();
    const start = at('2027-03-02', '16:00');
    await enable('class', 24, new Date(start.getTime() - 3 * 86_400_000));
    await t.database.db
      .update(classSessions)
      .set({ status: 'cancelled' })
      .where(tenant.byId(classSessions, session.id));
    await runReminders(t.deps, new Date(start.getTime() - 23 * 3_600_000));
    expect(await sent()).toEqual([]);
    expect((await sent()).some((s) => s.includes(`session:${cancelled.id}`))).toBe(false);
  });

  it('two worker processes at once (two pools) send each reminder once', async () => {
    const { session, jo, lee } = await classFixture();
    const start = at('2027-03-02', '16:00');
    await enable('class', 24, new Date(start.getTime() - 3 * 86_400_000));
    const second = connectDatabase(t.databaseUrl, { max: 5 });
    try {
      const other: AppDeps = { ...t.deps, database: second };
      const now = new Date(start.getTime() - 23 * 3_600_000);
      const [a, b] = await Promise.all([runReminders(t.deps, now), runReminders(other, now)]);
      expect(a + b).toBe(2);
    } finally {
      await second.close();
    }
    expect(await sent()).toEqual([
      `class session:${session.id} → ${jo.email}`,
      `class session:${session.id} → ${lee.email}`,
    ]);
    expect(await mails()).toHaveLength(2);
  });

  it('never sends late: not what fell due while the rule was off, nor past the grace window', async () => {
    await classFixture();
    const start = at('2027-03-02', '16:00');
    const due = new Date(start.getTime() - 24 * 3_600_000);
    // Switched on an hour after the reminder fell due.
    await enable('class', 24, new Date(due.getTime() + 3_600_000));
    await runReminders(t.deps, new Date(due.getTime() + 2 * 3_600_000));
    expect(await sent()).toEqual([]);
    // On in time, but the workers were down for 13 hours after it fell due.
    await enable('class', 12, new Date(due.getTime() - 86_400_000));
    await t.database.db
      .update(reminderRules)
      .set({ amount: 24 })
      .where(tenant.where(reminderRules, eq(reminderRules.kind, 'class')));
    await runReminders(t.deps, new Date(due.getTime() + 13 * 3_600_000));
    expect(await sent()).toEqual([]);
  });

  it('a suspended company, or one without the communications module, sends no reminders', async () => {
    const { db } = t.database;
    await classFixture();
    const start = at('2027-03-02', '16:00');
    await enable('class', 24, new Date(start.getTime() - 3 * 86_400_000));
    const now = new Date(start.getTime() - 23 * 3_600_000);
    await db
      .update(companies)
      .set({ disabledModules: ['communications'] })
      .where(eq(companies.id, company.id));
    await t.syncCache();
    await runReminders(t.deps, now);
    await db
      .update(companies)
      .set({ disabledModules: [], status: 'suspended' })
      .where(eq(companies.id, company.id));
    await t.syncCache();
    await runReminders(t.deps, now);
    expect(await sent()).toEqual([]);
    await db.update(companies).set({ status: 'active' }).where(eq(companies.id, company.id));
    await t.syncCache();
    await runReminders(t.deps, now);
    expect(await sent()).toHaveLength(2);
  });

  it('trial follow-up: N hours after the trial ends, not for a child enrolled since', async () => {
    const { db } = t.database;
    const { klass, lee, dan } = await classFixture();
    // Another trial child who has enrolled in the class since.
    const sue = await parent('Sue Enrolled');
    const zoe = await createChild(db, company.id, sue.id, 'Zoe');
    await enrol(klass.termClass.id, zoe.id, { kind: 'trial', sessionId: klass.sessions[0]!.id });
    await enrol(klass.termClass.id, zoe.id);
    await enable('trial', 2, at('2027-03-01', '09:00'));
    const due = at('2027-03-02', '19:00'); // 16:00 + 60 minutes + 2 hours
    expect(await runReminders(t.deps, new Date(due.getTime() - MINUTE))).toBe(0);
    await runReminders(t.deps, new Date(due.getTime() + MINUTE));
    const [trial] = await db
      .select({ id: classEnrolments.id })
      .from(classEnrolments)
      .where(tenant.where(classEnrolments, eq(classEnrolments.childId, dan.id)));
    expect(await sent()).toEqual([`trial trial:${trial!.id} → ${lee.email}`]);
    expect((await mails())[0]!.subject).toBe('How was Kinder Gym Tuesday?');
  });

  it('invoice due N days before and overdue N days after, only while something is owing', async () => {
    const { db } = t.database;
    const [ann, bob] = await Promise.all([parent('Ann Owing'), parent('Bob Paid')]);
    const lines = [{ description: 'Term fees', unitAmount: 20_000 }];
    const owing = (
      await createInvoice(db, tenant, {
        parentId: ann.id,
        kind: 'one_off',
        lines,
        issueOn: '2027-03-01',
        dueOn: '2027-03-10',
      })
    ).invoice;
    const paid = (
      await createInvoice(db, tenant, {
        parentId: bob.id,
        kind: 'one_off',
        lines,
        issueOn: '2027-03-01',
        dueOn: '2027-03-10',
      })
    ).invoice;
    await db
      .update(invoices)
      .set({ status: 'paid', amountPaid: paid.total })
      .where(tenant.byId(invoices, paid.id));
    await enable('invoice-due', 3, at('2027-03-01', '09:00'));
    await enable('invoice-overdue', 2, at('2027-03-01', '09:00'));

    await runReminders(t.deps, at('2027-03-07', '09:01'));
    expect(await sent()).toEqual([`invoice-due invoice:${owing.id}:due:2027-03-10 → ${ann.email}`]);
    const [mail] = await mails();
    expect(mail!.subject).toBe(`Invoice ${owing.code} is due on 10/03/2027`);
    expect(mail!.text).toContain('Amount owing: $200.00.');

    await runReminders(t.deps, at('2027-03-12', '09:01'));
    expect(await sent()).toEqual([
      `invoice-due invoice:${owing.id}:due:2027-03-10 → ${ann.email}`,
      `invoice-overdue invoice:${owing.id}:overdue:2027-03-10 → ${ann.email}`,
    ]);
  });

  it('missing waiver: families and guests who still need to sign, N days before the event or party', async () => {
    const { db } = t.database;
    const waiver = await createWaiverTemplate(db, company.id);
    const { event, session } = await createBookableEvent(db, company.id);
    const [amy, ben, cat] = await Promise.all([
      parent('Amy Unsigned'),
      parent('Ben Signed'),
      parent('Cat Party'),
    ]);
    const [mia, noah, ruby] = await Promise.all([
      createChild(db, company.id, amy.id, 'Mia'),
      createChild(db, company.id, ben.id, 'Noah'),
      createChild(db, company.id, cat.id, 'Ruby'),
    ]);
    const unsigned = await createConfirmedBooking(db, company.id, {
      parentId: amy.id,
      eventId: event.id,
      childIds: [mia.id],
    });
    const signed = await createConfirmedBooking(db, company.id, {
      parentId: ben.id,
      eventId: event.id,
      childIds: [noah.id],
    });
    for (const { booking } of [unsigned, signed])
      await db.insert(bookingPlaces).values(
        tenant.values({
          bookingId: booking.id,
          sessionId: session.id,
          date: '2027-03-10',
          places: 1,
          unitPrice: 4500,
        }),
      );
    const [signature] = await db
      .insert(signedWaivers)
      .values(
        tenant.values({
          waiverId: waiver.id,
          waiverVersion: waiver.version,
          waiverTitle: waiver.title,
          bodyHtml: waiver.body,
          childId: noah.id,
          parentId: ben.id,
          childFirstName: 'Noah',
          childLastName: 'Tester',
          childDob: '2018-04-09',
          answers: {},
          signerName: 'Ben Signed',
          signaturePng: Buffer.from(SIGNATURE.split(',')[1]!, 'base64'),
          ip: '127.0.0.1',
          userAgent: 'test',
          contentHash: 'x',
        }),
      )
      .returning();
    await db
      .insert(waiverUses)
      .values(
        tenant.values({ subject: `event:${signed.booking.id}:${noah.id}`, signedWaiverId: signature!.id }),
      );
    const { morning } = await createPartySetup(db, company.id);
    const { party } = await createConfirmedParty(db, company.id, {
      parentId: cat.id,
      slotId: morning.id,
      childId: ruby.id,
      date: '2027-03-10',
      guests: [
        { childName: 'Gus Guest', parentEmail: 'gus.parent@guest.test' },
        { childName: 'Nora Noemail', parentEmail: null },
      ],
    });
    await enable('waiver', 2, at('2027-03-01', '09:00'));
    await runReminders(t.deps, at('2027-03-08', '09:01'));
    expect(await sent()).toEqual([
      `waiver event:${unsigned.booking.id} → ${amy.email}`,
      `waiver party:${party.id} → ${cat.email}`,
      `waiver party:${party.id} → gus.parent@guest.test`,
    ]);
    const toAmy = (await mails()).find((m) => m.toAddress === amy.email)!;
    expect(toAmy.text).toContain('signed waiver for Mia before Holiday Camp on 10/03/2027');
  });

  it('party guest list: N days before, to the parent of a party whose list is not complete', async () => {
    const { db } = t.database;
    const [cat, dee] = await Promise.all([parent('Cat Host'), parent('Dee Done')]);
    const [ruby, sam] = await Promise.all([
      createChild(db, company.id, cat.id, 'Ruby'),
      createChild(db, company.id, dee.id, 'Sam'),
    ]);
    const { morning, afternoon } = await createPartySetup(db, company.id);
    const { party } = await createConfirmedParty(db, company.id, {
      parentId: cat.id,
      slotId: morning.id,
      childId: ruby.id,
      date: '2027-03-20',
      guests: [{ childName: 'Gus', parentEmail: null }],
    });
    await createConfirmedParty(db, company.id, {
      parentId: dee.id,
      slotId: afternoon.id,
      childId: sam.id,
      date: '2027-03-20',
      guests: Array.from({ length: 10 }, (_, i) => ({ childName: `Guest ${i}`, parentEmail: null })),
    });
    await enable('party-guests', 7, at('2027-03-01', '09:00'));
    await runReminders(t.deps, at('2027-03-13', '09:01'));
    expect(await sent()).toEqual([`party-guests party:${party.id} → ${cat.email}`]);
    expect((await mails())[0]!.text).toContain('You have entered 1 of 10 guests so far.');
  });

  it('re-enrolment: families who have not confirmed, N days before the deadline', async () => {
    const { db } = t.database;
    const [amy, ben] = await Promise.all([parent('Amy Holding'), parent('Ben Confirmed')]);
    const [mia, noah] = await Promise.all([
      createChild(db, company.id, amy.id, 'Mia'),
      createChild(db, company.id, ben.id, 'Noah'),
    ]);
    const from = await createClassWithSessions(db, company.id, { coachId: null, dates: ['2027-02-02'] });
    const to = await createClassWithSessions(db, company.id, {
      coachId: null,
      dates: ['2027-04-27'],
      name: 'Kinder Gym T2',
    });
    await db.update(terms).set({ name: 'Term 2 2027' }).where(tenant.byId(terms, to.term.id));
    const deadline = at('2027-04-10', '17:00');
    const [run] = await db
      .insert(rollovers)
      .values(
        tenant.values({ fromTermId: from.term.id, toTermId: to.term.id, deadline, status: 'done' as const }),
      )
      .returning();
    for (const [who, child, status] of [
      [amy, mia, 'pending'],
      [ben, noah, 'active'],
    ] as const) {
      const old = await enrol(from.termClass.id, child.id);
      const held = await enrol(to.termClass.id, child.id, {
        status,
        heldFor: status === 'pending' ? 'rollover' : null,
      });
      await db.insert(rolloverItems).values(
        tenant.values({
          rolloverId: run!.id,
          fromEnrolmentId: old.id,
          toEnrolmentId: held.id,
          toTermId: to.term.id,
          toClassId: to.termClass.id,
          childId: child.id,
          parentId: who.id,
          holdToken: `token-${who.id}`,
        }),
      );
    }
    await enable('re-enrolment', 2, at('2027-04-01', '09:00'));
    await runReminders(t.deps, new Date(deadline.getTime() - 2 * 86_400_000 - MINUTE));
    expect(await sent()).toEqual([]);
    await runReminders(t.deps, new Date(deadline.getTime() - 2 * 86_400_000 + MINUTE));
    expect(await sent()).toEqual([`re-enrolment rollover:${run!.id} → ${amy.email}`]);
    const [mail] = await mails();
    expect(mail!.subject).toContain('Your places for Term 2 2027 are held until');
    expect(mail!.text).toContain('Kinder Gym T2');
  });

  it('Working With Children Check: N days before it expires, to the coach and the company', async () => {
    const { db } = t.database;
    const { user, coach } = await createCoach(db, company.id, {
      fullName: 'Casey Coach',
      wwccExpiresOn: '2027-04-01',
    });
    await createCoach(db, company.id, { fullName: 'Later Coach', wwccExpiresOn: '2027-05-01' });
    await enable('wwcc', 30, at('2027-02-01', '09:00'));
    await runReminders(t.deps, at('2027-03-02', '09:01'));
    expect(await sent()).toEqual([
      `wwcc wwcc:${coach.id}:2027-04-01 → office@gym.example`,
      `wwcc wwcc:${coach.id}:2027-04-01 → ${user.email}`,
    ]);
    expect((await mails())[0]!.subject).toBe(
      'Working With Children Check of Casey Coach expires on 01/04/2027',
    );
  });

  it('a company’s own wording is used; another company’s rules and sends are untouched', async () => {
    const { db } = t.database;
    const other = await createCompany(db, { timeZone: TZ });
    const otherTenant = new Tenant(other.id);
    await saveReminderRule(
      t.deps,
      await adminOf(otherTenant),
      { kind: 'class', enabled: true, amount: 48, ...defaultWording('class') },
      new Date('2027-01-01'),
    );
    const [before] = await db.select().from(reminderRules).where(otherTenant.where(reminderRules));

    const admin = await createUser(db, company.id, { role: 'companyadmin' });
    const headers = (await sessionFor(db, admin)).headers;
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/reminder-emails',
      headers,
      payload: {
        kind: 'class',
        enabled: true,
        amount: 24,
        subject: 'See you at {{class}}',
        body: 'Hi {{name}},\n\n{{children}}: {{time}}',
      },
    });
    expect(saved.json()).toEqual({ valid: true, info: { title: 'Saved', message: 'Class reminder is on.' } });
    const [after] = await db.select().from(reminderRules).where(otherTenant.where(reminderRules));
    expect(after).toEqual(before);
    // One wording: the System emails page shows what the reminder page saved, for this company only.
    expect(await wordingOf(tenant)).toEqual({
      subject: 'See you at {{class}}',
      body: 'Hi {{name}},\n\n{{children}}: {{time}}',
    });
    expect(await wordingOf(otherTenant)).toBeNull();

    await db
      .update(reminderRules)
      .set({ activeFrom: new Date('2027-01-01') })
      .where(tenant.where(reminderRules));
    const { jo } = await classFixture();
    await runReminders(t.deps, at('2027-03-01', '17:00'));
    const toJo = (await mails()).find((m) => m.toAddress === jo.email)!;
    expect(toJo.subject).toBe('See you at Kinder Gym Tuesday');
    expect(toJo.text).toBe('Hi Jo Walker,\n\nAva and Ben: 16:00');
    expect(await sent(otherTenant)).toEqual([]);

    const page = await t.app.inject({ method: 'GET', url: '/api/v1/admin/reminder-emails', headers });
    const body = page.json();
    expect(body.rules).toHaveLength(8);
    expect(body.rules.find((r: { kind: string }) => r.kind === 'class')).toMatchObject({
      enabled: true,
      amount: 24,
      subject: 'See you at {{class}}',
      customised: true,
    });
    expect(body.sent.map((s: { to: string }) => s.to).sort()).toEqual([jo.email, 'lee.trial@family.test']);
  });

  it('refuses bad wording and a bad N with clear messages, storing nothing', async () => {
    const { db } = t.database;
    const admin = await createUser(db, company.id, { role: 'companyadmin' });
    const headers = (await sessionFor(db, admin)).headers;
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/v1/admin/reminder-emails', headers, payload });
    const unknown = await post({
      kind: 'class',
      enabled: true,
      amount: 24,
      subject: 'Hi {{nmae}}',
      body: 'x',
    });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().error.element).toEqual([
      {
        name: 'subject',
        messages: [
          'This email has no placeholder {{nmae}}. It can use: {{name}}, {{company}}, {{children}}, {{class}}, {{date}}, {{time}}.',
        ],
      },
    ]);
    const tooMany = await post({ kind: 'invoice-due', enabled: true, amount: 61, subject: 'x', body: 'x' });
    expect(tooMany.json().error.element).toEqual([{ name: 'amount', messages: ['Enter at most 60 days.'] }]);
    const zero = await post({ kind: 'wwcc', enabled: true, amount: 0, subject: 'x', body: 'x' });
    expect(zero.json().error.element).toEqual([{ name: 'amount', messages: ['Enter at least 1.'] }]);
    const badKind = await post({ kind: 'nope', enabled: true, amount: 1, subject: 'x', body: 'x' });
    expect(badKind.json().valid).toBe(false);
    // The System emails page's own rules hold here too: the wording is that page's.
    const twoLines = await post({
      kind: 'class',
      enabled: true,
      amount: 24,
      subject: 'Hi\nthere',
      body: 'x {name}}',
    });
    expect(twoLines.json().error.element).toEqual([
      { name: 'subject', messages: ['The subject must be one line.'] },
      { name: 'body', messages: ['Write placeholders with two braces and no spaces, for example {{name}}.'] },
    ]);
    expect(await wordingOf(tenant)).toBeNull();
    expect(await db.select().from(reminderRules).where(tenant.where(reminderRules))).toEqual([]);
    // A coach may not change the rules.
    const coach = await createUser(db, company.id, { role: 'companycoach' });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/reminder-emails',
      headers: (await sessionFor(db, coach)).headers,
      payload: { kind: 'class', enabled: true, amount: 24, subject: 'x', body: 'x' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('switching on, or changing N, starts the rule afresh; editing only the wording does not', async () => {
    const { db } = t.database;
    const rule = async () =>
      (
        await db
          .select()
          .from(reminderRules)
          .where(and(tenant.where(reminderRules), eq(reminderRules.kind, 'class')))
      )[0]!;
    const wording = defaultWording('class');
    await saveReminderRule(
      t.deps,
      await adminOf(tenant),
      { kind: 'class', enabled: true, amount: 24, ...wording },
      new Date('2027-01-01T00:00:00Z'),
    );
    expect((await rule()).activeFrom).toEqual(new Date('2027-01-01T00:00:00Z'));
    await saveReminderRule(
      t.deps,
      await adminOf(tenant),
      { kind: 'class', enabled: true, amount: 24, subject: 'New', body: 'Words' },
      new Date('2027-01-02T00:00:00Z'),
    );
    expect((await rule()).activeFrom).toEqual(new Date('2027-01-01T00:00:00Z'));
    expect(await wordingOf(tenant)).toEqual({ subject: 'New', body: 'Words' });
    await saveReminderRule(
      t.deps,
      await adminOf(tenant),
      { kind: 'class', enabled: true, amount: 12, subject: 'New', body: 'Words' },
      new Date('2027-01-03T00:00:00Z'),
    );
    expect((await rule()).activeFrom).toEqual(new Date('2027-01-03T00:00:00Z'));
    await saveReminderRule(
      t.deps,
      await adminOf(tenant),
      { kind: 'class', enabled: false, amount: 12, ...wording },
      new Date('2027-01-04T00:00:00Z'),
    );
    expect(await rule()).toMatchObject({ enabled: false, activeFrom: null });
    // The default wording again: the kind's own wording is reset (System emails shows the default).
    expect(await wordingOf(tenant)).toBeNull();
  });

  it('each rule’s placeholders are exactly those its default mail uses', () => {
    for (const kind of Object.keys(reminderInfo) as ReminderKind[]) {
      const { subject, body } = defaultWording(kind);
      const used = new Set([...`${subject}\n${body}`.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]));
      expect([...used].sort(), kind).toEqual(Object.keys(reminderInfo[kind].placeholders).sort());
    }
  });
});
