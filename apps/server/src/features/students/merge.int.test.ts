import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { createClassWithSessions, createCoach } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor, signIn } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import { createConfirmedLesson, createPrivateSlot } from '../../testing/private-lesson-fixtures.ts';
import { createChild, createConfirmedBooking, createConfirmedParty } from '../../testing/waiver-fixtures.ts';
import { familyAccounts, familyCreditEntries } from '../billing/ledger.tables.ts';
import { attendance, classEnrolments } from '../classes/classes.tables.ts';
import { tasks } from '../tasks/tasks.tables.ts';
import { flagAssignments, flags } from './flags.tables.ts';

type Headers = Record<string, string>;

/** Every table with a parent_id or child_id column, from the database itself. */
async function familyColumns(t: TestContext) {
  const { rows } = await t.database.pool.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
     where table_schema = 'public' and column_name in ('parent_id', 'child_id') order by 1, 2`,
  );
  return rows;
}

/** How many rows of each (table, column) name each of these ids. */
async function owners(t: TestContext, ids: number[]) {
  const counts: Record<string, number> = {};
  for (const { table_name, column_name } of await familyColumns(t)) {
    for (const id of ids) {
      const { rows } = await t.database.pool.query<{ n: number }>(
        `select count(*)::int as n from "${table_name}" where "${column_name}" = $1`,
        [id],
      );
      counts[`${table_name}.${column_name}=${id}`] = rows[0]!.n;
    }
  }
  return counts;
}

describe('merging duplicate families and children', () => {
  let t: TestContext;
  let companyId: number;
  let staff: Headers;
  let foreignStaff: Headers;
  let foreignParent: number;
  let partySlot: number;
  let staffId: number;

  const post = (url: string, headers: Headers, payload: object) =>
    t.app.inject({ method: 'POST', url, headers, payload });

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    companyId = (await createCompany(db)).id;
    const foreign = await createCompany(db);
    const staffUser = await createUser(db, companyId, { role: 'companystaff' });
    staffId = staffUser.id;
    staff = (await sessionFor(db, staffUser)).headers;
    foreignStaff = (await sessionFor(db, await createUser(db, foreign.id, { role: 'companystaff' }))).headers;
    foreignParent = (await createUser(db, foreign.id, { role: 'student' })).id;
    partySlot = (await createPartySetup(db, companyId)).morning.id;
  });
  afterAll(() => t?.close());

  /** A family with a row in most tables that name a family or a child. */
  async function buildFamily(name: string) {
    const { db } = t.database;
    const parent = await createUser(db, companyId, { role: 'student', fullName: name });
    const child = await createChild(db, companyId, parent.id, `${name} kid`);
    const { event } = await createBookableEvent(db, companyId);
    const { payment } = await createConfirmedBooking(db, companyId, {
      parentId: parent.id,
      eventId: event.id,
      childIds: [child.id],
    });
    await db.update(payments).set({ parentId: parent.id }).where(sql`id = ${payment.id}`);
    await createConfirmedParty(db, companyId, {
      parentId: parent.id,
      slotId: partySlot,
      childId: child.id,
      date: '2031-03-01',
    });
    const coach = await createCoach(db, companyId);
    const slot = await createPrivateSlot(db, companyId, { coachId: coach.coach.id, date: '2031-03-02' });
    await createConfirmedLesson(db, companyId, {
      parentId: parent.id,
      slot,
      date: '2031-03-02',
      childIds: [child.id],
    });
    const { termClass, sessions } = await createClassWithSessions(db, companyId, {
      coachId: null,
      dates: ['2031-02-05'],
      name: `${name} class`,
    });
    await db
      .insert(classEnrolments)
      .values({ companyId, termClassId: termClass.id, childId: child.id, kind: 'enrolled' });
    await db
      .insert(attendance)
      .values({ companyId, sessionId: sessions[0]!.id, childId: child.id, status: 'present' });
    await db.insert(familyAccounts).values({ companyId, parentId: parent.id, creditBalance: 1500 });
    await db
      .insert(familyCreditEntries)
      .values({ companyId, parentId: parent.id, amount: 1500, reason: 'Overpayment' });
    const [flag] = await db
      .insert(flags)
      .values({ companyId, name: `${name} flag` })
      .returning();
    await db.insert(flagAssignments).values([
      { companyId, flagId: flag!.id, parentId: parent.id, appliedById: staffId },
      { companyId, flagId: flag!.id, childId: child.id, appliedById: staffId },
    ]);
    await db
      .insert(tasks)
      .values({ companyId, title: 'Call', assigneeRole: 'family', parentId: parent.id, childId: child.id });
    return { parent, child, termClass };
  }

  it('moves every row naming the duplicate family to the kept one, and nothing else', async () => {
    const duplicate = await buildFamily('Dup');
    const kept = await buildFamily('Kept');
    const bystander = await buildFamily('Other');
    const ids = [duplicate.parent.id, kept.parent.id, bystander.parent.id];
    const before = await owners(t, ids);

    const preview = await post('/api/v1/admin/merge/families', staff, {
      from_parent_id: duplicate.parent.id,
      to_parent_id: kept.parent.id,
      preview: true,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().moved).toMatchObject({ children: 1, bookings: 1, payments: 1, family_accounts: 1 });
    expect(await owners(t, ids)).toEqual(before); // a preview changes nothing

    const merged = await post('/api/v1/admin/merge/families', staff, {
      from_parent_id: duplicate.parent.id,
      to_parent_id: kept.parent.id,
    });
    expect(merged.statusCode).toBe(200);
    expect(merged.json().moved).toEqual(preview.json().moved);

    const after = await owners(t, ids);
    for (const key of Object.keys(before)) {
      const [column, id] = key.split('=');
      if (Number(id) === duplicate.parent.id && column!.endsWith('parent_id')) {
        expect(after[key], key).toBe(0);
      } else if (Number(id) === kept.parent.id && column!.endsWith('parent_id')) {
        const family = key.replace(`=${kept.parent.id}`, `=${duplicate.parent.id}`);
        // family_accounts: the two accounts become one.
        const expected = column === 'family_accounts.parent_id' ? 1 : before[key]! + before[family]!;
        expect(after[key], key).toBe(expected);
      } else {
        expect(after[key], key).toBe(before[key]); // children rows keep their child; the bystander is untouched
      }
    }

    const [account] = await t.database.db
      .select()
      .from(familyAccounts)
      .where(sql`parent_id = ${kept.parent.id}`);
    expect(account!.creditBalance).toBe(3000);

    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(sql`entity = 'families' and action = 'merge'`);
    expect(audit).toHaveLength(1);
    expect((audit[0]!.after as { moved: Record<string, number> }).moved.bookings).toBe(1);

    // The duplicate can no longer sign in, and its email is free.
    const { rows } = await t.database.pool.query('select status, email from users where id = $1', [
      duplicate.parent.id,
    ]);
    expect(rows[0].status).toBe('disabled');
    expect(rows[0].email).not.toBe(duplicate.parent.email);
    await expect(signIn(t.app, duplicate.parent)).rejects.toThrow();
    await expect(signIn(t.app, kept.parent)).resolves.toBeTruthy();
  });

  it('refuses a family merged into itself (400), another company’s family (404) and a second merge (409)', async () => {
    const a = await createUser(t.database.db, companyId, { role: 'student' });
    const b = await createUser(t.database.db, companyId, { role: 'student' });
    const self = await post('/api/v1/admin/merge/families', staff, {
      from_parent_id: a.id,
      to_parent_id: a.id,
    });
    expect(self.statusCode).toBe(400);
    const across = await post('/api/v1/admin/merge/families', staff, {
      from_parent_id: a.id,
      to_parent_id: foreignParent,
    });
    expect(across.statusCode).toBe(404);
    const foreign = await post('/api/v1/admin/merge/families', foreignStaff, {
      from_parent_id: a.id,
      to_parent_id: b.id,
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await post('/api/v1/admin/merge/families', staff, { from_parent_id: a.id, to_parent_id: b.id }))
        .statusCode,
    ).toBe(200);
    expect(
      (await post('/api/v1/admin/merge/families', staff, { from_parent_id: a.id, to_parent_id: b.id }))
        .statusCode,
    ).toBe(409);
  });

  it('merges a child entered twice: places move, a doubled place is cancelled, the duplicate child goes', async () => {
    const family = await buildFamily('Twice');
    const { db } = t.database;
    const twin = await createChild(db, companyId, family.parent.id, 'Twice again');
    await db
      .insert(classEnrolments)
      .values([{ companyId, termClassId: family.termClass.id, childId: twin.id, kind: 'enrolled' }]);
    const ids = [family.child.id, twin.id];
    const before = await owners(t, ids);
    const preview = await post('/api/v1/admin/merge/children', staff, {
      from_child_id: twin.id,
      to_child_id: family.child.id,
      preview: true,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().moved).toMatchObject({ class_enrolments: 1, cancelledPlaces: 1 });
    expect(preview.json().notes.join(' ')).toContain('hold a place in 1 class');
    expect(await owners(t, ids)).toEqual(before);

    const merged = await post('/api/v1/admin/merge/children', staff, {
      from_child_id: twin.id,
      to_child_id: family.child.id,
    });
    expect(merged.statusCode).toBe(200);
    const after = await owners(t, ids);
    for (const key of Object.keys(after)) if (key.endsWith(`=${twin.id}`)) expect(after[key], key).toBe(0);
    const places = await db.select().from(classEnrolments).where(sql`term_class_id = ${family.termClass.id}`);
    expect(places.map((p) => p.status).sort()).toEqual(['active', 'cancelled']);
    expect(places.every((p) => p.childId === family.child.id)).toBe(true);
    const { rows } = await t.database.pool.query('select id from children where id = $1', [twin.id]);
    expect(rows).toHaveLength(0);

    // Children of two families, the same child, another company's child.
    const other = await buildFamily('Elsewhere');
    expect(
      (
        await post('/api/v1/admin/merge/children', staff, {
          from_child_id: other.child.id,
          to_child_id: family.child.id,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await post('/api/v1/admin/merge/children', staff, {
          from_child_id: family.child.id,
          to_child_id: family.child.id,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await post('/api/v1/admin/merge/children', foreignStaff, {
          from_child_id: other.child.id,
          to_child_id: family.child.id,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('covers every table with a parent_id or child_id column (a new feature cannot be forgotten)', async () => {
    const { db } = t.database;
    const a = await createUser(db, companyId, { role: 'student' });
    const b = await createUser(db, companyId, { role: 'student' });
    const c1 = await createChild(db, companyId, b.id, 'One');
    const c2 = await createChild(db, companyId, b.id, 'Two');
    const family = await post('/api/v1/admin/merge/families', staff, {
      from_parent_id: a.id,
      to_parent_id: b.id,
      preview: true,
    });
    const child = await post('/api/v1/admin/merge/children', staff, {
      from_child_id: c1.id,
      to_child_id: c2.id,
      preview: true,
    });
    const tablesOf = (moved: Record<string, number>) =>
      new Set(Object.keys(moved).map((key) => key.split(' ')[0]));
    const familyTables = tablesOf(family.json().moved);
    const childTables = tablesOf(child.json().moved);
    const missing = (await familyColumns(t))
      .filter(({ table_name, column_name }) =>
        column_name === 'parent_id' ? !familyTables.has(table_name) : !childTables.has(table_name),
      )
      .map(({ table_name, column_name }) => `${table_name}.${column_name}`);
    expect(missing, 'add these to a feature’s merge service (merge.service.ts)').toEqual([]);
  });
});
