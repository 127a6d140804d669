import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { classEnrolments } from '../classes/classes.tables.ts';
import { flagsOf } from './flags.service.ts';
import { flagAssignments, flags } from './flags.tables.ts';
import { children } from './students.tables.ts';

type Headers = Record<string, string>;

describe('flags on children and families', () => {
  let t: TestContext;
  let companyId: number;
  let staff: Headers;
  let coach: Headers;
  let foreignAdmin: Headers;
  let sessionId: number;
  let parentId: number;
  let foreignChild: number;
  let foreignFlag: number;
  const kids = {} as Record<'ava' | 'ben' | 'cal', number>;
  const flag = {} as Record<'anaphylaxis' | 'pickup' | 'plan' | 'old', number>;

  const post = (url: string, headers: Headers, payload: object) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db);
    companyId = company.id;
    const foreign = await createCompany(db);
    staff = (await sessionFor(db, await createUser(db, companyId, { role: 'companystaff' }))).headers;
    coach = (await sessionFor(db, await createUser(db, companyId, { role: 'companycoach' }))).headers;
    foreignAdmin = (await sessionFor(db, await createUser(db, foreign.id, { role: 'companyadmin' }))).headers;
    const parent = await createUser(db, companyId, { role: 'student', fullName: 'Jo Walker' });
    parentId = parent.id;
    const other = await createUser(db, companyId, { role: 'student', fullName: 'Sam Other' });
    const child = async (firstName: string, parent: number, company = companyId) => {
      const [row] = await db
        .insert(children)
        .values({ companyId: company, parentId: parent, firstName, lastName: 'Walker', dob: '2020-01-01' })
        .returning();
      return row!.id;
    };
    kids.ava = await child('Ava', parentId);
    kids.ben = await child('Ben', parentId);
    kids.cal = await child('Cal', other.id);
    foreignChild = await child('Zed', (await createUser(db, foreign.id, { role: 'student' })).id, foreign.id);
    const newFlag = async (name: string, values: Partial<typeof flags.$inferInsert> = {}) => {
      const [row] = await db
        .insert(flags)
        .values({ companyId, name, colour: '#e03131', ...values })
        .returning();
      return row!.id;
    };
    flag.anaphylaxis = await newFlag('Anaphylaxis', { kind: 'allergy' });
    flag.pickup = await newFlag('Late pick-up', { colour: '#1971c2' });
    flag.plan = await newFlag('Behaviour plan', { kind: 'behaviour', showOnRoll: false });
    flag.old = await newFlag('Old flag', { archivedAt: new Date() });
    foreignFlag = (await db.insert(flags).values({ companyId: foreign.id, name: 'Theirs' }).returning())[0]!
      .id;

    const { termClass, sessions } = await createClassWithSessions(db, companyId, {
      coachId: null,
      dates: ['2030-02-05'],
      name: 'Flag class',
    });
    sessionId = sessions[0]!.id;
    for (const childId of [kids.ava, kids.ben, kids.cal]) {
      await db
        .insert(classEnrolments)
        .values({ companyId, termClassId: termClass.id, childId, kind: 'enrolled' });
    }
  });

  afterAll(() => t.close());

  it('applies flags to a child and to a family, and the roll shows the roll-flagged ones on each child', async () => {
    const apply = (payload: object) => post('/api/v1/admin/flagged', staff, payload);
    expect(
      (await apply({ flag_id: flag.anaphylaxis, child_id: kids.ava, note: 'EpiPen in her bag' })).json(),
    ).toMatchObject({ valid: true });
    expect((await apply({ flag_id: flag.pickup, parent_id: parentId })).json()).toMatchObject({
      valid: true,
    });
    expect((await apply({ flag_id: flag.plan, child_id: kids.ava })).json()).toMatchObject({ valid: true });

    const roll = await get(`/api/v1/admin/roll/${sessionId}`, staff);
    expect(roll.statusCode).toBe(200);
    const byName = new Map(
      (roll.json().children as { first_name: string; flags: unknown[] }[]).map((c) => [
        c.first_name,
        c.flags,
      ]),
    );
    // Ava: her own roll flag (with its note) and her family's; the behaviour plan stays off the roll.
    expect(byName.get('Ava')).toEqual([
      { name: 'Anaphylaxis', colour: '#e03131', note: 'EpiPen in her bag' },
      { name: 'Late pick-up', colour: '#1971c2', note: null },
    ]);
    // Ben has no flag of his own: the family's shows on him too. Cal is another family's child.
    expect(byName.get('Ben')).toEqual([{ name: 'Late pick-up', colour: '#1971c2', note: null }]);
    expect(byName.get('Cal')).toEqual([]);

    // flagsOf (the student screen) has every live flag, with who applied it.
    const tenant = new Tenant(companyId);
    const ofAva = (await flagsOf(t.database.db, tenant, { childIds: [kids.ava] })).get(kids.ava)!;
    expect(ofAva.map((f) => f.name)).toEqual(['Anaphylaxis', 'Behaviour plan', 'Late pick-up']);
    expect(ofAva.every((f) => f.applied_by !== '')).toBe(true);
    const ofFamily = (await flagsOf(t.database.db, tenant, { parentIds: [parentId] })).get(parentId)!;
    expect(ofFamily.map((f) => [f.name, f.target])).toEqual([
      ['Late pick-up', 'The Walker family (Jo Walker)'],
    ]);

    // A coach reads the roll flags but cannot apply one.
    expect((await apply({ flag_id: flag.pickup, child_id: kids.cal })).statusCode).toBe(200);
    expect(
      (await post('/api/v1/admin/flagged', coach, { flag_id: flag.pickup, child_id: kids.cal })).statusCode,
    ).toBe(403);
  });

  it('refuses bad input with a message, and an archived flag cannot be applied', async () => {
    const before = await t.database.db
      .select()
      .from(flagAssignments)
      .where(eq(flagAssignments.companyId, companyId));
    const none = await post('/api/v1/admin/flagged', staff, {});
    expect(none.json().valid).toBe(false);
    expect(JSON.stringify(none.json())).toContain('Choose a flag.');
    const both = await post('/api/v1/admin/flagged', staff, {
      flag_id: flag.pickup,
      child_id: kids.ava,
      parent_id: parentId,
    });
    expect(JSON.stringify(both.json())).toContain('Choose a child or a family.');
    expect(
      (await post('/api/v1/admin/flagged', staff, { flag_id: flag.old, child_id: kids.ava })).statusCode,
    ).toBe(404);
    // A child's id is not a family.
    expect(
      (await post('/api/v1/admin/flagged', staff, { flag_id: flag.pickup, parent_id: kids.ava + 10_000 }))
        .statusCode,
    ).toBe(404);
    const after = await t.database.db
      .select()
      .from(flagAssignments)
      .where(eq(flagAssignments.companyId, companyId));
    expect(after).toHaveLength(before.length);
  });

  it('answers 404 for another company’s flags, children, families and applied flags', async () => {
    expect(
      (await post('/api/v1/admin/flagged', staff, { flag_id: foreignFlag, child_id: kids.ava })).statusCode,
    ).toBe(404);
    expect(
      (await post('/api/v1/admin/flagged', staff, { flag_id: flag.pickup, child_id: foreignChild }))
        .statusCode,
    ).toBe(404);
    expect(
      (await post('/api/v1/admin/flagged', foreignAdmin, { flag_id: flag.pickup, child_id: kids.ava }))
        .statusCode,
    ).toBe(404);
    expect((await get(`/api/v1/admin/flagged?child_id=${kids.ava}`, foreignAdmin)).statusCode).toBe(404);
    expect((await get(`/api/v1/admin/flagged?parent_id=${parentId}`, foreignAdmin)).statusCode).toBe(404);
    const [applied] = await t.database.db
      .select()
      .from(flagAssignments)
      .where(eq(flagAssignments.childId, kids.ava));
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/v1/admin/flagged/${applied!.id}`,
          headers: foreignAdmin,
        })
      ).statusCode,
    ).toBe(404);
    expect((await get('/api/v1/admin/flagged', foreignAdmin)).json().flags).toEqual([]);
  });

  it('removes an applied flag, audited with what it was', async () => {
    const [applied] = await t.database.db
      .select()
      .from(flagAssignments)
      .where(and(eq(flagAssignments.childId, kids.ava), eq(flagAssignments.flagId, flag.anaphylaxis)));
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/admin/flagged/${applied!.id}`,
      headers: staff,
    });
    expect(removed.statusCode).toBe(204);
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'flag_assignments'),
          eq(auditLog.entityId, applied!.id),
          eq(auditLog.action, 'remove'),
        ),
      );
    expect(entry?.before).toMatchObject({
      flagId: flag.anaphylaxis,
      childId: kids.ava,
      note: 'EpiPen in her bag',
    });
    const listed = (await get(`/api/v1/admin/flagged?child_id=${kids.ava}`, staff)).json().flags as {
      name: string;
    }[];
    expect(listed.map((f) => f.name)).toEqual(['Behaviour plan', 'Late pick-up']);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/admin/flagged/${applied!.id}`, headers: staff }))
        .statusCode,
    ).toBe(404);
  });
});
