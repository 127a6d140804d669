import type { DashboardResponse } from '@tumble/contracts/dashboard';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, mondayOf, todayIn, zonedInstant } from '../../platform/time.ts';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { createClassWithSessions, createCoach, createLeave } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { invoices } from '../billing/ledger.tables.ts';
import { waitlistEntries } from '../bookings/bookings.tables.ts';
import { classWaitlist } from '../classes/class-waitlist.tables.ts';
import { attendance, classEnrolments, termClasses } from '../classes/classes.tables.ts';
import { registrationAnomalies } from '../registration/registration.tables.ts';
import { children } from '../students/students.tables.ts';
import { tasks } from '../tasks/tasks.tables.ts';

type Headers = Record<string, string>;

/**
 * The dashboard on a hand-made company (issue 17): every figure below is counted by hand from the
 * rows this setup writes, next to rows that must not count (lapsed, withdrawn, last week, another
 * company's).
 */
describe('GET /api/v1/admin/dashboard', () => {
  let t: TestContext;
  const as = {} as Record<'admin' | 'staff' | 'coachA' | 'coachB' | 'foreign', Headers>;
  // The test companies use the default zone, Australia/Sydney.
  const today = todayIn('Australia/Sydney');
  const monday = mondayOf(today);
  let kinderToday: number;
  let ninjaToday: number;
  let termId: number;
  const coachIds = {} as Record<'a' | 'c', number>;

  const dashboard = async (headers: Headers) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/admin/dashboard', headers });
    expect(response.statusCode).toBe(200);
    return response.json() as DashboardResponse;
  };

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db);
    const companyId = company.id;
    const foreign = await createCompany(db);
    const admin = await createUser(db, companyId, { role: 'companyadmin' });
    as.admin = (await sessionFor(db, admin)).headers;
    as.staff = (await sessionFor(db, await createUser(db, companyId, { role: 'companystaff' }))).headers;
    as.foreign = (await sessionFor(db, await createUser(db, foreign.id, { role: 'companyadmin' }))).headers;
    // Coach A's check expires in 10 days, coach C's expired yesterday, coach B's is far off.
    const a = await createCoach(db, companyId, { fullName: 'Alex Coach', wwccExpiresOn: addDays(today, 10) });
    const b = await createCoach(db, companyId, { fullName: 'Bo Coach' });
    const c = await createCoach(db, companyId, { fullName: 'Cam Coach', wwccExpiresOn: addDays(today, -1) });
    // A check 31 days away is not due yet.
    await createCoach(db, companyId, { fullName: 'Dee Coach', wwccExpiresOn: addDays(today, 31) });
    coachIds.a = a.coach.id;
    coachIds.c = c.coach.id;
    as.coachA = (await sessionFor(db, a.user)).headers;
    as.coachB = (await sessionFor(db, b.user)).headers;

    // Today: Alex's Kinder Gym at 16:00 (again next week) and Bo's Ninja at 17:00, one term.
    const kinder = await createClassWithSessions(db, companyId, {
      coachId: a.coach.id,
      dates: [today, addDays(today, 7)],
      name: 'Kinder Gym',
    });
    const ninja = await createClassWithSessions(db, companyId, {
      coachId: b.coach.id,
      dates: [today],
      startTime: '17:00',
      name: 'Ninja Kids',
    });
    termId = kinder.term.id;
    await db.update(termClasses).set({ termId }).where(eq(termClasses.id, ninja.termClass.id));
    kinderToday = kinder.sessions[0]!.id;
    ninjaToday = ninja.sessions[0]!.id;
    // Bo is on leave today: the Ninja session needs cover.
    await createLeave(db, companyId, b.coach.id, today, addDays(today, 3));

    const parent = await createUser(db, companyId, { role: 'student' });
    const kid = async (firstName: string) => {
      const [row] = await db
        .insert(children)
        .values({ companyId, parentId: parent.id, firstName, lastName: 'Dash', dob: '2020-06-20' })
        .returning();
      return row!.id;
    };
    const place = async (values: Partial<typeof classEnrolments.$inferInsert> & { childId: number }) => {
      const [row] = await db
        .insert(classEnrolments)
        .values({ companyId, termClassId: kinder.termClass.id, kind: 'enrolled', ...values })
        .returning();
      return row!;
    };
    const ava = await kid('Ava');
    const ben = await kid('Ben');
    const eli = await kid('Eli');
    const fay = await kid('Fay');
    const gus = await kid('Gus');
    // Places this term: Ava (this week), Ben (last week), Eli (an offer held until tomorrow), Fay
    // in Ninja (this week): 4 of 20. Not places: Cleo withdrawn, Dan's lapsed hold.
    await place({ childId: ava });
    await place({
      childId: ben,
      createdAt: new Date(zonedInstant(monday, '00:00', 'Australia/Sydney').getTime() - 3_600_000),
    });
    await place({ childId: await kid('Cleo'), status: 'withdrawn' });
    await place({
      childId: await kid('Dan'),
      status: 'pending',
      heldFor: 'checkout',
      holdExpiresAt: new Date(Date.now() - 60_000),
    });
    const offer = await place({
      childId: eli,
      status: 'pending',
      heldFor: 'offer',
      holdExpiresAt: new Date(Date.now() + 86_400_000),
    });
    await place({ childId: fay, termClassId: ninja.termClass.id });
    // Trials this week: Gus today in Kinder; a cancelled trial does not count.
    await place({ childId: gus, kind: 'trial', sessionId: kinderToday });
    await place({ childId: await kid('Hal'), kind: 'trial', sessionId: kinderToday, status: 'cancelled' });
    // Ava is marked on today's Kinder roll: 1 of 3 (Ava, Ben, Gus) marked; Ninja 0 of 1 (Fay).
    await db
      .insert(attendance)
      .values({ companyId, sessionId: kinderToday, childId: ava, status: 'present' });

    // Waitlist offers: one open class offer (Eli's), one lapsed; one open event invitation, one lapsed.
    const waiting = {
      companyId,
      termClassId: kinder.termClass.id,
      parentId: parent.id,
      source: 'staff' as const,
    };
    await db.insert(classWaitlist).values([
      {
        ...waiting,
        childId: eli,
        householdKey: 'h1',
        status: 'offered',
        enrolmentId: offer.id,
        offerExpiresAt: new Date(Date.now() + 86_400_000),
      },
      {
        ...waiting,
        childId: ben,
        householdKey: 'h2',
        status: 'offered',
        offerExpiresAt: new Date(Date.now() - 60_000),
      },
      { ...waiting, childId: gus, householdKey: 'h3', status: 'waiting' },
    ]);
    const camp = await createBookableEvent(db, companyId);
    const entry = {
      companyId,
      parentId: parent.id,
      eventId: camp.event.id,
      sessionId: camp.session.id,
      date: camp.event.startDate,
      places: 1,
    };
    await db.insert(waitlistEntries).values([
      { ...entry, status: 'invited', inviteExpiresAt: new Date(Date.now() + 3_600_000) },
      { ...entry, status: 'invited', inviteExpiresAt: new Date(Date.now() - 3_600_000) },
      { ...entry, status: 'waiting' },
    ]);

    // Two open anomalies and a resolved one.
    const anomaly = { companyId, kind: 'payment_failed' as const, parentId: parent.id, detail: 'Declined.' };
    await db.insert(registrationAnomalies).values([anomaly, anomaly, { ...anomaly, status: 'resolved' }]);

    // Overdue: $100 left of $110 and $50; an issued invoice and another company's overdue one do not count.
    const invoice = {
      companyId,
      parentId: parent.id,
      kind: 'one_off' as const,
      buyerName: 'Dash Family',
      buyerEmail: 'dash@example.test',
      gstRegistered: false,
      dueOn: addDays(today, -5),
    };
    const foreignParent = await createUser(db, foreign.id, { role: 'student' });
    await db.insert(invoices).values([
      { ...invoice, status: 'overdue', total: 11000, amountPaid: 1000 },
      { ...invoice, status: 'overdue', total: 5000 },
      { ...invoice, status: 'issued', total: 3000, dueOn: addDays(today, 5) },
      { ...invoice, companyId: foreign.id, parentId: foreignParent.id, status: 'overdue', total: 9999 },
    ]);

    // Tasks: Alex's own, one for every coach, the admin's (one open, one done), another company's admins'.
    await db.insert(tasks).values([
      { companyId, title: 'Check the foam pit', assigneeId: a.user.id, dueDate: addDays(today, 1) },
      { companyId, title: 'Read the new lesson plans', assigneeRole: 'companycoach' },
      { companyId, title: 'Call the Dash family', assigneeId: admin.id, dueDate: addDays(today, -1) },
      { companyId, title: 'Order mats', assigneeId: admin.id, status: 'done', doneAt: new Date() },
      // For every admin of the other company: this company's admin never sees it.
      { companyId: foreign.id, title: 'Not ours', assigneeRole: 'companyadmin' },
    ]);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('gives staff every figure, exact on the fixture data', async () => {
    for (const who of ['admin', 'staff'] as const) {
      const body = await dashboard(as[who]);
      expect(body.today).toBe(today);
      expect(body.sessions.map((s) => [s.id, s.class_name, s.coach, s.expected, s.marked])).toEqual([
        [kinderToday, 'Kinder Gym', 'Alex Coach', 3, 1],
        [ninjaToday, 'Ninja Kids', 'Bo Coach', 1, 0],
      ]);
      expect(body.cover).toEqual({
        count: 1,
        next: [
          {
            session_id: ninjaToday,
            class_name: 'Ninja Kids',
            date: today,
            start_time: '17:00',
            coach_name: 'Bo Coach',
          },
        ],
      });
      expect(body.checks?.map((c) => [c.coach_id, c.name, c.expired])).toEqual([
        [coachIds.c, 'Cam Coach', true],
        [coachIds.a, 'Alex Coach', false],
      ]);
      expect(body.overdue_invoices).toEqual({ count: 2, amount: 15000 });
      expect(body.this_week).toEqual({ since: monday, enrolments: 2, trials: 1 });
      expect(body.waitlist_offers).toEqual({ classes: 1, events: 1 });
      expect(body.open_anomalies).toBe(2);
      expect(body.fill_rate).toEqual({ term_id: termId, term_name: 'Term', places: 4, capacity: 20 });
      expect(body.my_tasks.map((task) => [task.title, task.overdue])).toEqual(
        who === 'admin' ? [['Call the Dash family', true]] : [],
      );
    }
  });

  it("shows a coach only today's sessions they coach: no company figures", async () => {
    const a = await dashboard(as.coachA);
    expect(a.sessions.map((s) => s.id)).toEqual([kinderToday]);
    expect(a).toMatchObject({
      cover: null,
      checks: null,
      overdue_invoices: null,
      this_week: null,
      waitlist_offers: null,
      open_anomalies: null,
      fill_rate: null,
    });
    expect(a.my_tasks.map((task) => task.title)).toEqual(['Check the foam pit', 'Read the new lesson plans']);
    const b = await dashboard(as.coachB);
    expect(b.sessions.map((s) => s.id)).toEqual([ninjaToday]);
    expect(b.my_tasks.map((task) => task.title)).toEqual(['Read the new lesson plans']);
  });

  it("shows another company nothing of this one's", async () => {
    const body = await dashboard(as.foreign);
    expect(body).toMatchObject({
      sessions: [],
      cover: { count: 0, next: [] },
      checks: [],
      // Only its own overdue invoice.
      overdue_invoices: { count: 1, amount: 9999 },
      this_week: { enrolments: 0, trials: 0 },
      waitlist_offers: { classes: 0, events: 0 },
      open_anomalies: 0,
      fill_rate: null,
      my_tasks: [{ title: 'Not ours' }],
    });
  });

  it('refuses a parent and a signed-out caller', async () => {
    const { db } = t.database;
    const [parent] = await db.select().from(children).limit(1);
    const parentHeaders = (await sessionFor(db, { id: parent!.parentId, companyId: parent!.companyId }))
      .headers;
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/dashboard',
      headers: parentHeaders,
    });
    expect(refused.statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/admin/dashboard' });
    expect(anonymous.statusCode).toBe(401);
  });
});
