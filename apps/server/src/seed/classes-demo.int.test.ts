import type { TimetableResponse } from '@tumble/contracts/timetable';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../features/accounts/accounts.tables.ts';
import {
  attendance,
  classEnrolments,
  classSessions,
  classTypes,
  termClasses,
  termClosures,
  terms,
} from '../features/classes/classes.tables.ts';
import { coaches, coachLeaves } from '../features/coaches/coaches.tables.ts';
import { children } from '../features/students/students.tables.ts';
import { rooms } from '../features/venues/venues.tables.ts';
import { isoWeekday } from '../platform/time.ts';
import { signIn } from '../testing/factories.ts';
import { createTestApp, type TestContext } from '../testing/harness.ts';
import { DEMO_COACHES } from './classes-demo.ts';
import { DEMO, seedDemo } from './demo.ts';

describe('demo classes', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
    await seedDemo(t.database.db, t.config);
  });
  afterAll(() => t.close());

  const counts = async () => {
    const { db } = t.database;
    const tables = {
      users,
      terms,
      termClosures,
      classTypes,
      termClasses,
      classSessions,
      classEnrolments,
      attendance,
      coaches,
      coachLeaves,
      children,
      rooms,
    };
    const out: Record<string, number> = {};
    for (const [name, table] of Object.entries(tables)) {
      out[name] = (await db.select({ n: count() }).from(table))[0]!.n;
    }
    return out;
  };

  it('seeds a term with a closure, three types, twelve classes in two rooms, two coaches, sessions and rolls; a second start adds nothing', async () => {
    const first = await counts();
    // The current term's twelve classes, and last term's first four again (seed/reports-demo.ts,
    // for the enrolment comparison and trial conversion reports).
    expect(first).toMatchObject({
      terms: 2,
      termClosures: expect.any(Number),
      classTypes: 3,
      termClasses: 16,
      coaches: 2,
      coachLeaves: 1,
      rooms: 2,
      children: 11,
    });
    expect(first.termClosures).toBeGreaterThan(0);
    expect(first.classSessions).toBeGreaterThan(12);
    expect(first.classEnrolments).toBeGreaterThan(12);
    await seedDemo(t.database.db, t.config);
    expect(await counts()).toEqual(first);
  });

  it('dates every session on its class weekday inside the term and never on a closure', async () => {
    const { db } = t.database;
    const termsById = new Map((await db.select().from(terms)).map((term) => [term.id, term]));
    const closures = await db.select().from(termClosures);
    const classes = new Map((await db.select().from(termClasses)).map((c) => [c.id, c]));
    for (const s of await db.select().from(classSessions)) {
      const klass = classes.get(s.termClassId)!;
      const term = termsById.get(klass.termId)!;
      expect(isoWeekday(s.date)).toBe(String(klass.weekday));
      expect(s.date >= term.startDate && s.date <= term.endDate).toBe(true);
      expect(closures.some((c) => c.termId === term.id && c.startDate <= s.date && s.date <= c.endDate)).toBe(
        false,
      );
    }
  });

  it('shows the coach on leave with one session needing cover; the demo coach signs in and reads the timetable', async () => {
    const [leave] = await t.database.db.select().from(coachLeaves);
    const coach = await signIn(t.app, DEMO_COACHES.casey);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/timetable?week=${leave!.startDate}&by=coach`,
      headers: coach.headers,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as TimetableResponse;
    expect(body.groups.map((g) => g.label)).toEqual(
      expect.arrayContaining([DEMO_COACHES.casey.fullName, DEMO_COACHES.sam.fullName]),
    );
    const cover = body.groups.flatMap((g) => g.items).filter((i) => i.needs_cover);
    expect(cover.map((i) => i.title)).toEqual(['Recreational Gymnastics Saturday']);
    const admin = await signIn(t.app, DEMO.admin);
    const byRoom = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/timetable?week=${leave!.startDate}&by=room`,
      headers: admin.headers,
    });
    expect((byRoom.json() as TimetableResponse).groups.map((g) => g.label).slice(0, 2)).toEqual([
      'Kinder room',
      'Main floor',
    ]);
  });
});
