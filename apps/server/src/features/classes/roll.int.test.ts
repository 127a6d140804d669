import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClassWithSessions, createCoach } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { children } from '../students/students.tables.ts';
import { attendance, classEnrolments, classSessions } from './classes.tables.ts';
import { NOT_EXPECTED, SESSION_CANCELLED } from './roll.service.ts';

type Headers = Record<string, string>;

describe('the daily roll', () => {
  let t: TestContext;
  let companyId: number;
  let staff: Headers;
  let coachA: Headers;
  let coachB: Headers;
  let foreignAdmin: Headers;
  /** Coach A's Tuesday class on 2030-01-08 and 2030-01-15; coach B's class on 2030-01-08. */
  let first: number;
  let second: number;
  let other: number;
  const kids = {} as Record<'ava' | 'ben' | 'cleo' | 'dan' | 'eli' | 'fay' | 'gus', number>;

  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
  const mark = (sessionId: number, headers: Headers, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1/admin/roll/${sessionId}/marks`, headers, payload });
  const marksOf = (sessionId: number) =>
    t.database.db.select().from(attendance).where(eq(attendance.sessionId, sessionId));

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db);
    companyId = company.id;
    const foreign = await createCompany(db);
    staff = (await sessionFor(db, await createUser(db, company.id, { role: 'companystaff' }))).headers;
    foreignAdmin = (await sessionFor(db, await createUser(db, foreign.id, { role: 'companyadmin' }))).headers;
    const a = await createCoach(db, company.id, { fullName: 'Alex Coach' });
    const b = await createCoach(db, company.id, { fullName: 'Bo Coach' });
    coachA = (await sessionFor(db, a.user)).headers;
    coachB = (await sessionFor(db, b.user)).headers;

    const mine = await createClassWithSessions(db, company.id, {
      coachId: a.coach.id,
      dates: ['2030-01-08', '2030-01-15'],
      name: 'Kinder Gym Tuesday',
    });
    const theirs = await createClassWithSessions(db, company.id, {
      coachId: b.coach.id,
      dates: ['2030-01-08'],
      startTime: '17:00',
      name: 'Ninja Kids Tuesday',
    });
    [first, second] = mine.sessions.map((s) => s.id) as [number, number];
    other = theirs.sessions[0]!.id;

    const parent = await createUser(db, company.id, { role: 'student' });
    const child = async (firstName: string, extra: Partial<typeof children.$inferInsert> = {}) => {
      const [row] = await db
        .insert(children)
        .values({ companyId, parentId: parent.id, firstName, lastName: 'Roll', dob: '2025-06-20', ...extra })
        .returning();
      return row!.id;
    };
    kids.ava = await child('Ava', { dob: '2025-08-09', consent: true, medicalNotes: 'Asthma, has a puffer' });
    kids.ben = await child('Ben');
    kids.cleo = await child('Cleo');
    kids.dan = await child('Dan');
    kids.eli = await child('Eli');
    kids.fay = await child('Fay');
    kids.gus = await child('Gus');
    const enrol = (childId: number, values: Partial<typeof classEnrolments.$inferInsert>) =>
      db.insert(classEnrolments).values({
        companyId,
        termClassId: mine.termClass.id,
        childId,
        kind: 'enrolled',
        ...values,
      });
    await enrol(kids.ava, {});
    await enrol(kids.ben, { startsOn: '2030-01-08' });
    await enrol(kids.cleo, { startsOn: '2030-01-15' }); // starts next week
    await enrol(kids.dan, { status: 'withdrawn' });
    await enrol(kids.eli, { kind: 'trial', sessionId: first });
    await enrol(kids.fay, { kind: 'makeup', sessionId: second }); // the other week
    await enrol(kids.gus, { kind: 'casual', sessionId: first });
    await enrol(kids.gus, { kind: 'enrolled', termClassId: theirs.termClass.id });
  });
  afterAll(() => t.close());

  it('lists the children expected in a session with their kinds, ages, photo consent and medical notes', async () => {
    const response = await get(`/api/v1/admin/roll/${first}`, staff);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.session).toMatchObject({
      class_name: 'Kinder Gym Tuesday',
      date: '2030-01-08',
      start_time: '16:00',
      end_time: '17:00',
      coach: 'Alex Coach',
      status: 'scheduled',
      expected: 4,
      marked: 0,
    });
    expect(body.children.map((c: { first_name: string; kind: string }) => [c.first_name, c.kind])).toEqual([
      ['Ava', 'enrolled'],
      ['Ben', 'enrolled'],
      ['Eli', 'trial'],
      ['Gus', 'casual'],
    ]);
    expect(body.children[0]).toMatchObject({
      age: { years: 4, months: 4 },
      photo_consent: true,
      medical_notes: 'Asthma, has a puffer',
      mark: null,
    });
    expect(body.children[1]).toMatchObject({ photo_consent: false, medical_notes: null });

    const next = (await get(`/api/v1/admin/roll/${second}`, staff)).json();
    expect(next.children.map((c: { first_name: string; kind: string }) => [c.first_name, c.kind])).toEqual([
      ['Ava', 'enrolled'],
      ['Ben', 'enrolled'],
      ['Cleo', 'enrolled'],
      ['Fay', 'makeup'],
    ]);
  });

  it('lists a day: staff see every session, a coach only the sessions they coach', async () => {
    const all = (await get('/api/v1/admin/roll?date=2030-01-08', staff)).json();
    expect(all.sessions.map((s: { id: number }) => s.id)).toEqual([first, other]);
    const mine = (await get('/api/v1/admin/roll?date=2030-01-08', coachA)).json();
    expect(mine.sessions.map((s: { id: number }) => s.id)).toEqual([first]);
    const theirs = (await get('/api/v1/admin/roll?date=2030-01-08', coachB)).json();
    expect(theirs.sessions.map((s: { id: number }) => s.id)).toEqual([other]);
    expect((await get('/api/v1/admin/roll?date=2030-02-30', staff)).statusCode).toBe(400);
  });

  it('saves a tap idempotently, keeps the note, and the last of two concurrent taps wins', async () => {
    const tap = { child_id: kids.ben, status: 'late', note: 'Traffic' };
    expect((await mark(first, coachA, tap)).json()).toEqual({ valid: true });
    expect((await mark(first, coachA, tap)).json()).toEqual({ valid: true });
    expect(await marksOf(first)).toHaveLength(1);
    // Without a note the mark keeps the one it had.
    await mark(first, coachA, { child_id: kids.ben, status: 'present' });
    expect((await marksOf(first))[0]).toMatchObject({ status: 'present', note: 'Traffic' });

    // Two devices tap at once: one row, holding whichever write landed last.
    const [one, two] = await Promise.all([
      mark(first, coachA, { child_id: kids.eli, status: 'absent' }),
      mark(first, staff, { child_id: kids.eli, status: 'excused', note: 'Sick' }),
    ]);
    expect([one.json(), two.json()]).toEqual([{ valid: true }, { valid: true }]);
    const rows = (await marksOf(first)).filter((m) => m.childId === kids.eli);
    expect(rows).toHaveLength(1);
    // Both devices then read the same roll, and the next tap replaces it.
    await mark(first, coachA, { child_id: kids.eli, status: 'present', note: '' });
    const roll = (await get(`/api/v1/admin/roll/${first}`, staff)).json();
    const eli = roll.children.find((c: { id: number }) => c.id === kids.eli);
    expect(eli.mark).toMatchObject({ status: 'present', note: null });
    expect((await get(`/api/v1/admin/roll/${first}`, coachA)).json().children).toEqual(roll.children);
    expect(roll.session.marked).toBe(2);
  });

  it('refuses a child who is not expected, a cancelled session and a bad status, writing nothing', async () => {
    const before = await marksOf(second);
    const stranger = await mark(second, staff, { child_id: kids.eli, status: 'present' });
    expect(stranger.json().error.element).toEqual([{ name: 'child_id', messages: [NOT_EXPECTED] }]);
    const withdrawn = await mark(second, staff, { child_id: kids.dan, status: 'present' });
    expect(withdrawn.json().valid).toBe(false);
    const status = await mark(second, staff, { child_id: kids.ava, status: 'asleep' });
    expect(status.json().error.element[0].name).toBe('status');

    await t.database.db
      .update(classSessions)
      .set({ status: 'cancelled', cancelReason: 'Pool closed' })
      .where(and(eq(classSessions.companyId, companyId), eq(classSessions.id, second)));
    const cancelled = await mark(second, staff, { child_id: kids.ava, status: 'present' });
    expect(cancelled.json()).toMatchObject({ valid: false, error: { html_message: SESSION_CANCELLED } });
    expect(await marksOf(second)).toEqual(before);
  });

  it("answers 404 to a coach asking for another coach's roll, and to another company", async () => {
    for (const [headers, sessionId] of [
      [coachB, first],
      [coachA, other],
      [foreignAdmin, first],
    ] as const) {
      const roll = await get(`/api/v1/admin/roll/${sessionId}`, headers);
      expect(roll.statusCode).toBe(404);
      expect(roll.body).not.toContain('Kinder');
      const tap = await mark(sessionId, headers, { child_id: kids.ava, status: 'absent' });
      expect(tap.statusCode).toBe(404);
    }
    expect((await get('/api/v1/admin/roll?date=2030-01-08', foreignAdmin)).json().sessions).toEqual([]);
    expect((await marksOf(first)).find((m) => m.childId === kids.ava)).toBeUndefined();
  });

  it('prints the daily roll as a report, a CSV and a PDF for staff only', async () => {
    const report = await get('/api/v1/admin/reports/daily-roll?date=2030-01-08', staff);
    expect(report.statusCode).toBe(200);
    const { data } = report.json();
    expect(data.sessions.map((s: { session: string; expected: number }) => [s.session, s.expected])).toEqual([
      ['16:00–17:00 Kinder Gym Tuesday', 4],
      ['17:00–18:00 Ninja Kids Tuesday', 1],
    ]);
    expect(data.children.find((c: { child: string }) => c.child === 'Ben Roll')).toMatchObject({
      mark: 'Present',
      note: 'Traffic',
      photo_consent: 'No',
    });
    const csv = await get('/api/v1/admin/reports/daily-roll?date=2030-01-08&format=csv', staff);
    expect(csv.body).toContain('Ava Roll,4 yrs 4 mths,Enrolled,Yes,"Asthma, has a puffer",,');
    const pdf = await get('/api/v1/admin/reports/daily-roll/pdf?date=2030-01-08', staff);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await get('/api/v1/admin/reports/daily-roll?date=2030-01-08', coachA)).statusCode).toBe(403);
    const foreign = await get('/api/v1/admin/reports/daily-roll?date=2030-01-08', foreignAdmin);
    expect(foreign.json().data.sessions).toEqual([]);
  });
});
