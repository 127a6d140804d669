import { and, asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { createCoach as coachFixture } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import type { coaches } from '../coaches/coaches.tables.ts';
import { children } from '../students/students.tables.ts';
import { restrictedDates, rooms, venues } from '../venues/venues.tables.ts';
import {
  classEnrolments,
  classSessions,
  classTypes,
  termClasses,
  termClosures,
  terms,
} from './classes.tables.ts';

type Headers = Record<string, string>;

/**
 * Term 1 2027 (NSW dates): Sydney leaves daylight time on Sunday 4 April 2027, inside the term.
 * Mondays: 1, 8, 15, 22 Feb; 1, 8, 15, 22, 29 Mar; 5 Apr.
 */
const TERM1 = { startDate: '2027-02-01', endDate: '2027-04-09' };

describe('class sessions: generation, regeneration, cancel and move', () => {
  let t: TestContext;
  let admin: Headers;
  let companyId: number;
  let venueId: number;
  let room1: { id: number; name: string };
  let room2: { id: number; name: string };
  let typeId: number;
  let termId: number;
  let casey: number;
  let jordan: number;

  const inject = (method: 'GET' | 'POST', url: string, headers: Headers = admin, payload?: object) =>
    t.app.inject({ method, url, headers, payload: method === 'POST' ? (payload ?? {}) : undefined });

  /** A coach of the test company (a cleared, current check unless `check` says otherwise), by id. */
  async function createCoach(fullName: string, check: Partial<typeof coaches.$inferInsert> = {}) {
    return (await coachFixture(t.database.db, companyId, { fullName, ...check })).coach.id;
  }

  /** A term class through the admin form (so the resource's checks run); answers the form response. */
  const saveClass = (values: Record<string, unknown>, id?: number) =>
    inject('POST', id ? `/api/v1/admin/term-classes/${id}` : '/api/v1/admin/term-classes', admin, {
      name: 'Monday Kinder Gym',
      term_id: termId,
      class_type_id: typeId,
      weekday: '1',
      start_time: '16:00',
      room_id: room1.id,
      lead_coach_id: casey,
      status: 'active',
      ...values,
    });

  async function createClass(values: Record<string, unknown> = {}) {
    const response = await saveClass(values);
    expect(response.json(), response.body).toMatchObject({ valid: true });
    const [row] = await t.database.db
      .select({ id: termClasses.id })
      .from(termClasses)
      .where(eq(termClasses.companyId, companyId))
      .orderBy(desc(termClasses.id))
      .limit(1);
    return row!.id;
  }

  const sessionsOf = (termClassId: number) =>
    t.database.db
      .select()
      .from(classSessions)
      .where(eq(classSessions.termClassId, termClassId))
      .orderBy(asc(classSessions.slotDate));

  const dispatch = (termClassId: number, action: string, sessionId: number, values: object) =>
    inject('POST', `/api/v1/admin/term-classes/${termClassId}/class-sessions/dispatch/${action}`, admin, {
      ids: [sessionId],
      values,
    });

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db, { timeZone: 'Australia/Sydney' });
    companyId = company.id;
    admin = (await sessionFor(db, await createUser(db, companyId, { role: 'companyadmin' }))).headers;
    const [venue] = await db.insert(venues).values({ companyId, name: 'Main gym' }).returning();
    venueId = venue!.id;
    const made = await db
      .insert(rooms)
      .values([
        { companyId, venueId, name: 'Room 1' },
        { companyId, venueId, name: 'Room 2' },
      ])
      .returning();
    room1 = made[0]!;
    room2 = made[1]!;
    const [type] = await db
      .insert(classTypes)
      .values({
        companyId,
        name: 'Kinder Gym',
        defaultDurationMinutes: 45,
        capacityDefault: 12,
        level: 'Beginner',
      })
      .returning();
    typeId = type!.id;
    const [term] = await db
      .insert(terms)
      .values({ companyId, name: 'Term 1 2027', ...TERM1, status: 'open', region: 'NSW' })
      .returning();
    termId = term!.id;
    await db.insert(termClosures).values([
      { companyId, termId, startDate: '2027-03-26', endDate: '2027-03-29', reason: 'Easter', kind: 'closed' },
      {
        companyId,
        termId,
        startDate: '2027-03-08',
        endDate: '2027-03-08',
        reason: 'Billing break',
        kind: 'billing_only',
      },
    ]);
    await db.insert(restrictedDates).values([
      { companyId, date: '2027-02-15', reason: 'Floor resurfacing', appliesTo: 'all' },
      { companyId, date: '2027-02-22', reason: 'Party day only', appliesTo: 'parties' },
    ]);
    casey = await createCoach('Casey Coach');
    jordan = await createCoach('Jordan Coach');
  });
  afterAll(() => t.close());

  it('generates a Monday 4pm class across the April daylight-saving change, skipping closures and restricted dates', async () => {
    const classId = await createClass();
    const [saved] = await t.database.db.select().from(termClasses).where(eq(termClasses.id, classId));
    // Left empty, the duration, capacity and level come from the class type.
    expect(saved).toMatchObject({ durationMinutes: 45, capacity: 12, level: 'Beginner', weekday: 1 });

    const preview = await inject('GET', `/api/v1/admin/term-classes/${classId}/generate`);
    expect(preview.statusCode, preview.body).toBe(200);
    const diff = preview.json();
    // Not 15 Feb (restricted for all), not 29 Mar (Easter closure); 8 Mar is billing-only and runs;
    // 22 Feb is restricted for parties only.
    expect(diff.add.map((s: { date: string }) => s.date)).toEqual([
      '2027-02-01',
      '2027-02-08',
      '2027-02-22',
      '2027-03-01',
      '2027-03-08',
      '2027-03-15',
      '2027-03-22',
      '2027-04-05',
    ]);
    // 4pm on the wall clock both sides of the change: UTC+11 in March, UTC+10 in April.
    const startsAt = Object.fromEntries(
      diff.add.map((s: { date: string; starts_at: string }) => [s.date, s.starts_at]),
    );
    expect(startsAt['2027-03-22']).toBe('2027-03-22T05:00:00.000Z');
    expect(startsAt['2027-04-05']).toBe('2027-04-05T06:00:00.000Z');
    expect(diff.add[0]).toMatchObject({
      start_time: '16:00',
      duration_minutes: 45,
      room: 'Room 1',
      coach: 'Casey Coach',
    });
    expect(diff).toMatchObject({ update: [], remove: [], unchanged: [], kept: [], problems: [] });
    expect(await sessionsOf(classId)).toHaveLength(0);

    const applied = await inject('POST', `/api/v1/admin/term-classes/${classId}/generate`);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toEqual(diff);
    const rows = await sessionsOf(classId);
    expect(rows.map((r) => [r.date, r.startTime, r.roomId, r.coachId, r.status])).toEqual(
      diff.add.map((s: { date: string }) => [s.date, '16:00:00', room1.id, casey, 'scheduled']),
    );

    // Generating again changes nothing.
    const again = (await inject('GET', `/api/v1/admin/term-classes/${classId}/generate`)).json();
    expect(again.add).toEqual([]);
    expect(again.unchanged).toHaveLength(8);
  });

  it('keeps 4pm across the October change too', async () => {
    const [term4] = await t.database.db
      .insert(terms)
      .values({
        companyId,
        name: 'Spring block 2027',
        startDate: '2027-09-27',
        endDate: '2027-10-08',
        status: 'open',
      })
      .returning();
    const classId = await createClass({ term_id: term4!.id, room_id: room2.id, lead_coach_id: null });
    const diff = (await inject('GET', `/api/v1/admin/term-classes/${classId}/generate`)).json();
    expect(diff.add.map((s: { starts_at: string }) => s.starts_at)).toEqual([
      '2027-09-27T06:00:00.000Z',
      '2027-10-04T05:00:00.000Z',
    ]);
  });

  it('regenerating keeps hand-made changes, and applies exactly the difference it showed', async () => {
    const classId = await createClass({
      name: 'Tuesday Ninja',
      weekday: '2',
      room_id: room2.id,
      lead_coach_id: jordan,
    });
    expect((await inject('POST', `/api/v1/admin/term-classes/${classId}/generate`)).statusCode).toBe(200);
    const before = await sessionsOf(classId);
    expect(before).toHaveLength(10);
    const [first, second, third] = before;
    // By hand: one moved to 5pm, one cancelled.
    const moved = await dispatch(classId, 'move', first!.id, { start_time: '17:00' });
    expect(moved.json(), moved.body).toMatchObject({ success: true });
    const cancelled = await dispatch(classId, 'cancel', second!.id, { reason: 'Coach unwell' });
    expect(cancelled.json(), cancelled.body).toMatchObject({ success: true });

    // The class changes: an hour later, and a new closure takes one Tuesday away.
    expect(
      (
        await saveClass(
          {
            name: 'Tuesday Ninja',
            weekday: '2',
            start_time: '17:30',
            room_id: room2.id,
            lead_coach_id: jordan,
          },
          classId,
        )
      ).json(),
    ).toMatchObject({ valid: true });
    await t.database.db.insert(termClosures).values({
      companyId,
      termId,
      startDate: third!.date,
      endDate: third!.date,
      reason: 'Gym repairs',
      kind: 'closed',
    });

    const preview = (await inject('GET', `/api/v1/admin/term-classes/${classId}/generate`)).json();
    expect(preview.add).toEqual([]);
    expect(preview.remove.map((s: { id: number }) => s.id)).toEqual([third!.id]);
    expect(preview.kept.map((s: { id: number; why: string }) => [s.id, s.why])).toEqual([
      [first!.id, 'edited'],
      [second!.id, 'edited'],
    ]);
    expect(preview.update).toHaveLength(7);
    expect(preview.update.every((s: { start_time: string }) => s.start_time === '17:30')).toBe(true);
    expect(preview.problems).toEqual([]);

    const applied = await inject('POST', `/api/v1/admin/term-classes/${classId}/generate`);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toEqual(preview);

    const after = await sessionsOf(classId);
    expect(after).toHaveLength(9);
    expect(after.find((s) => s.id === third!.id)).toBeUndefined();
    expect(after.find((s) => s.id === first!.id)).toMatchObject({
      startTime: '17:00:00',
      status: 'scheduled',
    });
    expect(after.find((s) => s.id === second!.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'Coach unwell',
    });
    expect(after.filter((s) => s.editedAt === null).every((s) => s.startTime === '17:30:00')).toBe(true);
    // And once more: nothing left to do.
    const again = (await inject('GET', `/api/v1/admin/term-classes/${classId}/generate`)).json();
    expect([again.add, again.update, again.remove]).toEqual([[], [], []]);
  });

  it('refuses a move onto a closure, outside the term, or onto a coach who cannot be rostered', async () => {
    const classId = await createClass({
      name: 'Wednesday Tumble',
      weekday: '3',
      room_id: room2.id,
      lead_coach_id: null,
      start_time: '09:00',
    });
    await inject('POST', `/api/v1/admin/term-classes/${classId}/generate`);
    const [session] = await sessionsOf(classId);
    const expired = await createCoach('Riley Lapsed', { wwccExpiresOn: '2026-12-31' });
    const cases: [object, string][] = [
      [{ date: '2027-03-29' }, 'Term 1 2027 is closed on 29/03/2027 (Easter).'],
      [{ date: '2027-05-05' }, 'Choose a date within Term 1 2027 (01/02/2027 to 09/04/2027).'],
      [{ date: '2027-02-15' }, '15/02/2027 is a restricted date.'],
      [{ coach_id: expired }, "Riley Lapsed's Working With Children Check has expired."],
    ];
    for (const [values, message] of cases) {
      const response = await dispatch(classId, 'move', session!.id, values);
      expect(response.statusCode, JSON.stringify(values)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    const [unchanged] = await t.database.db
      .select()
      .from(classSessions)
      .where(eq(classSessions.id, session!.id));
    expect(unchanged).toMatchObject({ date: session!.date, coachId: null, editedAt: null });
  });

  it('refuses a room or a coach booked twice at the same time, naming the clash', async () => {
    // Monday Kinder Gym holds Room 1 with Casey, 16:00–16:45 on Mondays (first test).
    const classId = await createClass({
      name: 'Monday Parkour',
      room_id: room2.id,
      lead_coach_id: jordan,
      start_time: '08:00',
    });
    await inject('POST', `/api/v1/admin/term-classes/${classId}/generate`);
    const [session] = await sessionsOf(classId);
    const intoRoom = await dispatch(classId, 'move', session!.id, { start_time: '16:30', room_id: room1.id });
    expect(intoRoom.statusCode).toBe(409);
    expect(intoRoom.json().message).toBe(
      'Room 1 is already booked for Monday Kinder Gym on 01/02/2027 16:00–16:45.',
    );
    const withCasey = await dispatch(classId, 'move', session!.id, { start_time: '16:15', coach_id: casey });
    expect(withCasey.statusCode).toBe(409);
    expect(withCasey.json().message).toBe(
      'Casey Coach already coaches Monday Kinder Gym on 01/02/2027 16:00–16:45.',
    );
    // Right after the other class ends is fine.
    const after = await dispatch(classId, 'move', session!.id, {
      start_time: '16:45',
      room_id: room1.id,
      coach_id: casey,
    });
    expect(after.json(), after.body).toMatchObject({ success: true });

    // Generation checks clashes too: a class put on top of Room 1's Mondays is refused as a whole.
    const clashing = await createClass({
      name: 'Monday Clash',
      room_id: room1.id,
      lead_coach_id: null,
      start_time: '16:30',
    });
    const preview = (await inject('GET', `/api/v1/admin/term-classes/${clashing}/generate`)).json();
    expect(preview.problems).toContain(
      'Room 1 is already booked for Monday Kinder Gym on 01/02/2027 16:00–16:45.',
    );
    const refused = await inject('POST', `/api/v1/admin/term-classes/${clashing}/generate`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('Room 1 is already booked for Monday Kinder Gym');
    expect(await sessionsOf(clashing)).toHaveLength(0);
    // Out of the way of the next tests (a cancelled class is not copied to the next term).
    await t.database.db.update(termClasses).set({ status: 'cancelled' }).where(eq(termClasses.id, clashing));
  });

  it('lets exactly one of two moves into the same room at the same moment succeed', async () => {
    const a = await createClass({
      name: 'Friday A',
      weekday: '5',
      room_id: room1.id,
      lead_coach_id: null,
      start_time: '07:00',
    });
    const b = await createClass({
      name: 'Friday B',
      weekday: '5',
      room_id: room2.id,
      lead_coach_id: null,
      start_time: '12:00',
    });
    await inject('POST', `/api/v1/admin/term-classes/${a}/generate`);
    await inject('POST', `/api/v1/admin/term-classes/${b}/generate`);
    const [sa] = await sessionsOf(a);
    const [sb] = await sessionsOf(b);
    for (let round = 0; round < 3; round++) {
      const time = `1${round}:00`;
      const results = await Promise.all([
        dispatch(a, 'move', sa!.id, { start_time: time, room_id: room2.id }),
        dispatch(b, 'move', sb!.id, { start_time: time, room_id: room2.id }),
      ]);
      expect(results.map((r) => r.statusCode).sort(), results.map((r) => r.body).join(' | ')).toEqual([
        200, 409,
      ]);
      const loser = results.find((r) => r.statusCode === 409)!;
      expect(loser.json().message).toMatch(/^Room 2 is already booked for Friday [AB] on 05\/02\/2027/);
      // Move both back out of the way for the next round.
      await dispatch(a, 'move', sa!.id, { start_time: '07:00', room_id: room1.id });
      await dispatch(b, 'move', sb!.id, { start_time: '20:00', room_id: room2.id });
    }
    const both = await t.database.db
      .select()
      .from(classSessions)
      .where(and(eq(classSessions.companyId, companyId), eq(classSessions.date, '2027-02-05')));
    expect(both.filter((s) => s.roomId === room2.id && s.startTime === '12:00:00')).toHaveLength(0);
  });

  it('cancelling a session needs a reason and mails each enrolled family once', async () => {
    const classId = await createClass({
      name: 'Thursday Gym',
      weekday: '4',
      room_id: room2.id,
      lead_coach_id: null,
      start_time: '10:00',
    });
    await inject('POST', `/api/v1/admin/term-classes/${classId}/generate`);
    const [session] = await sessionsOf(classId);
    const { db } = t.database;
    const parent = await createUser(db, companyId, {
      role: 'student',
      fullName: 'Pat Parent',
      email: 'pat@example.test',
    });
    const other = await createUser(db, companyId, {
      role: 'student',
      fullName: 'Alex Later',
      email: 'alex@example.test',
    });
    const kids = await db
      .insert(children)
      .values([
        { companyId, parentId: parent.id, firstName: 'Mia', lastName: 'P', dob: '2021-03-01' },
        { companyId, parentId: parent.id, firstName: 'Leo', lastName: 'P', dob: '2022-03-01' },
        { companyId, parentId: other.id, firstName: 'Zoe', lastName: 'L', dob: '2021-05-01' },
      ])
      .returning();
    await db.insert(classEnrolments).values([
      { companyId, termClassId: classId, childId: kids[0]!.id, kind: 'enrolled' },
      { companyId, termClassId: classId, childId: kids[1]!.id, kind: 'enrolled', startsOn: '2027-02-01' },
      // Enrolled only from a later week: not expected at the first session.
      { companyId, termClassId: classId, childId: kids[2]!.id, kind: 'enrolled', startsOn: '2027-03-01' },
    ]);

    const noReason = await dispatch(classId, 'cancel', session!.id, { reason: '' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('Reason is required.');

    const response = await dispatch(classId, 'cancel', session!.id, { reason: 'Venue flooded' });
    expect(response.json()).toEqual({
      success: true,
      message: 'The session has been cancelled. 1 family will get a mail.',
    });
    const mails = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.companyId, companyId), eq(mailOutbox.kind, 'class-session-cancelled')));
    expect(mails.map((m) => m.toAddress)).toEqual(['pat@example.test']);
    expect(mails[0]!.subject).toBe('Class cancelled: Thursday Gym on 04/02/2027');
    expect(mails[0]!.text).toContain('Thursday Gym on 04/02/2027 at 10:00 for Leo, Mia');
    expect(mails[0]!.text).toContain('Reason: Venue flooded');

    const twice = await dispatch(classId, 'cancel', session!.id, { reason: 'Again' });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe('This session is already cancelled.');
  });

  it('checks a class form: coaches who cannot be rostered, capacity below the enrolled children, a closed term', async () => {
    const lapsed = await createCoach('Sam Lapsing', { wwccExpiresOn: '2027-03-01' });
    const unverified = await createCoach('Kim Pending', { wwccOutcome: 'pending' });
    const form = await saveClass({ lead_coach_id: lapsed, assistant_coach_ids: [unverified] });
    expect(form.json()).toMatchObject({ valid: false });
    const messages = Object.fromEntries(
      form.json().error.element.map((e: { name: string; messages: string[] }) => [e.name, e.messages[0]]),
    );
    expect(messages).toEqual({
      lead_coach_id: "Sam Lapsing's Working With Children Check has expired.",
      assistant_coach_ids: "Kim Pending's Working With Children Check has not been verified.",
    });

    const classId = await createClass({
      name: 'Saturday Squad',
      weekday: '6',
      room_id: room2.id,
      lead_coach_id: null,
      capacity: 5,
    });
    const { db } = t.database;
    const parent = await createUser(db, companyId, { role: 'student' });
    const kids = await db
      .insert(children)
      .values(
        [1, 2, 3].map((n) => ({
          companyId,
          parentId: parent.id,
          firstName: `Kid${n}`,
          lastName: 'S',
          dob: '2020-01-01',
        })),
      )
      .returning();
    await db
      .insert(classEnrolments)
      .values(
        kids.map((k) => ({ companyId, termClassId: classId, childId: k.id, kind: 'enrolled' as const })),
      );
    const tooSmall = await saveClass(
      { name: 'Saturday Squad', weekday: '6', room_id: room2.id, lead_coach_id: null, capacity: 2 },
      classId,
    );
    expect(tooSmall.json().error.element).toEqual([
      { name: 'capacity', messages: ['Capacity cannot be below the 3 children already enrolled.'] },
    ]);
    const [row] = await db.select().from(termClasses).where(eq(termClasses.id, classId));
    expect(row!.capacity).toBe(5);

    const [closed] = await db
      .insert(terms)
      .values({
        companyId,
        name: 'Term 4 2026',
        startDate: '2026-10-12',
        endDate: '2026-12-18',
        status: 'closed',
      })
      .returning();
    const inClosed = await saveClass({ term_id: closed!.id, lead_coach_id: null });
    expect(inClosed.json().error.element).toEqual([
      { name: 'term_id', messages: ['Term 4 2026 is closed: choose a term that is not closed.'] },
    ]);
  });

  it('copies the previous term’s classes into the next term once, with a preview', async () => {
    const { db } = t.database;
    const [term2] = await db
      .insert(terms)
      .values({
        companyId,
        name: 'Term 2 2027',
        startDate: '2027-04-26',
        endDate: '2027-07-02',
        status: 'draft',
      })
      .returning();
    const lapsing = await createCoach('Drew Expiring', { wwccExpiresOn: '2027-04-20' });
    await createClass({
      name: 'Friday Lapsing',
      weekday: '5',
      room_id: room2.id,
      lead_coach_id: lapsing,
      start_time: '18:00',
    });
    const sources = await db
      .select()
      .from(termClasses)
      .where(
        and(
          eq(termClasses.companyId, companyId),
          eq(termClasses.termId, termId),
          eq(termClasses.status, 'active'),
        ),
      );

    const preview = await inject('GET', `/api/v1/admin/terms/${term2!.id}/copy-classes`);
    expect(preview.statusCode, preview.body).toBe(200);
    const plan = preview.json();
    expect(plan.from).toEqual({ id: termId, name: 'Term 1 2027' });
    expect(plan.classes).toHaveLength(sources.length);
    expect(
      plan.classes.every((c: { outcome: string; new_id: null }) => c.outcome === 'copy' && c.new_id === null),
    ).toBe(true);
    const lapsed = plan.classes.find((c: { name: string }) => c.name === 'Friday Lapsing');
    expect(lapsed).toMatchObject({
      coach: null,
      note: "Drew Expiring's Working With Children Check has expired. Copied without a lead coach.",
    });
    expect(await db.select().from(termClasses).where(eq(termClasses.termId, term2!.id))).toHaveLength(0);

    const applied = (await inject('POST', `/api/v1/admin/terms/${term2!.id}/copy-classes`)).json();
    expect(applied.classes.map((c: { new_id: number | null }) => ({ ...c, new_id: null }))).toEqual(
      plan.classes,
    );
    const copies = await db
      .select()
      .from(termClasses)
      .where(eq(termClasses.termId, term2!.id))
      .orderBy(asc(termClasses.id));
    expect(copies).toHaveLength(sources.length);
    const monday = copies.find((c) => c.name === 'Monday Kinder Gym')!;
    expect(monday).toMatchObject({
      weekday: 1,
      startTime: '16:00:00',
      roomId: room1.id,
      leadCoachId: casey,
      capacity: 12,
    });
    expect(copies.find((c) => c.name === 'Friday Lapsing')!.leadCoachId).toBeNull();

    // Copying again creates nothing more.
    const twice = (await inject('POST', `/api/v1/admin/terms/${term2!.id}/copy-classes`)).json();
    expect(twice.classes.every((c: { outcome: string }) => c.outcome === 'exists')).toBe(true);
    expect(await db.select().from(termClasses).where(eq(termClasses.termId, term2!.id))).toHaveLength(
      sources.length,
    );

    // The whole new term generates at once.
    const termPreview = (await inject('GET', `/api/v1/admin/terms/${term2!.id}/generate`)).json();
    expect(termPreview.classes).toHaveLength(sources.length);
    const termApplied = await inject('POST', `/api/v1/admin/terms/${term2!.id}/generate`);
    expect(termApplied.statusCode, termApplied.body).toBe(200);
    expect(termApplied.json()).toEqual(termPreview);
  });

  it('answers 404 to another company for every id-bearing route, and writes nothing', async () => {
    const { db } = t.database;
    const other = await createCompany(db);
    const outsider = (await sessionFor(db, await createUser(db, other.id, { role: 'companyadmin' }))).headers;
    const [classRow] = await db
      .select()
      .from(termClasses)
      .where(eq(termClasses.companyId, companyId))
      .limit(1);
    const [sessionRow] = await sessionsOf(classRow!.id);
    const before = await db
      .select()
      .from(classSessions)
      .where(eq(classSessions.companyId, companyId))
      .orderBy(asc(classSessions.id));
    for (const [method, url] of [
      ['GET', `/api/v1/admin/term-classes/${classRow!.id}/generate`],
      ['POST', `/api/v1/admin/term-classes/${classRow!.id}/generate`],
      ['GET', `/api/v1/admin/terms/${termId}/generate`],
      ['POST', `/api/v1/admin/terms/${termId}/generate`],
      ['GET', `/api/v1/admin/terms/${termId}/copy-classes`],
      ['POST', `/api/v1/admin/terms/${termId}/copy-classes`],
    ] as const) {
      const response = await inject(method, url, outsider);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const move = await inject(
      'POST',
      `/api/v1/admin/term-classes/${classRow!.id}/class-sessions/dispatch/move`,
      outsider,
      {
        ids: [sessionRow!.id],
        values: { start_time: '06:00' },
      },
    );
    expect(move.statusCode).toBe(404);
    expect(
      await db
        .select()
        .from(classSessions)
        .where(eq(classSessions.companyId, companyId))
        .orderBy(asc(classSessions.id)),
    ).toEqual(before);
  });
});
