import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createCoach } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { trialFollowUps } from '../classes/class-waitlist.tables.ts';
import { classEnrolments, classSessions, classTypes, termClasses, terms } from '../classes/classes.tables.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from '../classes/enrolments.tables.ts';
import { registrationForms } from '../registration/registration.tables.ts';
import { children } from '../students/students.tables.ts';
import { PERIOD_BACKWARDS } from './trial-conversions.report.ts';

type Headers = Record<string, string>;
type Place = typeof classEnrolments.$inferInsert;

/** Small builders of one company's classes, children and places, straight into the tables. */
function builder(db: Db, companyId: number, parentId: number) {
  return {
    type: async (name: string) =>
      (await db.insert(classTypes).values({ companyId, name }).returning())[0]!.id,
    term: async (name: string, startDate: string, endDate: string) =>
      (await db.insert(terms).values({ companyId, name, startDate, endDate, status: 'open' }).returning())[0]!
        .id,
    klass: async (termId: number, classTypeId: number, capacity: number, leadCoachId: number | null = null) =>
      (
        await db
          .insert(termClasses)
          .values({
            companyId,
            termId,
            classTypeId,
            leadCoachId,
            capacity,
            name: 'Class',
            weekday: 2,
            startTime: '16:00',
            durationMinutes: 60,
          })
          .returning()
      )[0]!.id,
    session: async (
      termClassId: number,
      date: string,
      extra: Partial<typeof classSessions.$inferInsert> = {},
    ) =>
      (
        await db
          .insert(classSessions)
          .values({
            companyId,
            termClassId,
            date,
            slotDate: date,
            startTime: '16:00',
            durationMinutes: 60,
            ...extra,
          })
          .returning()
      )[0]!.id,
    child: async (firstName: string) =>
      (
        await db
          .insert(children)
          .values({ companyId, parentId, firstName, lastName: 'Report', dob: '2024-01-01' })
          .returning()
      )[0]!.id,
    place: async (values: Omit<Place, 'companyId'>) =>
      (
        await db
          .insert(classEnrolments)
          .values({ companyId, ...values })
          .returning()
      )[0]!.id,
  };
}

describe('class reports: trial conversions and enrolment comparison', () => {
  let t: TestContext;
  let adminA: Headers;
  let adminB: Headers;
  let adminC: Headers;
  let coachA: Headers;
  let termIds: { t1of2029: number; t4of2029: number; t1of2030: number };

  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
  const trials = '/api/v1/admin/reports/trial-conversions';
  const comparison = '/api/v1/admin/reports/enrollment-comparison';

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const a = await createCompany(db);
    const b = await createCompany(db);
    const c = await createCompany(db);
    adminA = (await sessionFor(db, await createUser(db, a.id, { role: 'companyadmin' }))).headers;
    adminB = (await sessionFor(db, await createUser(db, b.id, { role: 'companyadmin' }))).headers;
    adminC = (await sessionFor(db, await createUser(db, c.id, { role: 'companyadmin' }))).headers;

    // Company A: trials in March 2030.
    const parentA = await createUser(db, a.id, { role: 'student' });
    const A = builder(db, a.id, parentA.id);
    const alex = await createCoach(db, a.id, { fullName: 'Alex Coach' });
    const bo = await createCoach(db, a.id, { fullName: 'Bo Coach' });
    const cass = await createCoach(db, a.id, { fullName: 'Cass Coach' });
    coachA = (await sessionFor(db, alex.user)).headers;
    const kinder = await A.type('Kinder Gym');
    const ninja = await A.type('Ninja Kids');
    const t1 = await A.term('Term 1 2030', '2030-02-01', '2030-04-10');
    const t2 = await A.term('Term 2 2030', '2030-04-28', '2030-06-30');
    const kgT1 = await A.klass(t1, kinder, 10, alex.coach.id);
    const njT1 = await A.klass(t1, ninja, 8, cass.coach.id);
    const kgT2 = await A.klass(t2, kinder, 10, alex.coach.id);
    const kgMar5 = await A.session(kgT1, '2030-03-05', { coachId: alex.coach.id });
    // Bo covers this one: the trial counts for the session's coach.
    const kgMar12 = await A.session(kgT1, '2030-03-12', { coachId: bo.coach.id });
    // No session coach: the class's lead coach (Cass).
    const njMar6 = await A.session(njT1, '2030-03-06');
    const njApr2 = await A.session(njT1, '2030-04-02');
    const [form] = await db
      .insert(registrationForms)
      .values({ companyId: a.id, key: 'website-trials', name: 'Website trial form' })
      .returning();
    let purchases = 0;
    const boughtThroughForm = async (enrolmentId: number) => {
      purchases += 1;
      const [purchase] = await db
        .insert(enrolmentPurchases)
        .values({
          companyId: a.id,
          parentId: parentA.id,
          reference: `trial-report-${a.id}-${purchases}`,
          code: `EN-TR${purchases}`,
          status: 'confirmed',
          pricing: {},
          total: 1500,
          registrationFormId: form!.id,
        })
        .returning();
      await db
        .insert(enrolmentPurchaseItems)
        .values({ companyId: a.id, purchaseId: purchase!.id, enrolmentId, amount: 1500 });
    };
    const trial = (
      childId: number,
      termClassId: number,
      sessionId: number,
      createdAt: string,
      status?: 'cancelled',
    ) =>
      A.place({
        childId,
        termClassId,
        sessionId,
        kind: 'trial',
        createdAt: new Date(createdAt),
        ...(status ? { status } : {}),
      });
    const enrolled = (childId: number, termClassId: number, createdAt: string) =>
      A.place({ childId, termClassId, kind: 'enrolled', createdAt: new Date(createdAt) });

    // Ava: trial 5 March (Alex, web form), enrolled in Kinder Gym term 2 on 20 April: converted.
    const ava = await A.child('Ava');
    await boughtThroughForm(await trial(ava, kgT1, kgMar5, '2030-03-01T00:00:00Z'));
    await enrolled(ava, kgT2, '2030-04-20T00:00:00Z');
    // Ben: trial 5 March (Alex, web form), enrolled on 15 May: after the 8 weeks (30 April), not converted.
    const ben = await A.child('Ben');
    await boughtThroughForm(await trial(ben, kgT1, kgMar5, '2030-03-01T00:00:00Z'));
    await enrolled(ben, kgT2, '2030-05-15T00:00:00Z');
    // Cleo: trial 12 March (Bo covering, booked by staff), converted through the follow-up's held
    // place (taken up late, on 20 June: the follow-up is the record).
    const cleo = await A.child('Cleo');
    const cleoTrial = await trial(cleo, kgT1, kgMar12, '2030-03-02T00:00:00Z');
    const held = await A.place({
      childId: cleo,
      termClassId: kgT2,
      kind: 'enrolled',
      createdAt: new Date('2030-06-20T00:00:00Z'),
    });
    await db
      .insert(trialFollowUps)
      .values({ companyId: a.id, trialEnrolmentId: cleoTrial, holdEnrolmentId: held });
    // Dan: trial in Ninja Kids 6 March (Cass as lead coach), enrolled in Kinder Gym: another class type.
    const dan = await A.child('Dan');
    await trial(dan, njT1, njMar6, '2030-03-01T00:00:00Z');
    await enrolled(dan, kgT2, '2030-03-20T00:00:00Z');
    // Eli: a cancelled trial: not a trial.
    await trial(await A.child('Eli'), njT1, njMar6, '2030-03-01T00:00:00Z', 'cancelled');
    // Gus: trial 2 April, not converted: outside March.
    await trial(await A.child('Gus'), njT1, njApr2, '2030-03-25T00:00:00Z');

    // Company B: one trial of its own in March 2030, converted.
    const parentB = await createUser(db, b.id, { role: 'student' });
    const B = builder(db, b.id, parentB.id);
    const bType = await B.type('Kinder Gym');
    const bClass = await B.klass(await B.term('Term 1 2030', '2030-02-01', '2030-04-10'), bType, 10);
    const bKid = await B.child('Zed');
    await B.place({
      childId: bKid,
      termClassId: bClass,
      sessionId: await B.session(bClass, '2030-03-05'),
      kind: 'trial',
      createdAt: new Date('2030-03-01T00:00:00Z'),
    });
    await B.place({
      childId: bKid,
      termClassId: bClass,
      kind: 'enrolled',
      createdAt: new Date('2030-03-06T00:00:00Z'),
    });

    // Company C: three terms of enrolments.
    const parentC = await createUser(db, c.id, { role: 'student' });
    const C = builder(db, c.id, parentC.id);
    const kg = await C.type('Kinder Gym');
    const nj = await C.type('Ninja Kids');
    termIds = {
      t1of2029: await C.term('Term 1 2029', '2029-02-01', '2029-04-10'),
      t4of2029: await C.term('Term 4 2029', '2029-10-10', '2029-12-15'),
      t1of2030: await C.term('Term 1 2030', '2030-02-02', '2030-04-10'),
    };
    const kg29a = await C.klass(termIds.t1of2029, kg, 4);
    await C.session(kg29a, '2029-02-05');
    await C.session(kg29a, '2029-02-12');
    await C.session(kg29a, '2029-02-19', { status: 'cancelled' });
    const kg29d = await C.klass(termIds.t4of2029, kg, 4);
    await C.session(kg29d, '2029-10-15');
    await C.session(kg29d, '2029-10-22');
    const nj29d = await C.klass(termIds.t4of2029, nj, 5);
    await C.session(nj29d, '2029-10-16');
    const kg30 = await C.klass(termIds.t1of2030, kg, 4);
    const firstKg30 = await C.session(kg30, '2030-02-05');
    await C.session(kg30, '2030-02-12');
    const nj30 = await C.klass(termIds.t1of2030, nj, 5);
    await C.session(nj30, '2030-02-06');
    const kid = Object.fromEntries(
      await Promise.all(
        ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map(async (n) => [n, await C.child(n)] as const),
      ),
    ) as Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h', number>;
    const enrol = (childId: number, termClassId: number, extra: Partial<Place> = {}) =>
      C.place({ childId, termClassId, kind: 'enrolled', ...extra });
    for (const k of [kid.a, kid.b, kid.c]) await enrol(k, kg29a);
    await enrol(kid.d, kg29a, { status: 'cancelled' });
    for (const k of [kid.a, kid.b]) await enrol(k, kg29d);
    for (const k of [kid.d, kid.e]) await enrol(k, nj29d);
    await enrol(kid.a, kg30);
    await enrol(kid.d, kg30, { startsOn: '2030-02-12' });
    await enrol(kid.f, kg30);
    await enrol(kid.e, kg30, { status: 'pending' });
    for (const k of [kid.g, kid.a]) await enrol(k, nj30);
    await C.place({ childId: kid.h, termClassId: kg30, kind: 'trial', sessionId: firstKg30 });
  });
  afterAll(() => t.close());

  describe('trial conversions', () => {
    it('counts March’s trials, the conversions and the rate, by class type, coach and lead source', async () => {
      const response = await get(`${trials}?from=2030-03-01&to=2030-03-31`, adminA);
      expect(response.statusCode, response.body).toBe(200);
      const { data, meta } = response.json();
      // Ava, Ben, Cleo and Dan (Eli's trial was cancelled, Gus's was in April); Ava and Cleo enrolled.
      expect(data.summary).toEqual([{ name: '2030-03-01 to 2030-03-31', trials: 4, converted: 2, rate: 50 }]);
      expect(data.classTypes).toEqual([
        { name: 'Kinder Gym', trials: 3, converted: 2, rate: 66.7 },
        { name: 'Ninja Kids', trials: 1, converted: 0, rate: 0 },
      ]);
      expect(data.coaches).toEqual([
        { name: 'Alex Coach', trials: 2, converted: 1, rate: 50 },
        { name: 'Bo Coach', trials: 1, converted: 1, rate: 100 },
        { name: 'Cass Coach', trials: 1, converted: 0, rate: 0 },
      ]);
      expect(data.sources).toEqual([
        { name: 'Not recorded', trials: 2, converted: 1, rate: 50 },
        { name: 'Website trial form', trials: 2, converted: 1, rate: 50 },
      ]);
      expect(meta.tables[1]).toMatchObject({ name: 'classTypes', chart: { x: 'name', y: 'rate' } });
    });

    it('follows the period: from 10 March to April, Cleo (converted) and Gus (not)', async () => {
      const { data } = (await get(`${trials}?from=2030-03-10&to=2030-04-30`, adminA)).json();
      expect(data.summary).toEqual([{ name: '2030-03-10 to 2030-04-30', trials: 2, converted: 1, rate: 50 }]);
    });

    it('shows another company only its own trial', async () => {
      const { data } = (await get(`${trials}?from=2030-03-01&to=2030-03-31`, adminB)).json();
      expect(data.summary).toEqual([
        { name: '2030-03-01 to 2030-03-31', trials: 1, converted: 1, rate: 100 },
      ]);
      expect(data.coaches).toEqual([{ name: 'No coach', trials: 1, converted: 1, rate: 100 }]);
    });

    it('refuses a period that ends before it starts, and a date that is not one', async () => {
      const backwards = await get(`${trials}?from=2030-03-31&to=2030-03-01`, adminA);
      expect(backwards.statusCode).toBe(400);
      expect(backwards.json().message).toBe(PERIOD_BACKWARDS);
      expect((await get(`${trials}?from=March`, adminA)).statusCode).toBe(400);
    });

    it('is for office staff, not coaches', async () => {
      expect((await get(trials, coachA)).statusCode).toBe(403);
    });

    it('downloads the same figures as CSV', async () => {
      const csv = await get(`${trials}?from=2030-03-01&to=2030-03-31&format=csv`, adminA);
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toContain(
        'Class type,Trials,Enrolled within 8 weeks,Conversion rate (%)\r\nKinder Gym,3,2,66.7',
      );
    });
  });

  describe('enrolment comparison', () => {
    it('compares Term 1 2030 with Term 4 2029 and Term 1 2029: enrolments, retention, new, lost, fill', async () => {
      const response = await get(`${comparison}?term=${termIds.t1of2030}`, adminC);
      expect(response.statusCode, response.body).toBe(200);
      const { data } = response.json();
      expect(data.terms).toEqual([
        { compared: 'This term', term: 'Term 1 2030', startDate: '2030-02-02', endDate: '2030-04-10' },
        { compared: 'Previous term', term: 'Term 4 2029', startDate: '2029-10-10', endDate: '2029-12-15' },
        {
          compared: 'Same term last year',
          term: 'Term 1 2029',
          startDate: '2029-02-01',
          endDate: '2029-04-10',
        },
      ]);
      // Kinder Gym: a, d, f now (e's place is only pending); a, b in term 4; a, b, c last year (d's cancelled).
      expect(data.enrolments).toEqual([
        { classType: 'Kinder Gym', current: 3, previous: 2, lastYear: 3 },
        { classType: 'Ninja Kids', current: 2, previous: 2, lastYear: 0 },
      ]);
      // Now a, d, f, g. Term 4: a, b, d, e (a and d came back; f, g new; b, e lost). Last year a, b, c.
      expect(data.students).toEqual([
        {
          compared: 'Previous term',
          term: 'Term 4 2029',
          before: 4,
          now: 4,
          returned: 2,
          retention: 50,
          added: 2,
          lost: 2,
        },
        {
          compared: 'Same term last year',
          term: 'Term 1 2029',
          before: 3,
          now: 4,
          returned: 1,
          retention: 33.3,
          added: 3,
          lost: 2,
        },
      ]);
      // Kinder Gym now: 5 Feb a, f and h's trial (d starts on the 12th), 12 Feb a, d, f: 6 of 2 × 4.
      // Term 4: a, b on 2 sessions: 4 of 8. Last year: a, b, c on 2 held sessions (one cancelled): 6 of 8.
      // Ninja Kids now: g, a of 5; term 4: d, e of 5; last year: no class.
      expect(data.fill).toEqual([
        { classType: 'Kinder Gym', taken: 6, offered: 8, current: 75, previous: 50, lastYear: 75 },
        { classType: 'Ninja Kids', taken: 2, offered: 5, current: 40, previous: 40, lastYear: null },
      ]);
    });

    it('offers the company’s terms, the latest first and by default', async () => {
      const { meta, filters, data } = (await get(comparison, adminC)).json();
      expect(meta.filters[0].options).toEqual([
        { value: String(termIds.t1of2030), label: 'Term 1 2030' },
        { value: String(termIds.t4of2029), label: 'Term 4 2029' },
        { value: String(termIds.t1of2029), label: 'Term 1 2029' },
      ]);
      expect(filters).toEqual({ term: String(termIds.t1of2030) });
      expect(data.enrolments[0]).toEqual({ classType: 'Kinder Gym', current: 3, previous: 2, lastYear: 3 });
    });

    it('opens on the term running today, not next term that has barely begun; else on the latest started', async () => {
      const { db } = t.database;
      const company = await createCompany(db, { timeZone: 'Australia/Sydney' });
      const admin = (await sessionFor(db, await createUser(db, company.id, { role: 'companyadmin' })))
        .headers;
      const parent = await createUser(db, company.id, { role: 'student' });
      const D = builder(db, company.id, parent.id);
      const today = todayIn('Australia/Sydney');
      const last = await D.term('Last term', addDays(today, -120), addDays(today, -60));
      const running = await D.term('This term', addDays(today, -30), addDays(today, 30));
      await D.term('Next term', addDays(today, 60), addDays(today, 120));
      expect((await get(comparison, admin)).json().filters).toEqual({ term: String(running) });
      // Between terms: the one that ended last.
      await db.delete(terms).where(eq(terms.id, running));
      expect((await get(comparison, admin)).json().filters).toEqual({ term: String(last) });
    });

    it('follows the term: Term 4 2029 against Term 1 2029, and no term a year before it', async () => {
      const { data } = (await get(`${comparison}?term=${termIds.t4of2029}`, adminC)).json();
      expect(data.terms.map((r: { term: string }) => r.term)).toEqual(['Term 4 2029', 'Term 1 2029', 'None']);
      expect(data.enrolments).toEqual([
        { classType: 'Kinder Gym', current: 2, previous: 3, lastYear: null },
        { classType: 'Ninja Kids', current: 2, previous: 0, lastYear: null },
      ]);
      expect(data.students).toEqual([
        {
          compared: 'Previous term',
          term: 'Term 1 2029',
          before: 3,
          now: 4,
          returned: 2,
          retention: 66.7,
          added: 2,
          lost: 1,
        },
      ]);
    });

    it('answers 404 for another company’s term and shows it none of these terms', async () => {
      expect((await get(`${comparison}?term=${termIds.t1of2030}`, adminA)).statusCode).toBe(404);
      const { meta } = (await get(comparison, adminA)).json();
      expect(meta.filters[0].options.map((o: { label: string }) => o.label)).toEqual([
        'Term 2 2030',
        'Term 1 2030',
      ]);
    });

    it('downloads the CSV', async () => {
      const csv = await get(`${comparison}?term=${termIds.t1of2030}&format=csv`, adminC);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-disposition']).toContain(`enrollment-comparison-${termIds.t1of2030}.csv`);
      expect(csv.body).toContain('Kinder Gym,6,8,75,50,75');
    });
  });
});
