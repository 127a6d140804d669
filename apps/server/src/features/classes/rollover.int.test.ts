import type { MyReEnrolment, RolloverPlan, RolloverRun, TermRollovers } from '@tumble/contracts/rollover';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createConfirmedBooking } from '../../testing/waiver-fixtures.ts';
import { bookings } from '../bookings/bookings.tables.ts';
import { registrationForms } from '../registration/registration.tables.ts';
import { children } from '../students/students.tables.ts';
import { placesLeft } from './capacity.service.ts';
import { joinClassWaitlist } from './class-waitlist.service.ts';
import { classEnrolments, classSessions, classTypes, termClasses, terms } from './classes.tables.ts';
import { enrolmentPurchases } from './enrolments.tables.ts';
import { releaseLapsedHolds } from './holds.service.ts';
import { rolloverItems, rollovers } from './rollover.tables.ts';

type Headers = { headers: Record<string, string> };

/** Tuesdays of term B (1 January 2030 is a Tuesday). */
const B_DATES = ['2030-04-23', '2030-04-30', '2030-05-07'];
const REQUEST = { deadline_date: '2030-04-20', deadline_time: '18:00' };

describe('re-enrolment: rolling term A into term B', () => {
  let t: TestContext;
  let tenant: Tenant;
  let authhash: string;
  let staff: Headers;
  let otherStaff: Headers;
  let parents: { id: number; session: Headers }[];
  let termA: number;
  let termB: number;
  let foreignTerm: number;
  let kinderB: number;
  let ninjaB: number;
  const kid: Record<string, number> = {};

  const inject = async <T>(method: 'GET' | 'POST', url: string, who: Headers, payload?: object) => {
    const response = await t.app.inject({ method, url, headers: who.headers, payload });
    return { status: response.statusCode, body: response.json() as T };
  };
  const preview = (who = staff, body: object = { to_term_id: termB, ...REQUEST }) =>
    inject<RolloverPlan>('POST', `/api/v1/admin/terms/${termA}/rollovers/preview`, who, body);

  /** Commits and waits for the run to finish, as the screen does by polling. */
  async function commit(): Promise<RolloverRun> {
    const started = await inject<RolloverRun>('POST', `/api/v1/admin/terms/${termA}/rollovers`, staff, {
      to_term_id: termB,
      ...REQUEST,
    });
    expect(started.status).toBe(200);
    for (let i = 0; i < 200; i++) {
      const run = await inject<RolloverRun>('GET', `/api/v1/admin/rollovers/${started.body.id}`, staff);
      if (run.body.status !== 'running') return run.body;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the rollover did not finish');
  }

  /** Every row a rollover writes or changes: places (with status) and items. */
  async function fingerprint() {
    const { db } = t.database;
    const places = await db.execute(
      sql`select id, status, held_for, hold_token from class_enrolments where company_id = ${tenant.companyId} order by id`,
    );
    const items = await db.execute(
      sql`select id, undone_at from rollover_items where company_id = ${tenant.companyId} order by id`,
    );
    const runs = await db.execute(sql`select id, status from rollovers order by id`);
    return JSON.stringify([places.rows, items.rows, runs.rows]);
  }

  const left = async () =>
    Object.fromEntries(await placesLeft(t.database.db, tenant, [kinderB, ninjaB], '2030-04-01'));

  const outcomes = (plan: RolloverPlan) =>
    Object.fromEntries(
      plan.items.map((i) => [
        i.child.name.split(' ')[0],
        `${i.outcome}${i.to_class ? ` → ${i.to_class.name}` : ''}`,
      ]),
    );

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db);
    tenant = new Tenant(company.id);
    authhash = encodeURIComponent(company.authhash);
    staff = await sessionFor(db, await createUser(db, company.id));
    const other = await createCompany(db);
    otherStaff = await sessionFor(db, await createUser(db, other.id));
    const [theirs] = await db
      .insert(terms)
      .values({ companyId: other.id, name: 'Theirs', startDate: '2030-04-22', endDate: '2030-06-28' })
      .returning();
    foreignTerm = theirs!.id;

    parents = [];
    for (let i = 0; i < 5; i++) {
      const user = await createUser(db, company.id, { role: 'student', fullName: `Parent ${i}` });
      parents.push({ id: user.id, session: await sessionFor(db, user) });
    }
    // Parent 3 has a checkout that lapsed unpaid: an unpaid balance.
    await db.insert(enrolmentPurchases).values(
      tenant.values({
        parentId: parents[3]!.id,
        reference: `ref-${company.id}`,
        code: 'EN-UNPAID',
        status: 'pending' as const,
        pricing: {},
        total: 5000,
        holdExpiresAt: new Date(Date.now() - 60_000),
      }),
    );

    // Parent 4 is owed a refund on an event booking: an unpaid balance too.
    const { event } = await createBookableEvent(db, company.id);
    const [eventChild] = await db
      .insert(children)
      .values(
        tenant.values({ parentId: parents[4]!.id, firstName: 'Lou', lastName: 'Test', dob: '2020-01-01' }),
      )
      .returning();
    const { booking } = await createConfirmedBooking(db, company.id, {
      parentId: parents[4]!.id,
      eventId: event.id,
      childIds: [eventChild!.id],
    });
    await db.update(bookings).set({ status: 'refund_due' }).where(eq(bookings.id, booking.id));

    const [kinder, ninja] = await db
      .insert(classTypes)
      .values([
        tenant.values({ name: 'Kinder Gym', ageMinMonths: 24, ageMaxMonths: 72 }),
        tenant.values({ name: 'Ninja Kids' }),
      ])
      .returning();
    const [a, b] = await db
      .insert(terms)
      .values([
        tenant.values({ name: 'Term 1 2030', startDate: '2030-01-28', endDate: '2030-04-12' }),
        tenant.values({ name: 'Term 2 2030', startDate: '2030-04-22', endDate: '2030-06-28' }),
      ])
      .returning();
    termA = a!.id;
    termB = b!.id;
    const klass = async (termId: number, typeId: number, name: string, startTime: string, capacity = 10) =>
      (
        await db
          .insert(termClasses)
          .values(
            tenant.values({
              termId,
              classTypeId: typeId,
              name,
              weekday: 2,
              startTime,
              durationMinutes: 45,
              capacity,
            }),
          )
          .returning()
      )[0]!.id;
    const kinderA = await klass(termA, kinder!.id, 'Kinder Tue 4pm', '16:00');
    const lateA = await klass(termA, kinder!.id, 'Kinder Tue 5pm', '17:00');
    const ninjaA = await klass(termA, ninja!.id, 'Ninja Tue 4pm', '16:00');
    kinderB = await klass(termB, kinder!.id, 'Kinder Tue 4pm (T2)', '16:00', 2);
    ninjaB = await klass(termB, ninja!.id, 'Ninja Tue 4pm (T2)', '16:00');
    for (const id of [kinderB, ninjaB])
      await db
        .insert(classSessions)
        .values(
          B_DATES.map((date) =>
            tenant.values({ termClassId: id, slotDate: date, date, startTime: '16:00', durationMinutes: 45 }),
          ),
        );

    const child = async (name: string, parent: number, dob = '2026-01-01') => {
      const [row] = await db
        .insert(children)
        .values(tenant.values({ parentId: parents[parent]!.id, firstName: name, lastName: 'Test', dob }))
        .returning();
      kid[name] = row!.id;
      return row!.id;
    };
    const enrol = async (
      termClassId: number,
      childId: number,
      extra: Partial<typeof classEnrolments.$inferInsert> = {},
    ) =>
      db
        .insert(classEnrolments)
        .values(tenant.values({ termClassId, childId, kind: 'enrolled' as const, ...extra }));

    // Term B's Kinder class already has one of its two places taken.
    await enrol(kinderB, await child('Early', 2));
    await enrol(kinderA, await child('Ava', 0));
    await enrol(kinderA, await child('Ben', 1));
    await enrol(kinderA, await child('Cal', 2));
    await enrol(kinderA, await child('Dan', 1, '2020-01-01')); // 10 years old in term B
    await enrol(lateA, await child('Eve', 1));
    await enrol(ninjaA, await child('Fin', 1));
    await enrol(ninjaA, await child('Gus', 2), { withdrawnFrom: '2030-03-03' }); // left during term A
    await enrol(ninjaA, await child('Hal', 3));
    await enrol(ninjaA, await child('Ivy', 0)); // Ava's sister
    await enrol(ninjaA, await child('Jo', 2), { status: 'cancelled' });
    await enrol(ninjaA, await child('Kim', 4));
  });

  afterAll(() => t.close());

  let firstPlan: RolloverPlan;

  it('the dry run maps every enrolment and reports each conflict, writing nothing', async () => {
    const before = await fingerprint();
    const plan = await preview();
    expect(plan.status).toBe(200);
    firstPlan = plan.body;
    expect(outcomes(plan.body)).toEqual({
      Ava: 'hold → Kinder Tue 4pm (T2)',
      Ben: 'full → Kinder Tue 4pm (T2)',
      Cal: 'full → Kinder Tue 4pm (T2)',
      Dan: 'ages_out → Kinder Tue 4pm (T2)',
      Eve: 'not_offered',
      Fin: 'hold → Ninja Tue 4pm (T2)',
      Hal: 'unpaid → Ninja Tue 4pm (T2)',
      Ivy: 'hold → Ninja Tue 4pm (T2)',
      Kim: 'unpaid → Ninja Tue 4pm (T2)',
    });
    expect(plan.body.totals).toEqual({ enrolments: 9, hold: 3, already_held: 0, conflicts: 6 });
    expect(await fingerprint()).toBe(before);
  });

  let run: RolloverRun;

  it('commit holds exactly what the dry run showed, one link per family, and mails each family', async () => {
    run = await commit();
    expect(run.status).toBe('done');
    expect(run.done).toBe(run.total);
    const held = firstPlan.items.filter((i) => i.outcome === 'hold');
    expect(run.items.map((i) => [i.child.id, i.to_class.id, i.state]).sort()).toEqual(
      held.map((i) => [i.child.id, i.to_class!.id, 'held']).sort(),
    );
    const places = await t.database.db
      .select()
      .from(classEnrolments)
      .where(tenant.where(classEnrolments, eq(classEnrolments.heldFor, 'rollover')));
    expect(places).toHaveLength(3);
    for (const p of places) {
      expect(p).toMatchObject({ status: 'pending', kind: 'enrolled', startsOn: '2030-04-23' });
      expect(p.holdExpiresAt?.toISOString()).toBe('2030-04-20T08:00:00.000Z'); // 6pm Sydney
    }
    const token = (name: string) => places.find((p) => p.childId === kid[name])!.holdToken;
    expect(token('Ava')).toBe(token('Ivy'));
    expect(token('Fin')).not.toBe(token('Ava'));

    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(tenant.where(mailOutbox, eq(mailOutbox.kind, 're-enrolment')));
    expect(mails).toHaveLength(2);
    const avas = mails.find((m) => m.text.includes('Ava Test'))!;
    expect(avas.text).toContain('Ivy Test: Ninja Tue 4pm (T2), Tuesdays 16:00 from 23/04/2030');
    expect(avas.text).toContain(
      `http://tumble.test/registration/accept/?token=${token('Ava')}&authhash=${authhash}\n`,
    );
    expect(avas.text).toContain(`/registration/accept/?token=${token('Ava')}&authhash=${authhash}&decline=1`);
  });

  it('held places count toward term B: the full class has none left', async () => {
    expect(await left()).toEqual({ [kinderB]: 0, [ninjaB]: 8 });
  });

  it('a second commit changes nothing and the dry run now shows the places as held', async () => {
    const before = await fingerprint();
    const again = await commit();
    expect(again.id).toBe(run.id);
    expect(again.items).toHaveLength(3);
    const after = JSON.parse(await fingerprint());
    const was = JSON.parse(before);
    expect([after[0], after[1]]).toEqual([was[0], was[1]]);
    expect(await t.database.db.$count(rollovers, eq(rollovers.companyId, tenant.companyId))).toBe(1);
    const plan = await preview();
    expect(plan.body.totals).toEqual({ enrolments: 9, hold: 0, already_held: 3, conflicts: 6 });
  });

  it('the parent sees the family’s held places with the deadline and the confirm link', async () => {
    const mine = await inject<MyReEnrolment>('GET', '/api/v1/students/re-enrol', parents[0]!.session);
    expect(mine.status).toBe(200);
    expect(mine.body.holds).toHaveLength(1);
    const [hold] = mine.body.holds;
    expect(hold!.deadline).toBe('2030-04-20T08:00:00.000Z');
    expect(hold!.deadline_display).toBe('20 Apr 2030, 6:00 pm');
    expect(hold!.places.map((p) => p.child).sort()).toEqual(['Ava Test', 'Ivy Test']);
    expect(hold!.confirm_url).toMatch(/^\/registration\/accept\/\?token=[\w-]+&authhash=/);
    // Another family's token is not theirs to release.
    const other = await inject('POST', '/api/v1/students/re-enrol/release', parents[1]!.session, {
      token: hold!.token,
    });
    expect(other.status).toBe(404);
    expect((await left())[kinderB]).toBe(0);
  });

  it('a parent who confirms and pays, then cancels the card form, keeps the places until the deadline', async () => {
    const { db } = t.database;
    const [form] = await db
      .insert(registrationForms)
      .values(tenant.values({ key: 'term-2', name: 'Term 2', termIds: [termB], published: true }))
      .returning();
    await db.update(classTypes).set({ price: 2000 }).where(eq(classTypes.companyId, tenant.companyId));
    // Term B open for enrolment on the form (as it is when parents confirm), put back afterwards.
    const [b] = await db.select().from(terms).where(eq(terms.id, termB));
    await db.update(terms).set({ status: 'open' }).where(eq(terms.id, termB));
    const mine = await inject<MyReEnrolment>('GET', '/api/v1/students/re-enrol', parents[0]!.session);
    const [hold] = mine.body.holds;
    // The accept page's checkout: every held place of the link, with its token.
    const body = {
      f: form!.key,
      children: [{ id: kid.Ava }, { id: kid.Ivy }],
      choices: [
        { child: 0, term_class_id: kinderB, kind: 'enrolled' },
        { child: 1, term_class_id: ninjaB, kind: 'enrolled' },
      ],
      answers: [{}, {}],
      hold_token: hold!.token,
    };
    const quote = await t.app.inject({
      method: 'POST',
      url: `/api/v1/registration/quote?authhash=${authhash}`,
      payload: body,
      headers: parents[0]!.session.headers,
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const paying = await t.app.inject({
      method: 'POST',
      url: `/api/v1/registration/checkout?authhash=${authhash}`,
      payload: { ...body, accept_terms: true, amount: quote.json().amount_due },
      headers: parents[0]!.session.headers,
    });
    expect(paying.statusCode, paying.body).toBe(200);
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/integrations/test/cancel',
      payload: { session: paying.json().sessionId },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await releaseLapsedHolds(t.deps);

    // Still held until the deadline: the run, the parent's list and the count say so.
    const now = await inject<RolloverRun>('GET', `/api/v1/admin/rollovers/${run.id}`, staff);
    expect(now.body.items.map((i) => i.state)).toEqual(['held', 'held', 'held']);
    const again = await inject<MyReEnrolment>('GET', '/api/v1/students/re-enrol', parents[0]!.session);
    expect(again.body.holds).toEqual(mine.body.holds);
    expect((await left())[kinderB]).toBe(0);
    await db.update(terms).set({ status: b!.status }).where(eq(terms.id, termB));
  });

  it('undo puts everything back as it was before the commit', async () => {
    const undone = await inject<RolloverRun>('POST', `/api/v1/admin/rollovers/${run.id}/undo`, staff);
    expect(undone.status).toBe(200);
    expect(undone.body.status).toBe('undone');
    expect(undone.body.counts).toMatchObject({ held: 0, undone: 3 });
    expect(await left()).toEqual({ [kinderB]: 1, [ninjaB]: 10 });
    expect((await preview()).body).toEqual(firstPlan);
    const twice = await inject<{ message: string }>('POST', `/api/v1/admin/rollovers/${run.id}/undo`, staff);
    expect(twice).toEqual({ status: 409, body: { message: 'This rollover has already been undone.' } });
  });

  it('after an undo a new run holds again; a released place reads released, a paid one confirmed', async () => {
    const second = await commit();
    expect(second.id).not.toBe(run.id);
    expect(second.counts.held).toBe(3);
    const places = await t.database.db
      .select()
      .from(classEnrolments)
      .where(
        tenant.where(
          classEnrolments,
          eq(classEnrolments.heldFor, 'rollover'),
          eq(classEnrolments.status, 'pending'),
        ),
      );
    // The checkout confirmed Fin's place (the accept page pays through the one pipeline).
    const fins = places.find((p) => p.childId === kid.Fin)!;
    await t.database.db
      .update(classEnrolments)
      .set({ status: 'active' })
      .where(eq(classEnrolments.id, fins.id));
    // Ava's family releases theirs.
    const avas = places.find((p) => p.childId === kid.Ava)!;
    const released = await inject<MyReEnrolment>(
      'POST',
      '/api/v1/students/re-enrol/release',
      parents[0]!.session,
      {
        token: avas.holdToken,
      },
    );
    expect(released.status).toBe(200);
    expect(released.body.holds).toEqual([]);
    const now = await inject<RolloverRun>('GET', `/api/v1/admin/rollovers/${second.id}`, staff);
    const state = Object.fromEntries(now.body.items.map((i) => [i.child.name, i.state]));
    expect(state).toEqual({ 'Ava Test': 'released', 'Fin Test': 'confirmed', 'Ivy Test': 'released' });
    expect(now.body.counts).toEqual({ held: 0, confirmed: 1, released: 2, undone: 0 });
  });

  it('two commits at once make one run; a child already enrolled in the class is not held again', async () => {
    const [live] = await t.database.db
      .select()
      .from(rollovers)
      .where(and(eq(rollovers.companyId, tenant.companyId), eq(rollovers.status, 'done')));
    const undo = await inject('POST', `/api/v1/admin/rollovers/${live!.id}/undo`, staff);
    expect(undo.status).toBe(200);
    const body = { to_term_id: termB, ...REQUEST };
    const url = `/api/v1/admin/terms/${termA}/rollovers`;
    const [one, two] = await Promise.all([
      inject<RolloverRun>('POST', url, staff, body),
      inject<RolloverRun>('POST', url, staff, body),
    ]);
    expect(one.body.id).toBe(two.body.id);
    const run = await commit();
    expect(run.id).toBe(one.body.id);
    expect(run.items.map((i) => i.child.name).sort()).toEqual(['Ava Test', 'Ivy Test']);
    const plan = await preview();
    expect(outcomes(plan.body).Fin).toBe('already_enrolled → Ninja Tue 4pm (T2)');
  });

  it('at the deadline the holds job releases unconfirmed places to the waitlist; the run reads them released and can no longer be undone', async () => {
    const { db } = t.database;
    // Wendy waits for the full Kinder class of term B.
    const wendyParent = parents[1]!.id;
    const [wendy] = await db
      .insert(children)
      .values(
        tenant.values({ parentId: wendyParent, firstName: 'Wendy', lastName: 'Test', dob: '2026-02-01' }),
      )
      .returning();
    await db.transaction((tx) =>
      joinClassWaitlist(tx, tenant, {
        termClassId: kinderB,
        parentId: wendyParent,
        childIds: [wendy!.id],
        anyNumber: false,
        source: 'staff',
      }),
    );
    expect((await left())[kinderB]).toBe(0);
    // The deadline passes.
    const past = new Date(Date.now() - 60_000);
    const [run] = await db
      .update(rollovers)
      .set({ deadline: past })
      .where(and(eq(rollovers.companyId, tenant.companyId), eq(rollovers.status, 'done')))
      .returning();
    await db
      .update(classEnrolments)
      .set({ holdExpiresAt: past })
      .where(
        tenant.where(
          classEnrolments,
          eq(classEnrolments.heldFor, 'rollover'),
          eq(classEnrolments.status, 'pending'),
        ),
      );
    await releaseLapsedHolds(t.deps);
    const now = await inject<RolloverRun>('GET', `/api/v1/admin/rollovers/${run!.id}`, staff);
    expect(now.body.items.map((i) => [i.child.name, i.state])).toEqual([
      ['Ava Test', 'released'],
      ['Ivy Test', 'released'],
    ]);
    expect(now.body.can_undo).toBe(false);
    const [offer] = await db
      .select()
      .from(classEnrolments)
      .where(tenant.where(classEnrolments, eq(classEnrolments.childId, wendy!.id)));
    expect(offer).toMatchObject({ termClassId: kinderB, status: 'pending', heldFor: 'offer' });
    const late = await inject('POST', `/api/v1/admin/rollovers/${run!.id}/undo`, staff);
    expect(late).toEqual({
      status: 409,
      body: { message: 'The deadline has passed, so this rollover can no longer be undone.' },
    });
  });

  it('bad input is refused with a clear message and writes nothing', async () => {
    const before = await fingerprint();
    const past = await preview(staff, {
      to_term_id: termB,
      deadline_date: '2020-01-01',
      deadline_time: '10:00',
    });
    expect(past).toEqual({ status: 400, body: { message: 'The deadline must be in the future.' } });
    const same = await preview(staff, { to_term_id: termA, ...REQUEST });
    expect(same).toEqual({ status: 400, body: { message: 'Please choose another term to roll into.' } });
    await t.database.db.update(terms).set({ status: 'closed' }).where(eq(terms.id, termB));
    const closed = await preview();
    expect(closed).toEqual({
      status: 400,
      body: { message: 'Term 2 2030 is closed: choose a term that is not closed.' },
    });
    const offered = async () =>
      (
        await inject<TermRollovers>('GET', `/api/v1/admin/terms/${termA}/rollovers`, staff)
      ).body.next_terms.map((n) => n.id);
    expect(await offered()).toEqual([]);
    await t.database.db.update(terms).set({ status: 'open' }).where(eq(terms.id, termB));
    expect(await offered()).toEqual([termB]);
    const late = await inject('POST', `/api/v1/admin/terms/${termA}/rollovers`, staff, {
      to_term_id: termB,
      deadline_date: '2031-01-01',
      deadline_time: '10:00',
    });
    expect(late.status).toBe(400);
    expect(await fingerprint()).toBe(before);
  });

  it("another company's terms and runs answer 404 and nothing changes", async () => {
    const before = await fingerprint();
    const [live] = await t.database.db
      .select()
      .from(rollovers)
      .where(and(eq(rollovers.companyId, tenant.companyId), eq(rollovers.status, 'done')));
    expect((await preview(otherStaff)).status).toBe(404);
    expect((await inject('GET', `/api/v1/admin/terms/${termA}/rollovers`, otherStaff)).status).toBe(404);
    expect(
      (
        await inject('POST', `/api/v1/admin/terms/${termA}/rollovers`, otherStaff, {
          to_term_id: termB,
          ...REQUEST,
        })
      ).status,
    ).toBe(404);
    expect((await inject('GET', `/api/v1/admin/rollovers/${live!.id}`, otherStaff)).status).toBe(404);
    expect((await inject('POST', `/api/v1/admin/rollovers/${live!.id}/undo`, otherStaff)).status).toBe(404);
    // Our term into their term.
    expect((await preview(staff, { to_term_id: foreignTerm, ...REQUEST })).status).toBe(404);
    expect(
      (
        await inject('POST', `/api/v1/admin/terms/${termA}/rollovers`, staff, {
          to_term_id: foreignTerm,
          ...REQUEST,
        })
      ).status,
    ).toBe(404);
    expect(await fingerprint()).toBe(before);
    expect(await t.database.db.$count(rolloverItems)).toBeGreaterThan(0);
  });
});
