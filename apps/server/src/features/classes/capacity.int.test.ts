import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tenant } from '../../platform/tenancy.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { children } from '../students/students.tables.ts';
import { lockClasses, placesLeft, sessionLoads, sessionPlacesLeft } from './capacity.service.ts';
import { classEnrolments, termClasses } from './classes.tables.ts';

describe('places in classes (capacity.service)', () => {
  let t: TestContext;
  let tenant: Tenant;
  let foreign: Tenant;
  let parentId: number;
  let classId: number;
  let sessions: { id: number; termClassId: number; date: string }[];
  const dates = ['2030-02-05', '2030-02-12', '2030-02-19'];

  const child = async (firstName: string) => {
    const [row] = await t.database.db
      .insert(children)
      .values({ companyId: tenant.companyId, parentId, firstName, lastName: 'Places', dob: '2024-01-01' })
      .returning();
    return row!.id;
  };
  const place = async (values: Partial<typeof classEnrolments.$inferInsert>) => {
    await t.database.db.insert(classEnrolments).values({
      companyId: tenant.companyId,
      termClassId: classId,
      childId: await child('Kid'),
      kind: 'enrolled',
      ...values,
    });
  };

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db);
    tenant = new Tenant(company.id);
    foreign = new Tenant((await createCompany(db)).id);
    parentId = (await createUser(db, company.id, { role: 'student' })).id;
    const made = await createClassWithSessions(db, company.id, { coachId: null, dates });
    classId = made.termClass.id;
    sessions = made.sessions;
    await db.update(termClasses).set({ capacity: 4 }).where(eq(termClasses.id, classId));
    const inAnHour = new Date(Date.now() + 3_600_000);
    const anHourAgo = new Date(Date.now() - 3_600_000);
    // Session 1: active + pending (live hold) + withdrawn-from-session-2 = 3 enrolled.
    await place({ status: 'active' });
    await place({ status: 'pending', heldFor: 'checkout', holdExpiresAt: inAnHour });
    await place({ status: 'active', withdrawnFrom: dates[1] });
    // Never counted: a lapsed hold, a cancelled place, a withdrawn row.
    await place({ status: 'pending', heldFor: 'offer', holdExpiresAt: anHourAgo });
    await place({ status: 'cancelled' });
    await place({ status: 'withdrawn' });
    // Session 2: a makeup and a trial on top of the 2 enrolled still there; session 3 starts one more.
    await place({ status: 'active', kind: 'makeup', sessionId: sessions[1]!.id });
    await place({ status: 'active', kind: 'trial', sessionId: sessions[1]!.id });
    await place({ status: 'active', startsOn: dates[2] });
  });

  afterAll(() => t.close());

  it('counts active places and live holds per session, honouring start and withdrawal dates', async () => {
    const loads = await sessionLoads(t.database.db, tenant, [classId], dates[0]!);
    expect(loads.map((l) => [l.date, l.taken])).toEqual([
      [dates[0], 3],
      [dates[1], 4],
      [dates[2], 3],
    ]);
  });

  it('leaves a full enrolment only what the busiest session from its start leaves', async () => {
    expect((await placesLeft(t.database.db, tenant, [classId], dates[0]!)).get(classId)).toBe(0);
    expect((await placesLeft(t.database.db, tenant, [classId], dates[2]!)).get(classId)).toBe(1);
    expect((await placesLeft(t.database.db, tenant, [classId], '2030-03-01')).get(classId)).toBe(0);
  });

  it('counts single sessions on their own', async () => {
    const left = await sessionPlacesLeft(t.database.db, tenant, sessions);
    expect(sessions.map((s) => left.get(s.id))).toEqual([1, 0, 1]);
  });

  it('sees nothing of another company', async () => {
    expect(await sessionLoads(t.database.db, foreign, [classId], dates[0]!)).toEqual([]);
    expect((await placesLeft(t.database.db, foreign, [classId], dates[0]!)).get(classId)).toBe(0);
    const locked = await t.database.db.transaction((tx) => lockClasses(tx, foreign, [classId]));
    expect(locked).toEqual([]);
  });

  it('never oversells when 20 families take the last place of session 3 at once', async () => {
    const { db } = t.database;
    const kids = await Promise.all(Array.from({ length: 20 }, (_, i) => child(`Racer${i}`)));
    const outcomes = await Promise.all(
      kids.map((childId) =>
        db.transaction(async (tx) => {
          await lockClasses(tx, tenant, [classId]);
          const left = (await placesLeft(tx, tenant, [classId], dates[2]!)).get(classId)!;
          if (left < 1) return 'full';
          await tx
            .insert(classEnrolments)
            .values(
              tenant.values({ termClassId: classId, childId, kind: 'enrolled' as const, startsOn: dates[2] }),
            );
          return 'enrolled';
        }),
      ),
    );
    expect(outcomes.filter((o) => o === 'enrolled')).toHaveLength(1);
    const [last] = await sessionLoads(db, tenant, [classId], dates[2]!);
    expect(last!.taken).toBe(4);
  });
});
