import { classStudentMessages as says } from '@tumble/contracts/class-students';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { children } from '../students/students.tables.ts';
import { enrolmentAdjustments } from './adjustments.tables.ts';
import { joinClassWaitlist, NO_FREE_PLACE } from './class-waitlist.service.ts';
import { classWaitlist } from './class-waitlist.tables.ts';
import { classEnrolments, classTypes, termClasses } from './classes.tables.ts';
import { enrolmentSettings } from './enrolments.tables.ts';

type Headers = Record<string, string>;

describe('staff enrol, transfer and withdraw (class-students)', () => {
  let t: TestContext;
  let tenant: Tenant;
  let staff: Headers;
  let coach: Headers;
  let foreignAdmin: Headers;
  let foreignCompanyId: number;
  let parentId: number;
  const datesA = ['2030-02-05', '2030-02-12', '2030-02-19', '2030-02-26'];
  const datesB = ['2030-02-06', '2030-02-13', '2030-02-20', '2030-02-27'];

  const inject = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
    t.app.inject({ method, url, headers, payload });
  const path = (classId: number, ending = '') =>
    `/api/v1/admin/term-classes/${classId}/class-students${ending}`;

  const child = async (firstName: string, family = parentId) => {
    const [row] = await t.database.db
      .insert(children)
      .values({
        companyId: tenant.companyId,
        parentId: family,
        firstName,
        lastName: 'Student',
        dob: '2024-03-01',
      })
      .returning();
    return row!.id;
  };

  /** A class of 4 weekly sessions; per session $20 unless a term price is given. */
  const makeClass = async (
    name: string,
    dates: string[],
    capacity: number,
    price: { model: 'per_session' | 'term'; cents: number } = { model: 'per_session', cents: 2000 },
  ) => {
    const made = await createClassWithSessions(t.database.db, tenant.companyId, {
      coachId: null,
      dates,
      name,
    });
    await t.database.db.update(termClasses).set({ capacity }).where(eq(termClasses.id, made.termClass.id));
    await t.database.db
      .update(classTypes)
      .set({ pricingModel: price.model, price: price.cents })
      .where(eq(classTypes.id, made.type.id));
    return made.termClass.id;
  };

  const placesOf = (termClassId: number) =>
    t.database.db
      .select()
      .from(classEnrolments)
      .where(
        and(eq(classEnrolments.companyId, tenant.companyId), eq(classEnrolments.termClassId, termClassId)),
      )
      .orderBy(classEnrolments.id);
  const adjustmentsOf = (termClassId: number) =>
    t.database.db
      .select()
      .from(enrolmentAdjustments)
      .where(eq(enrolmentAdjustments.termClassId, termClassId))
      .orderBy(enrolmentAdjustments.id);

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db);
    tenant = new Tenant(company.id);
    staff = (await sessionFor(db, await createUser(db, company.id, { role: 'companystaff' }))).headers;
    coach = (await sessionFor(db, await createUser(db, company.id, { role: 'companycoach' }))).headers;
    parentId = (
      await createUser(db, company.id, { role: 'student', fullName: 'Pat Parent', phone: '0400 000 000' })
    ).id;
    const other = await createCompany(db);
    foreignCompanyId = other.id;
    foreignAdmin = (await sessionFor(db, await createUser(db, other.id))).headers;
  });
  afterAll(() => t.close());

  it('enrols from the next session with a charge to invoice, and refuses a full class or a child already in it', async () => {
    const classId = await makeClass('Kinder Gym Tuesday', datesA, 1);
    const mia = await child('Mia');
    const leo = await child('Leo');

    const enrolled = await inject('POST', path(classId), staff, { child_id: mia });
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    expect(enrolled.json().message).toBe('Mia Student is enrolled from 05/02/2030. $80.00 to invoice.');
    const [place] = await placesOf(classId);
    expect(place).toMatchObject({ childId: mia, kind: 'enrolled', status: 'active', startsOn: datesA[0] });
    const [charge] = await adjustmentsOf(classId);
    expect(charge).toMatchObject({ kind: 'charge', amount: 8000, parentId, childName: 'Mia Student' });
    expect(charge!.reason).toBe('Enrolled by staff from 05/02/2030: 4 sessions');

    const again = await inject('POST', path(classId), staff, { child_id: mia, starts_on: datesA[2] });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(says.alreadyEnrolled('Mia Student'));

    const full = await inject('POST', path(classId), staff, { child_id: leo });
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe(says.full('Kinder Gym Tuesday'));
    expect(await placesOf(classId)).toHaveLength(1);
    expect(await adjustmentsOf(classId)).toHaveLength(1);

    const list = await inject('GET', path(classId), coach);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      places_left: 0,
      next_session: datesA[0],
      students: [
        {
          child_name: 'Mia Student',
          status: 'active',
          parent_name: 'Pat Parent',
          phone: '0400 000 000',
          starts_on: datesA[0],
        },
      ],
    });
    // Staff changes are in the audit trail.
    const [audited] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'class-enrolments'), eq(auditLog.entityId, place!.id)));
    expect(audited).toMatchObject({ action: 'enrol' });
    // Coaches read the list but do not change it.
    expect((await inject('POST', path(classId), coach, { child_id: leo })).statusCode).toBe(403);
  });

  it('lets exactly one of two staff members take the last place at once', async () => {
    const classId = await makeClass('Ninja Kids Wednesday', datesA, 1);
    const kids = [await child('Ava'), await child('Zoe')];
    const answers = await Promise.all(
      kids.map((id) => inject('POST', path(classId), staff, { child_id: id })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await placesOf(classId)).filter((p) => p.status === 'active')).toHaveLength(1);
  });

  it('transfers in one step: the old place ends, the new one starts, the difference is charged or credited', async () => {
    const from = await makeClass('Level 1 Tuesday', datesA, 5);
    const to = await makeClass('Level 1 Wednesday term', datesB, 5, { model: 'term', cents: 10_000 });
    const sam = await child('Sam');
    await inject('POST', path(from), staff, { child_id: sam });
    const [old] = await placesOf(from);

    const moved = await inject('POST', path(from, '/transfer'), staff, {
      enrolment_id: old!.id,
      to_class_id: to,
      from: datesA[1],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // 3 sessions left of $20 (= $60) for 3 of 4 term sessions of $100 (= $75): $15 more.
    expect(moved.json().message).toBe(
      'Sam Student moves to Level 1 Wednesday term from 13/02/2030. $15.00 to invoice.',
    );
    const [ended] = await placesOf(from);
    expect(ended).toMatchObject({ status: 'active', withdrawnFrom: datesA[1] });
    const [started] = await placesOf(to);
    expect(started).toMatchObject({
      childId: sam,
      status: 'active',
      startsOn: datesB[1],
      withdrawnFrom: null,
    });
    const [difference] = await adjustmentsOf(to);
    expect(difference).toMatchObject({ kind: 'charge', amount: 1500, enrolmentId: started!.id });

    const back = await inject('POST', path(to, '/transfer'), staff, {
      enrolment_id: started!.id,
      to_class_id: from,
      from: datesB[3],
    });
    expect(back.statusCode, back.body).toBe(409);
    // Tuesday's last session (26/02) is before Wednesday's last (27/02): nothing left to move into.
    expect(back.json().message).toBe(says.noSessionsLeft);
    // Back to the cheaper class for the last week: $20 of sessions for $25 of term, $5 credited.
    const credit = await inject('POST', path(to, '/transfer'), staff, {
      enrolment_id: started!.id,
      to_class_id: from,
      from: datesA[3],
    });
    expect(credit.statusCode, credit.body).toBe(200);
    expect(credit.json().message).toBe(
      'Sam Student moves to Level 1 Tuesday from 26/02/2030. $5.00 credited.',
    );
    expect((await adjustmentsOf(from)).at(-1)).toMatchObject({ kind: 'credit', amount: 500 });
  });

  it('refuses a full target class and changes nothing', async () => {
    const from = await makeClass('Tumbling Tuesday', datesA, 5);
    const to = await makeClass('Tumbling Wednesday', datesB, 1);
    const [a, b] = [await child('Ivy'), await child('Max')];
    await inject('POST', path(to), staff, { child_id: a });
    await inject('POST', path(from), staff, { child_id: b });
    const [place] = await placesOf(from);
    const refused = await inject('POST', path(from, '/transfer'), staff, {
      enrolment_id: place!.id,
      to_class_id: to,
      from: datesA[0],
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(says.full('Tumbling Wednesday'));
    expect((await placesOf(from))[0]!.withdrawnFrom).toBeNull();
    expect(await placesOf(to)).toHaveLength(1);
  });

  it('withdraws by the company policy: credit, refund due or nothing; the freed place is offered to the waitlist', async () => {
    const { db } = t.database;
    const classId = await makeClass('Gymnastics Saturday', datesA, 1);
    const [first, waiting] = [await child('Ruby'), await child('Noah')];
    await inject('POST', path(classId), staff, { child_id: first });
    await db.transaction((tx) =>
      joinClassWaitlist(tx, tenant, {
        termClassId: classId,
        parentId,
        childIds: [waiting],
        anyNumber: false,
        source: 'staff',
      }),
    );
    const listed = (await inject('GET', path(classId), staff)).json();
    expect(listed.students.map((s: { status: string }) => s.status)).toEqual(['active', 'waitlisted']);
    const [place] = await placesOf(classId);

    // Default policy: credit. From the third session: 2 sessions not run, $40.
    const withdrawn = await inject('POST', path(classId, '/withdraw'), staff, {
      enrolment_id: place!.id,
      from: datesA[2],
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json().message).toBe(
      'Ruby Student is withdrawn from 19/02/2030. $40.00 credited to the family.',
    );
    expect((await adjustmentsOf(classId)).at(-1)).toMatchObject({ kind: 'credit', amount: 4000 });

    // Refund policy, withdrawing earlier still: the sessions between are owed back (not counted twice).
    await db.insert(enrolmentSettings).values({ companyId: tenant.companyId, withdrawalPolicy: 'refund' });
    const earlier = await inject('POST', path(classId, '/withdraw'), staff, {
      enrolment_id: place!.id,
      from: datesA[0],
    });
    expect(earlier.statusCode, earlier.body).toBe(200);
    expect((await adjustmentsOf(classId)).at(-1)).toMatchObject({ kind: 'refund_due', amount: 4000 });
    // Every session is free now: the waiting child is offered the place.
    const offered = (await placesOf(classId)).find((p) => p.childId === waiting);
    expect(offered).toMatchObject({ status: 'pending', heldFor: 'offer' });
    const [entry] = await db.select().from(classWaitlist).where(eq(classWaitlist.childId, waiting));
    expect(entry!.status).toBe('offered');

    // Nothing left to withdraw from.
    const twice = await inject('POST', path(classId, '/withdraw'), staff, {
      enrolment_id: place!.id,
      from: datesA[1],
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(says.alreadyWithdrawn('05/02/2030'));

    await db
      .update(enrolmentSettings)
      .set({ withdrawalPolicy: 'none' })
      .where(eq(enrolmentSettings.companyId, tenant.companyId));
    const other = await makeClass('Gymnastics Sunday', datesA, 3);
    await inject('POST', path(other), staff, { child_id: first });
    const [otherPlace] = await placesOf(other);
    const kept = await inject('POST', path(other, '/withdraw'), staff, {
      enrolment_id: otherPlace!.id,
      from: datesA[1],
    });
    expect(kept.json().message).toBe('Ruby Student is withdrawn from 12/02/2030.');
    expect((await adjustmentsOf(other)).map((a) => a.kind)).toEqual(['charge']);
  });

  it('offers a waitlisted child a place when staff ask, and says so when there is none', async () => {
    const { db } = t.database;
    const open = await makeClass('Parkour Monday', datesA, 1);
    const full = await makeClass('Parkour Friday', datesA, 1);
    const [zara, finn] = [await child('Zara'), await child('Finn')];
    await inject('POST', path(full), staff, { child_id: await child('Owen') });
    const [openEntry] = await db.transaction((tx) =>
      joinClassWaitlist(tx, tenant, {
        termClassId: open,
        parentId,
        childIds: [zara],
        anyNumber: false,
        source: 'staff',
      }),
    );
    const [fullEntry] = await db.transaction((tx) =>
      joinClassWaitlist(tx, tenant, {
        termClassId: full,
        parentId,
        childIds: [finn],
        anyNumber: false,
        source: 'staff',
      }),
    );
    const offered = await inject('POST', path(open, '/offer'), staff, { waitlist_id: openEntry });
    expect(offered.statusCode, offered.body).toBe(200);
    expect(offered.json().message).toBe('A place has been offered to Zara Student.');
    expect(await placesOf(open)).toMatchObject([{ childId: zara, status: 'pending', heldFor: 'offer' }]);
    const listed = (await inject('GET', path(open), staff)).json();
    expect(listed.students).toMatchObject([
      { child_name: 'Zara Student', status: 'pending', held_for: 'offer' },
    ]);

    const none = await inject('POST', path(full, '/offer'), staff, { waitlist_id: fullEntry });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(NO_FREE_PLACE);
    // An entry of another class is not this class's to offer.
    const elsewhere = await inject('POST', path(open, '/offer'), staff, { waitlist_id: fullEntry });
    expect(elsewhere.statusCode).toBe(404);
    expect((await placesOf(full)).filter((p) => p.status === 'pending')).toHaveLength(0);
  });

  it('staff mark a refund done; charges and credits are not refunds', async () => {
    const classId = await makeClass('Acro Thursday', datesA, 3);
    await inject('POST', path(classId), staff, { child_id: await child('Ada') });
    const [charge] = await adjustmentsOf(classId);
    const [refund] = await t.database.db
      .insert(enrolmentAdjustments)
      .values({ ...charge!, id: undefined, kind: 'refund_due', amount: 2000, reason: 'Withdrawn' })
      .returning();
    const dispatch = '/api/v1/admin/class-payments/dispatch/mark-done';
    const wrong = await inject('POST', dispatch, staff, { ids: [charge!.id], values: {} });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Only open refunds due can be marked done.');
    const done = await inject('POST', dispatch, staff, { ids: [refund!.id], values: {} });
    expect(done.json(), done.body).toMatchObject({ success: true, message: '1 refund marked done.' });
    const [after] = await t.database.db
      .select()
      .from(enrolmentAdjustments)
      .where(eq(enrolmentAdjustments.id, refund!.id));
    expect(after).toMatchObject({ status: 'done' });
    expect(after!.doneAt).not.toBeNull();
    const list = await inject(
      'GET',
      `/api/v1/admin/class-payments?filter=${encodeURIComponent(JSON.stringify({ term_class_id: classId }))}`,
      staff,
    );
    expect(list.json().total).toBe(2);
    // Family money is for office staff, not coaches.
    expect((await inject('GET', '/api/v1/admin/class-payments', coach)).statusCode).toBe(403);
  });

  it('answers 404 to another company and changes nothing', async () => {
    const classId = await makeClass('Private Tuesday', datesA, 3);
    const kid = await child('Eli');
    await inject('POST', path(classId), staff, { child_id: kid });
    const [place] = await placesOf(classId);
    const before = JSON.stringify([await placesOf(classId), await adjustmentsOf(classId)]);
    const calls: [string, object | undefined][] = [
      ['', undefined],
      ['', { child_id: kid }],
      ['/withdraw', { enrolment_id: place!.id, from: datesA[1] }],
      ['/transfer', { enrolment_id: place!.id, to_class_id: classId + 1, from: datesA[1] }],
    ];
    for (const [ending, payload] of calls) {
      const response = await inject(payload ? 'POST' : 'GET', path(classId, ending), foreignAdmin, payload);
      expect(response.statusCode, `${ending} ${response.body}`).toBe(404);
    }
    expect(JSON.stringify([await placesOf(classId), await adjustmentsOf(classId)])).toBe(before);

    // Nor can their ids reach into this company: their child, their class as a transfer's target.
    const { db } = t.database;
    const theirs = await createClassWithSessions(db, foreignCompanyId, { coachId: null, dates: datesA });
    const theirParent = await createUser(db, foreignCompanyId, { role: 'student' });
    const [theirChild] = await db
      .insert(children)
      .values({
        companyId: foreignCompanyId,
        parentId: theirParent.id,
        firstName: 'Tom',
        lastName: 'Other',
        dob: '2020-01-01',
      })
      .returning();
    const foreignChild = await inject('POST', path(classId), staff, { child_id: theirChild!.id });
    expect(foreignChild.statusCode).toBe(404);
    expect(foreignChild.json().message).toBe(says.childNotFound);
    const foreignTarget = await inject('POST', path(classId, '/transfer'), staff, {
      enrolment_id: place!.id,
      to_class_id: theirs.termClass.id,
      from: datesA[1],
    });
    expect(foreignTarget.statusCode).toBe(404);
    expect(JSON.stringify([await placesOf(classId), await adjustmentsOf(classId)])).toBe(before);
    expect(await placesOf(theirs.termClass.id)).toEqual([]);
    const search = await inject('GET', '/api/v1/admin/class-students/children?q=Eli', foreignAdmin);
    expect(search.json()).toEqual([]);
    const own = await inject('GET', '/api/v1/admin/class-students/children?q=eli stu', staff);
    expect(own.json()).toEqual([
      { id: kid, name: 'Eli Student', dob: '2024-03-01', parent_name: 'Pat Parent' },
    ]);
  });
});
