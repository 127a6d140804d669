import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import {
  type CompanyRow,
  createCompany,
  createUser,
  sessionFor,
  type UserRow,
} from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { registrationAnomalies, registrationForms } from '../registration/registration.tables.ts';
import { children } from '../students/students.tables.ts';
import { placesLeft } from './capacity.service.ts';
import {
  ALREADY_WAITING,
  joinClassWaitlist,
  NO_FREE_PLACE,
  offerFreedPlaces,
  offerPlace,
  TIERS,
  waitlistMessages,
  waitlistOf,
} from './class-waitlist.service.ts';
import { classWaitlist } from './class-waitlist.tables.ts';
import { classEnrolments, termClasses } from './classes.tables.ts';
import { HOLD_CLOSED, HOLD_PAYING, releaseHold, releaseLapsedHolds } from './holds.service.ts';

const DATES = ['2030-01-08', '2030-01-15', '2030-01-22'];

describe('class waitlist offers', () => {
  let t: TestContext;
  let company: CompanyRow;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db);
    tenant = new Tenant(company.id);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;

  /** A class of `capacity` with three sessions in 2030 (its own term unless `termId`). */
  async function makeClass(capacity: number, termId?: number) {
    const made = await createClassWithSessions(db(), company.id, { coachId: null, dates: DATES });
    await db()
      .update(termClasses)
      .set({ capacity, ...(termId ? { termId } : {}) })
      .where(eq(termClasses.id, made.termClass.id));
    return made;
  }

  async function parent(): Promise<UserRow> {
    return createUser(db(), company.id, { role: 'student', fullName: 'Pat Parent' });
  }

  async function child(parentId: number, firstName: string): Promise<number> {
    const [row] = await db()
      .insert(children)
      .values({ companyId: company.id, parentId, firstName, lastName: 'Family', dob: '2024-03-01' })
      .returning();
    return row!.id;
  }

  async function enrol(termClassId: number, childId: number) {
    const [row] = await db()
      .insert(classEnrolments)
      .values({ companyId: company.id, termClassId, childId, kind: 'enrolled' })
      .returning();
    return row!.id;
  }

  const withdraw = (enrolmentId: number) =>
    db().update(classEnrolments).set({ status: 'withdrawn' }).where(eq(classEnrolments.id, enrolmentId));

  const join = (termClassId: number, parentId: number, childIds: number[], anyNumber = false) =>
    db().transaction((tx) =>
      joinClassWaitlist(tx, tenant, { termClassId, parentId, childIds, anyNumber, source: 'staff' }),
    );

  async function statusOf(termClassId: number): Promise<Record<number, string>> {
    const rows = await db().select().from(classWaitlist).where(eq(classWaitlist.termClassId, termClassId));
    return Object.fromEntries(rows.map((r) => [r.childId, r.status]));
  }

  async function offerOf(childId: number, termClassId: number) {
    const [row] = await db()
      .select()
      .from(classEnrolments)
      .where(
        and(
          eq(classEnrolments.childId, childId),
          eq(classEnrolments.termClassId, termClassId),
          eq(classEnrolments.heldFor, 'offer'),
        ),
      );
    return row;
  }

  const lapse = (enrolmentId: number) =>
    db()
      .update(classEnrolments)
      .set({ holdExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(classEnrolments.id, enrolmentId));

  const free = async (termClassId: number) =>
    (await placesLeft(db(), tenant, [termClassId], '2030-01-01')).get(termClassId);

  it('offers places in priority order (current, returning, sibling, new) and an expired or declined offer goes to the next', async () => {
    const full = await makeClass(1);
    const other = await makeClass(10, full.term.id); // another class of the same term
    const earlier = await createClassWithSessions(db(), company.id, { coachId: null, dates: ['2029-07-10'] });
    const taken = await enrol(full.termClass.id, await child((await parent()).id, 'Xena'));

    const pNew = await parent();
    const pSibling = await parent();
    const pReturning = await parent();
    const pCurrent = await parent();
    const kids = {
      newcomer: await child(pNew.id, 'Nell'),
      sibling: await child(pSibling.id, 'Sam'),
      returning: await child(pReturning.id, 'Rita'),
      current: await child(pCurrent.id, 'Cole'),
    };
    await enrol(other.termClass.id, await child(pSibling.id, 'Sage')); // Sam's sister is in the term
    await enrol(earlier.termClass.id, kids.returning);
    await enrol(other.termClass.id, kids.current);
    // Joined in the reverse of their priority.
    for (const [p, id] of [
      [pNew, kids.newcomer],
      [pSibling, kids.sibling],
      [pReturning, kids.returning],
      [pCurrent, kids.current],
    ] as const)
      await join(full.termClass.id, p.id, [id]);

    const list = await waitlistOf(db(), tenant, full.termClass.id);
    expect(list.map((e) => [e.childId, e.tier])).toEqual([
      [kids.current, TIERS.current],
      [kids.returning, TIERS.returning],
      [kids.sibling, TIERS.sibling],
      [kids.newcomer, TIERS.new],
    ]);

    // Full: nothing to offer.
    await offerFreedPlaces(t.deps, tenant, [full.termClass.id]);
    expect(Object.values(await statusOf(full.termClass.id))).toEqual([
      'waiting',
      'waiting',
      'waiting',
      'waiting',
    ]);

    await withdraw(taken);
    await offerFreedPlaces(t.deps, tenant, [full.termClass.id]);
    expect(await statusOf(full.termClass.id)).toEqual({
      [kids.newcomer]: 'waiting',
      [kids.sibling]: 'waiting',
      [kids.returning]: 'waiting',
      [kids.current]: 'offered',
    });
    const offer = (await offerOf(kids.current, full.termClass.id))!;
    expect(offer).toMatchObject({ status: 'pending', kind: 'enrolled', startsOn: DATES[0] });
    const hours = (offer.holdExpiresAt!.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    // The offered place is not free for anyone else.
    expect(await free(full.termClass.id)).toBe(0);
    const [mail] = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'class-waitlist-offer'), eq(mailOutbox.toAddress, pCurrent.email)));
    expect(mail!.text).toContain(
      `http://tumble.test/registration/accept/?token=${offer.holdToken}&authhash=${company.authhash}`,
    );
    expect(mail!.text).toContain('&decline=1');
    expect(mail!.text).toContain('Cole');

    // The offer lapses: the place goes to the returning child.
    await lapse(offer.id);
    expect(await releaseLapsedHolds(t.deps)).toBe(1);
    expect(await statusOf(full.termClass.id)).toMatchObject({
      [kids.current]: 'expired',
      [kids.returning]: 'offered',
      [kids.sibling]: 'waiting',
    });
    expect((await offerOf(kids.current, full.termClass.id))!.status).toBe('cancelled');

    // Somebody else's parent cannot decline it; the family can, and the sibling is next.
    const returningOffer = (await offerOf(kids.returning, full.termClass.id))!;
    await expect(releaseHold(t.deps, tenant, returningOffer.holdToken!, pNew.id)).rejects.toThrow(
      HOLD_CLOSED,
    );
    await releaseHold(t.deps, tenant, returningOffer.holdToken!, pReturning.id);
    expect(await statusOf(full.termClass.id)).toMatchObject({
      [kids.returning]: 'declined',
      [kids.sibling]: 'offered',
      [kids.newcomer]: 'waiting',
    });
    // A second decline of the same link changes nothing.
    await expect(releaseHold(t.deps, tenant, returningOffer.holdToken!, pReturning.id)).rejects.toThrow(
      HOLD_CLOSED,
    );

    // The sibling pays (the checkout makes the place active): the job marks the offer accepted.
    const siblingOffer = (await offerOf(kids.sibling, full.termClass.id))!;
    await db()
      .update(classEnrolments)
      .set({ status: 'active', heldFor: null, holdExpiresAt: null, holdToken: null })
      .where(eq(classEnrolments.id, siblingOffer.id));
    await releaseLapsedHolds(t.deps);
    expect((await statusOf(full.termClass.id))[kids.sibling]).toBe('accepted');
    expect((await statusOf(full.termClass.id))[kids.newcomer]).toBe('waiting');
  });

  it('the household rule: two children and one place get no offer; the next family does; any number takes one', async () => {
    const cls = await makeClass(1);
    const taken = await enrol(cls.termClass.id, await child((await parent()).id, 'Tom'));
    const family = await parent();
    const twins = [await child(family.id, 'Ada'), await child(family.id, 'Bea')];
    await join(cls.termClass.id, family.id, twins);

    await withdraw(taken);
    await offerFreedPlaces(t.deps, tenant, [cls.termClass.id]);
    expect(Object.values(await statusOf(cls.termClass.id))).toEqual(['waiting', 'waiting']);
    expect(await free(cls.termClass.id)).toBe(1);

    // A family with one child who joined later is offered the place rather than it sitting empty.
    const single = await parent();
    const solo = await child(single.id, 'Cy');
    await join(cls.termClass.id, single.id, [solo]);
    await offerFreedPlaces(t.deps, tenant, [cls.termClass.id]);
    expect(await statusOf(cls.termClass.id)).toEqual({
      [twins[0]!]: 'waiting',
      [twins[1]!]: 'waiting',
      [solo]: 'offered',
    });

    // Any number will do: one of two children is offered the one place, the other keeps waiting.
    const flexible = await makeClass(1);
    const taken2 = await enrol(flexible.termClass.id, await child((await parent()).id, 'Dot'));
    const family2 = await parent();
    const pair = [await child(family2.id, 'Eve'), await child(family2.id, 'Fin')];
    await join(flexible.termClass.id, family2.id, pair, true);
    await withdraw(taken2);
    await offerFreedPlaces(t.deps, tenant, [flexible.termClass.id]);
    expect(await statusOf(flexible.termClass.id)).toEqual({ [pair[0]!]: 'offered', [pair[1]!]: 'waiting' });
    expect(await free(flexible.termClass.id)).toBe(0);
  });

  it('runs twice at once without doubling offers, and lapsed holds released twice at once offer once', async () => {
    const cls = await makeClass(1);
    const taken = await enrol(cls.termClass.id, await child((await parent()).id, 'Gil'));
    const waiting: number[] = [];
    for (const name of ['Hal', 'Ivy', 'Jo']) {
      const p = await parent();
      const id = await child(p.id, name);
      waiting.push(id);
      await join(cls.termClass.id, p.id, [id]);
    }
    await withdraw(taken);
    await Promise.all([
      offerFreedPlaces(t.deps, tenant, [cls.termClass.id]),
      offerFreedPlaces(t.deps, tenant, [cls.termClass.id]),
    ]);
    const pendingOffers = () =>
      db()
        .select()
        .from(classEnrolments)
        .where(
          and(
            eq(classEnrolments.termClassId, cls.termClass.id),
            eq(classEnrolments.status, 'pending'),
            eq(classEnrolments.heldFor, 'offer'),
          ),
        );
    expect(await pendingOffers()).toHaveLength(1);
    expect(Object.values(await statusOf(cls.termClass.id)).sort()).toEqual(['offered', 'waiting', 'waiting']);

    await lapse((await pendingOffers())[0]!.id);
    const released = await Promise.all([releaseLapsedHolds(t.deps), releaseLapsedHolds(t.deps)]);
    expect(released[0]! + released[1]!).toBe(1);
    expect(await pendingOffers()).toHaveLength(1);
    expect(await statusOf(cls.termClass.id)).toEqual({
      [waiting[0]!]: 'expired',
      [waiting[1]!]: 'offered',
      [waiting[2]!]: 'waiting',
    });
    expect(await free(cls.termClass.id)).toBe(0);
  });

  it('staff offer a place to one entry; 409 when the class has no free place; a child waits once', async () => {
    const cls = await makeClass(1);
    const taken = await enrol(cls.termClass.id, await child((await parent()).id, 'Kim'));
    const p = await parent();
    const kid = await child(p.id, 'Lou');
    const [entry] = await join(cls.termClass.id, p.id, [kid]);
    await expect(join(cls.termClass.id, p.id, [kid])).rejects.toThrow(ALREADY_WAITING);
    await expect(offerPlace(t.deps, tenant, entry!)).rejects.toThrow(NO_FREE_PLACE);
    expect((await statusOf(cls.termClass.id))[kid]).toBe('waiting');
    await withdraw(taken);
    await offerPlace(t.deps, tenant, entry!);
    expect((await statusOf(cls.termClass.id))[kid]).toBe('offered');
    expect(await free(cls.termClass.id)).toBe(0);
    // Another company's entry is not found.
    const foreign = new Tenant((await createCompany(db())).id);
    await expect(offerPlace(t.deps, foreign, entry!)).rejects.toThrow('Not found.');
  });

  describe('through the API', () => {
    let form: string;
    let cls: Awaited<ReturnType<typeof makeClass>>;
    let mum: UserRow;
    let headers: Record<string, string>;
    let kids: number[];

    beforeAll(async () => {
      cls = await makeClass(1);
      await db().update(termClasses).set({ capacity: 1 }).where(eq(termClasses.id, cls.termClass.id));
      form = `form-${cls.termClass.id}`;
      await db()
        .insert(registrationForms)
        .values({
          companyId: company.id,
          key: form,
          name: 'Term 1',
          termIds: [cls.term.id],
          published: true,
        });
      mum = await parent();
      headers = (await sessionFor(db(), mum)).headers;
      kids = [await child(mum.id, 'Mo'), await child(mum.id, 'Nia')];
    });

    const joinApi = (payload: object, h = headers) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/registration/waitlist?authhash=${company.authhash}`,
        headers: h,
        payload,
      });

    it('a parent joins a full class from the form (a class with places is enrolled in instead), and staff see an anomaly', async () => {
      const payload = { f: form, term_class_id: cls.termClass.id, children: kids, any_number: false };
      const notFull = await joinApi({ ...payload, children: [kids[0]] });
      expect(notFull.statusCode).toBe(409);
      expect(notFull.json().message).toBe(waitlistMessages.notFull);

      const other = await parent();
      const taken = await enrol(cls.termClass.id, await child(other.id, 'Oz'));
      const joined = await joinApi(payload);
      expect(joined.statusCode).toBe(200);
      expect(joined.json()).toMatchObject({ message: waitlistMessages.joined });
      expect(joined.json().ids).toHaveLength(2);
      const again = await joinApi({ ...payload, children: [kids[0]] });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(ALREADY_WAITING);
      const anomalies = await db()
        .select()
        .from(registrationAnomalies)
        .where(
          and(
            eq(registrationAnomalies.kind, 'class_full_waitlisted'),
            eq(registrationAnomalies.termClassId, cls.termClass.id),
          ),
        );
      expect(anomalies.map((a) => a.childId).sort()).toEqual([...kids].sort());

      // Bad input changes nothing and is not a 500.
      expect((await joinApi({ ...payload, children: [] })).statusCode).toBe(400);
      expect((await joinApi({ ...payload, f: 'nope' })).statusCode).toBe(404);
      const stranger = await child(other.id, 'Pip');
      expect((await joinApi({ ...payload, children: [stranger] })).statusCode).toBe(404);

      // Capacity grows by one: the household of two still waits (the household rule); by two: offered.
      await db().update(termClasses).set({ capacity: 3 }).where(eq(termClasses.id, cls.termClass.id));
      await withdraw(taken);
      await offerFreedPlaces(t.deps, tenant, [cls.termClass.id]);
      expect(await statusOf(cls.termClass.id)).toEqual({ [kids[0]!]: 'offered', [kids[1]!]: 'offered' });
    });

    it('the accept page reads the held places; another parent gets 404; No thanks releases them', async () => {
      const offer = (await offerOf(kids[0]!, cls.termClass.id))!;
      const url = `/api/v1/registration/holds?authhash=${company.authhash}&token=${offer.holdToken}`;
      const view = await t.app.inject({ method: 'GET', url, headers });
      expect(view.statusCode).toBe(200);
      expect(view.json()).toMatchObject({
        status: 'open',
        held_for: 'offer',
        form_key: form,
        places: [
          {
            child_name: 'Mo Family',
            child_id: kids[0],
            term_class_id: cls.termClass.id,
            class_name: 'Kinder Gym Tuesday',
            when: 'Tuesdays 4:00 pm – 5:00 pm',
            first_session: '08/01/2030',
          },
          { child_name: 'Nia Family' },
        ],
      });
      expect(view.json().expires_display).toMatch(/\d{4}, \d{1,2}:\d{2}/);

      // While a checkout started with the link is paying, the link says so (and cannot pay twice).
      await db()
        .update(classEnrolments)
        .set({ heldFor: 'checkout' })
        .where(eq(classEnrolments.holdToken, offer.holdToken!));
      const paying = (await t.app.inject({ method: 'GET', url, headers })).json();
      expect(paying).toMatchObject({ status: 'paying', message: HOLD_PAYING });
      await db()
        .update(classEnrolments)
        .set({ heldFor: 'offer' })
        .where(eq(classEnrolments.holdToken, offer.holdToken!));

      const stranger = (await sessionFor(db(), await parent())).headers;
      expect((await t.app.inject({ method: 'GET', url, headers: stranger })).statusCode).toBe(404);
      const foreignCompany = await createCompany(db());
      const foreignParent = await createUser(db(), foreignCompany.id, { role: 'student' });
      const foreign = (await sessionFor(db(), foreignParent)).headers;
      expect((await t.app.inject({ method: 'GET', url, headers: foreign })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);

      const release = await t.app.inject({
        method: 'POST',
        url: `/api/v1/registration/holds/release?authhash=${company.authhash}`,
        headers,
        payload: { token: offer.holdToken },
      });
      expect(release.statusCode).toBe(200);
      const after = (await t.app.inject({ method: 'GET', url, headers })).json();
      expect(after).toMatchObject({ status: 'closed', message: HOLD_CLOSED });
      expect(await statusOf(cls.termClass.id)).toEqual({ [kids[0]!]: 'declined', [kids[1]!]: 'declined' });
      const rows = await db().select().from(classEnrolments).where(inArray(classEnrolments.childId, kids));
      expect(rows.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
      const unknown = await t.app.inject({
        method: 'GET',
        url: `/api/v1/registration/holds?authhash=${company.authhash}&token=nothing`,
        headers,
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(HOLD_CLOSED);
    });
  });
});
