import { makeupMessages } from '@tumble/contracts/makeups';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { children } from '../students/students.tables.ts';
import {
  attendance,
  classEnrolments,
  classSessions,
  classTypes,
  termClasses,
  terms,
} from './classes.tables.ts';
import { creditsOf, PARENT_ABSENCE_NOTE } from './makeups.service.ts';
import { makeupCredits } from './makeups.tables.ts';
import { cancelSession } from './sessions.service.ts';

type Headers = Record<string, string>;
const ZONE = 'Australia/Sydney';

/** The company's wall clock `minutes` from now: the date and HH:MM a session starting then has. */
function wallClockIn(minutes: number) {
  const at = new Date(Date.now() + minutes * 60_000);
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: ZONE,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { date: todayIn(ZONE, at), time: `${get('hour')}:${get('minute')}` };
}

describe('absences and makeups', () => {
  let t: TestContext;
  let companyId: number;
  let tenant: Tenant;
  let staff: Headers;
  let foreignParent: Headers;
  const parents: { id: number; headers: Headers }[] = [];
  let typeId: number;
  let termId: number;
  /** Tuesday class (capacity 10) and Thursday class (capacity 2), same type and level. */
  let tuesday: number;
  let thursday: number;
  let seq = 0;

  const post = (url: string, headers: Headers, payload: object = {}) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
  const absent = (sessionId: number, childId: number, headers = parents[0]!.headers) =>
    post(`/api/v1/students/classes/sessions/${sessionId}/absence`, headers, { child_id: childId });
  const book = (sessionId: number, childId: number, headers = parents[0]!.headers) =>
    post('/api/v1/students/classes/makeups', headers, { child_id: childId, session_id: sessionId });
  const liveCredits = (childId: number) =>
    t.database.db
      .select()
      .from(makeupCredits)
      .where(and(eq(makeupCredits.childId, childId)))
      .then((rows) => rows.filter((r) => r.revokedAt === null));

  /** A session of a class on a date (a distinct slot date each time). */
  async function session(termClassId: number, date: string, startTime = '16:00') {
    const [row] = await t.database.db
      .insert(classSessions)
      .values({ companyId, termClassId, slotDate: date, date, startTime, durationMinutes: 60 })
      .returning();
    return row!.id;
  }

  async function klass(name: string, weekday: number, capacity: number) {
    const [row] = await t.database.db
      .insert(termClasses)
      .values({
        companyId,
        termId,
        classTypeId: typeId,
        name,
        weekday,
        startTime: '16:00',
        durationMinutes: 60,
        capacity,
      })
      .returning();
    return row!.id;
  }

  /** A child of parent `p` enrolled in the Tuesday class. */
  async function enrolledChild(p = 0, termClassId = tuesday) {
    const [child] = await t.database.db
      .insert(children)
      .values({
        companyId,
        parentId: parents[p]!.id,
        firstName: `Kid${++seq}`,
        lastName: 'Makeup',
        dob: '2020-03-04',
      })
      .returning();
    await t.database.db
      .insert(classEnrolments)
      .values({ companyId, termClassId, childId: child!.id, kind: 'enrolled' });
    return child!.id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db, { timeZone: ZONE });
    companyId = company.id;
    tenant = new Tenant(companyId);
    const foreign = await createCompany(db);
    staff = (await sessionFor(db, await createUser(db, companyId, { role: 'companystaff' }))).headers;
    foreignParent = (await sessionFor(db, await createUser(db, foreign.id, { role: 'student' }))).headers;
    for (let i = 0; i < 3; i++) {
      const user = await createUser(db, companyId, { role: 'student' });
      parents.push({ id: user.id, headers: (await sessionFor(db, user)).headers });
    }
    const [type] = await db
      .insert(classTypes)
      .values({
        companyId,
        name: 'Level 1 Gym',
        level: 'Level 1',
        makeupAllowed: true,
        makeupExpiry: 'days',
        makeupExpiryDays: 30,
        makeupCapPerTerm: 2,
      })
      .returning();
    typeId = type!.id;
    const today = todayIn(ZONE);
    const [term] = await db
      .insert(terms)
      .values({ companyId, name: 'Term 1', startDate: today, endDate: '2031-12-31', status: 'open' })
      .returning();
    termId = term!.id;
    tuesday = await klass('Level 1 Tuesday', 2, 10);
    thursday = await klass('Level 1 Thursday', 4, 2);
  });
  afterAll(() => t.close());

  it('an absence before the cutoff is marked and issues a credit; after the cutoff it is refused and changes nothing', async () => {
    const child = await enrolledChild();
    const early = await session(tuesday, '2030-01-08');
    const response = await absent(early, child);
    expect(response.json()).toMatchObject({ valid: true, info: { message: makeupMessages.absenceCredited } });
    const [mark] = await t.database.db.select().from(attendance).where(eq(attendance.sessionId, early));
    expect(mark).toMatchObject({ childId: child, status: 'absent', note: PARENT_ABSENCE_NOTE });
    const credits = await liveCredits(child);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({ reason: 'absence', expiresOn: '2030-02-07', level: 'Level 1' });
    // The same tap again issues nothing more.
    expect((await absent(early, child)).json().valid).toBe(true);
    expect(await liveCredits(child)).toHaveLength(1);

    // Starts in an hour: the default cutoff (2 hours) has passed.
    const soon = wallClockIn(60);
    const late = await session(tuesday, soon.date, soon.time);
    const refused = (await absent(late, child)).json();
    expect(refused.valid).toBe(false);
    expect(refused.error.html_message).toBe(makeupMessages.tooLate(2));
    expect(await t.database.db.select().from(attendance).where(eq(attendance.sessionId, late))).toEqual([]);
    expect(await liveCredits(child)).toHaveLength(1);

    // Undo before the cutoff: the mark goes and the unused credit with it.
    const undone = await post(
      `/api/v1/students/classes/sessions/${early}/absence/undo`,
      parents[0]!.headers,
      {
        child_id: child,
      },
    );
    expect(undone.json()).toMatchObject({ valid: true });
    expect(await liveCredits(child)).toHaveLength(0);
    expect(await t.database.db.select().from(attendance).where(eq(attendance.sessionId, early))).toEqual([]);
  });

  it('caps the credits per child, term and class type', async () => {
    const child = await enrolledChild();
    const dates = ['2030-02-05', '2030-02-12', '2030-02-19'];
    const ids = [];
    for (const date of dates) ids.push(await session(tuesday, date));
    expect((await absent(ids[0]!, child)).json().info.message).toBe(makeupMessages.absenceCredited);
    expect((await absent(ids[1]!, child)).json().info.message).toBe(makeupMessages.absenceCredited);
    const third = (await absent(ids[2]!, child)).json();
    expect(third).toMatchObject({ valid: true, info: { message: makeupMessages.capReached(2) } });
    expect(await liveCredits(child)).toHaveLength(2);
    const [mark] = await t.database.db.select().from(attendance).where(eq(attendance.sessionId, ids[2]!));
    expect(mark?.status).toBe('absent');
  });

  it('uses the earliest-expiring credit first, and an expired credit no longer books (shown as expired)', async () => {
    const { db } = t.database;
    const child = await enrolledChild();
    const missed = [await session(tuesday, '2030-03-05'), await session(tuesday, '2030-03-12')];
    const past = await session(tuesday, addDays(todayIn(ZONE), -40));
    const today = todayIn(ZONE);
    const credit = (sessionId: number, expiresOn: string) =>
      db
        .insert(makeupCredits)
        .values({
          companyId,
          childId: child,
          reason: 'absence',
          sessionId,
          termId,
          classTypeId: typeId,
          level: 'Level 1',
          expiresOn,
        })
        .returning()
        .then((r) => r[0]!);
    const expired = await credit(past, addDays(today, -1));
    const later = await credit(missed[0]!, '2031-06-30');
    const sooner = await credit(missed[1]!, '2031-05-31');

    const wallet = await creditsOf(db, tenant, child);
    expect(wallet.map((c) => [c.id, c.expired])).toEqual([
      [expired.id, true],
      [sooner.id, false],
      [later.id, false],
    ]);

    const target = await session(thursday, '2031-05-01');
    const options = (
      await get(`/api/v1/students/classes/makeup-options?child_id=${child}`, parents[0]!.headers)
    ).json();
    expect(options.sessions.map((s: { session_id: number }) => s.session_id)).toContain(target);
    expect((await book(target, child)).json()).toMatchObject({ valid: true });
    const rows = await db.select().from(makeupCredits).where(eq(makeupCredits.childId, child));
    expect(rows.find((r) => r.id === sooner.id)!.usedAt).not.toBeNull();
    expect(rows.find((r) => r.id === later.id)!.usedAt).toBeNull();
    expect(rows.find((r) => r.id === expired.id)!.usedAt).toBeNull();
    const [place] = await db
      .select()
      .from(classEnrolments)
      .where(and(eq(classEnrolments.childId, child), eq(classEnrolments.kind, 'makeup')));
    expect(place).toMatchObject({ termClassId: thursday, sessionId: target, status: 'active' });

    // A session after the remaining credit's expiry cannot be booked with it.
    const tooLate = await session(thursday, '2031-07-03');
    expect((await book(tooLate, child)).json().error.html_message).toBe(makeupMessages.noCredit);
    // Only the expired credit left: nothing books.
    await db.update(makeupCredits).set({ usedAt: new Date() }).where(eq(makeupCredits.id, later.id));
    const other = await session(thursday, '2031-05-08');
    expect((await book(other, child)).json().error.html_message).toBe(makeupMessages.noCredit);

    // Cancelling the makeup before the cutoff gives its credit back.
    const cancelled = await post(`/api/v1/students/classes/makeups/${place!.id}/cancel`, parents[0]!.headers);
    expect(cancelled.json()).toMatchObject({ valid: true });
    const back = await db.select().from(makeupCredits).where(eq(makeupCredits.id, sooner.id));
    expect(back[0]!.usedAt).toBeNull();
    const [gone] = await db.select().from(classEnrolments).where(eq(classEnrolments.id, place!.id));
    expect(gone!.status).toBe('cancelled');
  });

  it('refuses a full session, and parents racing for the last place get exactly one place between them', async () => {
    const { db } = t.database;
    const saturday = await klass('Level 1 Saturday', 6, 2);
    const target = await session(saturday, '2031-06-07');
    await enrolledChild(0, saturday); // one of the 2 places
    const missed = await session(tuesday, '2030-04-01');
    // Eight children of two families, each with a credit, all asking for the last place at once.
    const racers: { child: number; headers: Headers }[] = [];
    for (let i = 0; i < 8; i++) {
      const p = 1 + (i % 2);
      const child = await enrolledChild(p);
      await db.insert(makeupCredits).values({
        companyId,
        childId: child,
        reason: 'absence',
        sessionId: missed,
        termId,
        classTypeId: typeId,
        level: 'Level 1',
        expiresOn: '2031-12-31',
      });
      racers.push({ child, headers: parents[p]!.headers });
    }
    const answers = await Promise.all(racers.map((r) => book(target, r.child, r.headers)));
    const bodies = answers.map((a) => a.json());
    expect(bodies.filter((b) => b.valid)).toHaveLength(1);
    for (const body of bodies.filter((b) => !b.valid))
      expect(body.error.html_message).toBe(makeupMessages.full);
    const places = await db
      .select()
      .from(classEnrolments)
      .where(and(eq(classEnrolments.sessionId, target), eq(classEnrolments.status, 'active')));
    expect(places).toHaveLength(1);
    // The others keep their credits.
    const used = await db.select().from(makeupCredits).where(eq(makeupCredits.sessionId, missed));
    expect(used.filter((c) => c.usedAt !== null)).toHaveLength(1);
  });

  it('a session the gym cancels credits every enrolled child, beyond the cap', async () => {
    const { db } = t.database;
    const a = await enrolledChild();
    const b = await enrolledChild();
    // Child a has used up the cap already.
    for (const date of ['2030-05-07', '2030-05-14'])
      expect((await absent(await session(tuesday, date), a)).json().info.message).toBe(
        makeupMessages.absenceCredited,
      );
    const trial = await enrolledChild();
    const cancelled = await session(tuesday, '2030-05-21');
    await db
      .update(classEnrolments)
      .set({ kind: 'trial', sessionId: cancelled, termClassId: tuesday })
      .where(eq(classEnrolments.childId, trial));
    await db.transaction((tx) => cancelSession(tx, tenant, t.config, cancelled, 'Flooded hall'));
    const credited = await db.select().from(makeupCredits).where(eq(makeupCredits.sessionId, cancelled));
    const ids = credited.map((c) => c.childId);
    expect(ids).toContain(a);
    expect(ids).toContain(b);
    expect(ids).not.toContain(trial);
    expect(credited.every((c) => c.reason === 'cancelled')).toBe(true);
    expect(await liveCredits(a)).toHaveLength(3);
  });

  it('the roll marking an absent child present takes back an unused credit and keeps a used one', async () => {
    const { db } = t.database;
    const child = await enrolledChild();
    const first = await session(tuesday, '2030-06-04');
    const second = await session(tuesday, '2030-06-11');
    await absent(first, child);
    await absent(second, child);
    // The second absence's credit is used for a makeup.
    const target = await session(thursday, '2030-06-13');
    await db
      .update(makeupCredits)
      .set({ expiresOn: '2030-12-31' })
      .where(and(eq(makeupCredits.childId, child), eq(makeupCredits.sessionId, first)));
    expect((await book(target, child)).json().valid).toBe(true);
    const before = await liveCredits(child);
    expect(before.find((c) => c.sessionId === first)!.usedAt).toBeNull();
    expect(before.find((c) => c.sessionId === second)!.usedAt).not.toBeNull();

    for (const sessionId of [first, second]) {
      const marked = await post(`/api/v1/admin/roll/${sessionId}/marks`, staff, {
        child_id: child,
        status: 'present',
      });
      expect(marked.json()).toMatchObject({ valid: true });
    }
    const after = await liveCredits(child);
    expect(after.map((c) => c.sessionId)).toEqual([second]);
  });

  it('keeps an absence whose credit was used, and refuses to cancel a makeup after the cutoff', async () => {
    const { db } = t.database;
    const child = await enrolledChild();
    const missed = await session(tuesday, '2030-09-03');
    await absent(missed, child);
    const target = await session(thursday, '2030-09-05');
    expect((await book(target, child)).json().valid).toBe(true);
    const undo = await post(`/api/v1/students/classes/sessions/${missed}/absence/undo`, parents[0]!.headers, {
      child_id: child,
    });
    expect(undo.json().error.html_message).toBe(makeupMessages.creditUsed);
    const [mark] = await db.select().from(attendance).where(eq(attendance.sessionId, missed));
    expect(mark?.status).toBe('absent');

    // A makeup an hour away: past the cutoff, it stays booked and the credit stays used.
    const soon = wallClockIn(60);
    const close = await session(thursday, soon.date, soon.time);
    const [place] = await db
      .insert(classEnrolments)
      .values({ companyId, termClassId: thursday, childId: child, kind: 'makeup', sessionId: close })
      .returning();
    const refused = await post(`/api/v1/students/classes/makeups/${place!.id}/cancel`, parents[0]!.headers);
    expect(refused.json().error.html_message).toBe(makeupMessages.tooLate(2));
    const [still] = await db.select().from(classEnrolments).where(eq(classEnrolments.id, place!.id));
    expect(still!.status).toBe('active');
  });

  it("another company's sessions, makeups and children answer 404 and change nothing", async () => {
    const { db } = t.database;
    const child = await enrolledChild();
    const own = await session(tuesday, '2030-07-07');
    await absent(own, child);
    const target = await session(thursday, '2030-07-09');
    expect((await book(target, child)).json().valid).toBe(true);
    const [place] = await db
      .select()
      .from(classEnrolments)
      .where(and(eq(classEnrolments.childId, child), eq(classEnrolments.kind, 'makeup')));
    const before = await liveCredits(child);
    const calls = [
      absent(own, child, foreignParent),
      post(`/api/v1/students/classes/sessions/${own}/absence/undo`, foreignParent, { child_id: child }),
      post(`/api/v1/students/classes/sessions/${own}/absence`, foreignParent, {}),
      book(target, child, foreignParent),
      post(`/api/v1/students/classes/makeups/${place!.id}/cancel`, foreignParent),
      get(`/api/v1/students/classes/makeup-options?child_id=${child}`, foreignParent),
      // Another family of the same company: the child is not theirs.
      absent(own, child, parents[1]!.headers),
      post(`/api/v1/students/classes/makeups/${place!.id}/cancel`, parents[1]!.headers),
    ];
    for (const response of await Promise.all(calls)) expect(response.statusCode).toBe(404);
    expect(await liveCredits(child)).toEqual(before);
    const [still] = await db.select().from(classEnrolments).where(eq(classEnrolments.id, place!.id));
    expect(still!.status).toBe('active');
    const foreignPage = (await get('/api/v1/students/classes', foreignParent)).json();
    expect(foreignPage.children).toEqual([]);
  });

  it("lists the parent's classes, upcoming sessions with their state, and the wallet", async () => {
    const friday = await klass('Level 1 Friday', 5, 8);
    const child = await enrolledChild(2, friday);
    const coming = await session(friday, '2030-08-06');
    const away = await session(friday, '2030-08-13');
    await absent(away, child, parents[2]!.headers);
    const page = (await get('/api/v1/students/classes', parents[2]!.headers)).json();
    const mine = page.children.find((c: { id: number }) => c.id === child);
    expect(mine.classes).toEqual([
      expect.objectContaining({
        class_name: 'Level 1 Friday',
        weekday: 5,
        start_time: '16:00',
        term: 'Term 1',
      }),
    ]);
    const states = new Map(
      mine.sessions.map((s: { session_id: number; state: string }) => [s.session_id, s.state]),
    );
    expect(states.get(coming)).toBe('coming');
    expect(states.get(away)).toBe('absent');
    expect(mine.credits).toEqual([expect.objectContaining({ expires_on: '2030-09-12', expired: false })]);
  });
});
