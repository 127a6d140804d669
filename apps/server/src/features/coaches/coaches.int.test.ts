import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, displayDate, todayIn } from '../../platform/time.ts';
import { createClassWithSessions, createCoach, createLeave } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { classSessions } from '../classes/classes.tables.ts';
import { coaches, coachLeaves } from './coaches.tables.ts';

type Headers = Record<string, string>;

describe('coaches: profiles, leave and cover', () => {
  let t: TestContext;
  let companyA: number;
  let staff: Headers;
  let coachRole: Headers;
  let foreignAdmin: Headers;
  // Demo companies are in Australia/Sydney: the server's "today" is theirs.
  const today = todayIn('Australia/Sydney');
  const inDays = (n: number) => addDays(today, n);

  const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
    t.app.inject({ method, url, headers, ...(method === 'POST' ? { payload: payload ?? {} } : {}) });
  const fieldMessage = (
    body: { error?: { element: { name: string; messages: string[] }[] } },
    name: string,
  ) => body.error?.element.find((e) => e.name === name)?.messages[0];

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    companyA = (await createCompany(db)).id;
    const companyB = (await createCompany(db)).id;
    staff = (await sessionFor(db, await createUser(db, companyA, { role: 'companystaff' }))).headers;
    coachRole = (await sessionFor(db, await createUser(db, companyA, { role: 'companycoach' }))).headers;
    foreignAdmin = (await sessionFor(db, await createUser(db, companyB, { role: 'companyadmin' }))).headers;
  });
  afterAll(() => t.close());

  it('lets staff, not a coach, read coach profiles', async () => {
    expect((await call('GET', '/api/v1/admin/coaches', staff)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/admin/coaches', coachRole)).statusCode).toBe(403);
    expect((await call('GET', '/api/v1/admin/coach-checks', coachRole)).statusCode).toBe(403);
  });

  it('refuses bad profiles and leave with field messages, and writes nothing', async () => {
    const { db } = t.database;
    const parent = await createUser(db, companyA, { role: 'student' });
    const coachUser = await createUser(db, companyA, { role: 'companycoach', fullName: 'Robin Vault' });
    const before = await db.select().from(coaches).where(eq(coaches.companyId, companyA));

    const notStaff = await call('POST', '/api/v1/admin/coaches', staff, { user_id: parent.id });
    expect(notStaff.json().valid).toBe(false);
    expect(fieldMessage(notStaff.json(), 'user_id')).toBe('Please choose a valid staff user.');

    const backwards = await call('POST', '/api/v1/admin/coaches', staff, {
      user_id: coachUser.id,
      wwcc_number: 'WWC1',
      wwcc_outcome: 'cleared',
      wwcc_verified_on: '2026-03-01',
      wwcc_expires_on: '2026-02-01',
    });
    expect(fieldMessage(backwards.json(), 'wwcc_expires_on')).toBe(
      'Check expires on must be after the date it was verified.',
    );
    const impossible = await call('POST', '/api/v1/admin/coaches', staff, {
      user_id: coachUser.id,
      wwcc_expires_on: '2026-02-30',
    });
    expect(fieldMessage(impossible.json(), 'wwcc_expires_on')).toBe(
      'Check expires on must be a valid date (YYYY-MM-DD).',
    );
    const unverified = await call('POST', '/api/v1/admin/coaches', staff, {
      user_id: coachUser.id,
      wwcc_outcome: 'cleared',
    });
    expect(fieldMessage(unverified.json(), 'wwcc_outcome')).toBe(
      'A cleared check needs the date it was verified.',
    );
    expect(await db.select().from(coaches).where(eq(coaches.companyId, companyA))).toEqual(before);

    const saved = await call('POST', '/api/v1/admin/coaches', staff, {
      user_id: coachUser.id,
      phone: '0400 000 000',
      wwcc_number: 'WWC0999999E',
      wwcc_outcome: 'cleared',
      wwcc_verified_on: '2026-01-05',
      wwcc_expires_on: '2030-01-05',
    });
    expect(saved.json()).toMatchObject({ valid: true });
    const [profile] = await db.select().from(coaches).where(eq(coaches.userId, coachUser.id));
    expect(profile!.name).toBe('Robin Vault');
    const twice = await call('POST', '/api/v1/admin/coaches', staff, { user_id: coachUser.id });
    expect(fieldMessage(twice.json(), 'user_id')).toBe('This staff user already has a coach profile.');

    const leave = await call('POST', `/api/v1/admin/coaches/${profile!.id}/leaves`, staff, {
      reason: 'Annual leave',
      start_date: '2026-05-10',
      end_date: '2026-05-01',
    });
    expect(fieldMessage(leave.json(), 'end_date')).toBe('Last day must be on or after the first day.');
    const slot = await call('POST', `/api/v1/admin/coaches/${profile!.id}/private-sessions`, staff, {
      weekday: '3',
      start_time: '15:00',
      duration_minutes: 30,
      max_children: 4,
      price: 4500,
    });
    expect(fieldMessage(slot.json(), 'max_children')).toBe('Children per lesson must be at most 3.');
    expect(await db.select().from(coachLeaves).where(eq(coachLeaves.coachId, profile!.id))).toEqual([]);
  });

  it('shows a session inside a coach’s leave as needing cover until a substitute is assigned', async () => {
    const { db } = t.database;
    const { coach: away } = await createCoach(db, companyA, { fullName: 'Alex Away' });
    const { coach: expired } = await createCoach(db, companyA, {
      fullName: 'Eli Expired',
      wwccExpiresOn: inDays(-1),
    });
    const { coach: busy } = await createCoach(db, companyA, { fullName: 'Bo Busy' });
    const { coach: alsoAway } = await createCoach(db, companyA, { fullName: 'Ari Leave' });
    const { coach: free } = await createCoach(db, companyA, { fullName: 'Sam Substitute' });
    const day = inDays(7);
    const { sessions } = await createClassWithSessions(db, companyA, {
      coachId: away.id,
      dates: [day, inDays(21)],
    });
    await createClassWithSessions(db, companyA, {
      coachId: busy.id,
      dates: [day],
      startTime: '16:30',
      name: 'Ninja Kids',
    });
    await createLeave(db, companyA, away.id, inDays(5), inDays(9));
    await createLeave(db, companyA, alsoAway.id, day, day);
    const session = sessions[0]!;

    const cover = await call('GET', '/api/v1/admin/cover', staff);
    expect(cover.statusCode).toBe(200);
    expect(cover.json().data).toEqual([
      expect.objectContaining({
        session_id: session.id,
        class_name: 'Kinder Gym Tuesday',
        date: day,
        start_time: '16:00',
        coach_name: 'Alex Away',
        leave_start: inDays(5),
        leave_end: inDays(9),
      }),
    ]);
    // A coach reads cover too (classes.read); another company sees none of it.
    expect((await call('GET', '/api/v1/admin/cover', coachRole)).json().data).toHaveLength(1);
    expect((await call('GET', '/api/v1/admin/cover', foreignAdmin)).json().data).toEqual([]);

    const assign = (coachId: number, headers = staff) =>
      call('POST', `/api/v1/admin/cover/${session.id}`, headers, { coach_id: coachId });
    const refusedExpired = (await assign(expired.id)).json();
    expect(refusedExpired.valid).toBe(false);
    expect(fieldMessage(refusedExpired, 'coach_id')).toBe(
      "Eli Expired's Working With Children Check has expired.",
    );
    expect(fieldMessage((await assign(alsoAway.id)).json(), 'coach_id')).toBe(
      'Ari Leave is on leave that day.',
    );
    expect(fieldMessage((await assign(busy.id)).json(), 'coach_id')).toBe(
      `Bo Busy already coaches Ninja Kids on ${displayDate(day)} 16:30–17:30.`,
    );
    expect(
      fieldMessage((await call('POST', `/api/v1/admin/cover/${session.id}`, staff, {})).json(), 'coach_id'),
    ).toBe('Please choose a substitute coach.');
    // A coach may read cover but not assign it.
    expect((await assign(free.id, coachRole)).statusCode).toBe(403);
    // Another company's admin: the session is not theirs.
    expect((await assign(free.id, foreignAdmin)).statusCode).toBe(404);
    const [unchanged] = await db.select().from(classSessions).where(eq(classSessions.id, session.id));
    expect(unchanged).toMatchObject({ coachId: away.id, editedAt: null });

    expect((await assign(free.id)).json()).toMatchObject({ valid: true });
    const [covered] = await db.select().from(classSessions).where(eq(classSessions.id, session.id));
    expect(covered!.coachId).toBe(free.id);
    expect(covered!.editedAt).not.toBeNull();
    expect((await call('GET', '/api/v1/admin/cover', staff)).json().data).toEqual([]);
  });

  it('lists checks expired or expiring within 30 days for the dashboard', async () => {
    const { db } = t.database;
    const company = (await createCompany(db)).id;
    const admin = (await sessionFor(db, await createUser(db, company, { role: 'companyadmin' }))).headers;
    await createCoach(db, company, { fullName: 'Old Check', wwccExpiresOn: inDays(-3) });
    await createCoach(db, company, { fullName: 'Later Check', wwccExpiresOn: inDays(31) });
    await createCoach(db, company, { fullName: 'Soon Check', wwccExpiresOn: inDays(30) });
    const mid = await createCoach(db, company, { fullName: 'Mid Check', wwccExpiresOn: inDays(10) });
    // A coach's page says whether the check lets them be rostered today and in 30 days.
    const sections = await call('GET', `/api/v1/admin/coaches/${mid.coach.id}/sections`, admin);
    expect(sections.json()[0].rows).toEqual([
      { day: 'Today', status: 'May be rostered' },
      { day: 'In 30 days', status: "Mid Check's Working With Children Check has expired." },
    ]);
    const response = await call('GET', '/api/v1/admin/coach-checks', admin);
    expect(response.json().data).toEqual([
      expect.objectContaining({ name: 'Old Check', expires_on: inDays(-3), expired: true }),
      expect.objectContaining({ name: 'Mid Check', expires_on: inDays(10), expired: false }),
      expect.objectContaining({ name: 'Soon Check', expires_on: inDays(30), expired: false }),
    ]);
  });
});
