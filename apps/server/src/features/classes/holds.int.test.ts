import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { type CompanyRow, createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { expireLapsedPurchases } from '../checkout/checkout.ts';
import { registrationForms } from '../registration/registration.tables.ts';
import { children } from '../students/students.tables.ts';
import { placesLeft } from './capacity.service.ts';
import { joinClassWaitlist, offerFreedPlaces } from './class-waitlist.service.ts';
import { classWaitlist, trialFollowUps } from './class-waitlist.tables.ts';
import { classEnrolments, classTypes, termClasses } from './classes.tables.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from './enrolments.tables.ts';
import { followUpTrials, holdPlaces, releaseLapsedHolds } from './holds.service.ts';

describe('trial conversion links', () => {
  let t: TestContext;
  let company: CompanyRow;
  let today: string;

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db);
    today = todayIn(company.timeZone);
  });
  afterAll(() => t.close());

  const db = () => t.database.db;

  /** A class with a session two days ago (the trial's) and two to come. */
  async function classWithTrial(capacity = 10) {
    const dates = [addDays(today, -2), addDays(today, 5), addDays(today, 12)];
    const made = await createClassWithSessions(db(), company.id, { coachId: null, dates });
    await db().update(termClasses).set({ capacity }).where(eq(termClasses.id, made.termClass.id));
    const parent = await createUser(db(), company.id, { role: 'student', fullName: 'Tess Trial' });
    const [kid] = await db()
      .insert(children)
      .values({
        companyId: company.id,
        parentId: parent.id,
        firstName: 'Tia',
        lastName: 'Trial',
        dob: '2022-01-01',
      })
      .returning();
    const [trial] = await db()
      .insert(classEnrolments)
      .values({
        companyId: company.id,
        termClassId: made.termClass.id,
        childId: kid!.id,
        kind: 'trial',
        sessionId: made.sessions[0]!.id,
      })
      .returning();
    return { ...made, dates, parent, kid: kid!, trial: trial! };
  }

  const holdsOf = (termClassId: number) =>
    db()
      .select()
      .from(classEnrolments)
      .where(
        and(eq(classEnrolments.termClassId, termClassId), eq(classEnrolments.heldFor, 'trial_conversion')),
      );

  const mailsTo = (email: string) =>
    db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'class-trial-follow-up'), eq(mailOutbox.toAddress, email)));

  it('after the trial, holds a place from the next session for 48 hours and mails the Enrol link once', async () => {
    const cls = await classWithTrial();
    // A trial still to come is not followed up.
    const [later] = await db()
      .insert(classEnrolments)
      .values({
        companyId: company.id,
        termClassId: cls.termClass.id,
        childId: cls.kid.id,
        kind: 'trial',
        sessionId: cls.sessions[1]!.id,
      })
      .returning();

    // Two workers at once, then a later run: one hold, one mail.
    await Promise.all([followUpTrials(t.deps), followUpTrials(t.deps)]);
    await followUpTrials(t.deps);
    const holds = await holdsOf(cls.termClass.id);
    expect(holds).toHaveLength(1);
    const hold = holds[0]!;
    expect(hold).toMatchObject({
      status: 'pending',
      kind: 'enrolled',
      childId: cls.kid.id,
      startsOn: cls.dates[1],
    });
    const hours = (hold.holdExpiresAt!.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(47.9);
    expect(hours).toBeLessThanOrEqual(48);
    const mails = await mailsTo(cls.parent.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(
      `http://tumble.test/registration/accept/?token=${hold.holdToken}&authhash=${company.authhash}`,
    );
    expect(mails[0]!.text).toContain('Tia');
    const followUps = await db()
      .select()
      .from(trialFollowUps)
      .where(eq(trialFollowUps.companyId, company.id));
    expect(followUps.map((f) => [f.trialEnrolmentId, f.holdEnrolmentId])).toEqual([[cls.trial.id, hold.id]]);
    expect(followUps.some((f) => f.trialEnrolmentId === later!.id)).toBe(false);

    // The held place counts: a class of 10 with the later trial and the hold has 8 left.
    expect(
      (await placesLeft(db(), new Tenant(company.id), [cls.termClass.id], today)).get(cls.termClass.id),
    ).toBe(8);

    // Not taken up in 48 hours: the job releases it, and no second mail follows.
    await db()
      .update(classEnrolments)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(classEnrolments.id, hold.id));
    expect(await releaseLapsedHolds(t.deps)).toBe(1);
    expect((await holdsOf(cls.termClass.id))[0]!.status).toBe('cancelled');
    await followUpTrials(t.deps);
    expect(await mailsTo(cls.parent.email)).toHaveLength(1);
  });

  it('a full class after the trial: followed up once without a hold or a mail', async () => {
    const cls = await classWithTrial(1);
    const other = await createUser(db(), company.id, { role: 'student' });
    const [kid] = await db()
      .insert(children)
      .values({
        companyId: company.id,
        parentId: other.id,
        firstName: 'Una',
        lastName: 'Full',
        dob: '2022-01-01',
      })
      .returning();
    await db()
      .insert(classEnrolments)
      .values({ companyId: company.id, termClassId: cls.termClass.id, childId: kid!.id, kind: 'enrolled' });
    await followUpTrials(t.deps);
    expect(await holdsOf(cls.termClass.id)).toHaveLength(0);
    expect(await mailsTo(cls.parent.email)).toHaveLength(0);
    const [followUp] = await db()
      .select()
      .from(trialFollowUps)
      .where(eq(trialFollowUps.trialEnrolmentId, cls.trial.id));
    expect(followUp!.holdEnrolmentId).toBeNull();
  });

  it('the Enrol link pays through the form the trial was booked through', async () => {
    const cls = await classWithTrial();
    const form = (key: string, name: string) =>
      db()
        .insert(registrationForms)
        .values({ companyId: company.id, key, name, termIds: [cls.term.id], published: true })
        .returning();
    await form(`a-${cls.termClass.id}`, 'A first form');
    const [trialForm] = await form(`z-${cls.termClass.id}`, 'Z trial form');
    const [purchase] = await db()
      .insert(enrolmentPurchases)
      .values({
        companyId: company.id,
        parentId: cls.parent.id,
        reference: `ref-${cls.trial.id}`,
        code: `EN-${cls.trial.id}`,
        status: 'confirmed',
        pricing: { total: 1000 },
        total: 1000,
        registrationFormId: trialForm!.id,
      })
      .returning();
    await db()
      .insert(enrolmentPurchaseItems)
      .values({ companyId: company.id, purchaseId: purchase!.id, enrolmentId: cls.trial.id, amount: 1000 });
    await followUpTrials(t.deps);
    const [hold] = await holdsOf(cls.termClass.id);
    const view = await t.app.inject({
      method: 'GET',
      url: `/api/v1/registration/holds?authhash=${company.authhash}&token=${hold!.holdToken}`,
      headers: (await sessionFor(db(), cls.parent)).headers,
    });
    expect(view.json()).toMatchObject({
      status: 'open',
      held_for: 'trial_conversion',
      form_key: trialForm!.key,
    });
  });
});

/**
 * A held place (a waitlist offer, a trial's "Enrol" link, a rollover place) taken up by the
 * enrolment checkout that then ends unpaid: the family keeps the place on its own hold until that
 * hold's deadline, and only a hold that lapsed meanwhile goes to the next family.
 */
describe('a checkout that took up a held place and ends unpaid', () => {
  let t: TestContext;
  let company: CompanyRow;
  let tenant: Tenant;
  let termId: number;
  let formKey: string;
  const dates = [7, 14, 21].map((d) => addDays(todayIn('Australia/Sydney'), d));

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { timeZone: 'Australia/Sydney', paymentMethod: 'test' });
    tenant = new Tenant(company.id);
    const first = await createClassWithSessions(t.database.db, company.id, { coachId: null, dates });
    termId = first.term.id;
    const [form] = await t.database.db
      .insert(registrationForms)
      .values({ companyId: company.id, key: 'held', name: 'Held', termIds: [termId], published: true })
      .returning();
    formKey = form!.key;
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  type Kind = 'offer' | 'trial_conversion' | 'rollover';

  async function family(firstName: string) {
    const parent = await createUser(db(), company.id, { role: 'student' });
    const [kid] = await db()
      .insert(children)
      .values({ companyId: company.id, parentId: parent.id, firstName, lastName: 'Held', dob: '2021-03-01' })
      .returning();
    return { parent, kid: kid!, headers: (await sessionFor(db(), parent)).headers };
  }

  /**
   * A class of one place held for Ava's family by `kind`, the way each is made: an offer to the
   * waitlist when the place frees up, a trial's link (holdPlaces), a rollover place (a pending row
   * until the re-enrolment deadline). Bea's family waits for the class behind them.
   */
  async function heldPlace(kind: Kind) {
    const made = await createClassWithSessions(db(), company.id, { coachId: null, dates });
    await db().update(classTypes).set({ price: 2000 }).where(eq(classTypes.id, made.type.id));
    await db().update(termClasses).set({ capacity: 1, termId }).where(eq(termClasses.id, made.termClass.id));
    const termClassId = made.termClass.id;
    const ava = await family('Ava');
    const bea = await family('Bea');
    const wait = (who: typeof ava) =>
      db().transaction((tx) =>
        joinClassWaitlist(tx, tenant, {
          termClassId,
          parentId: who.parent.id,
          childIds: [who.kid.id],
          anyNumber: false,
          source: 'staff',
        }),
      );
    let enrolmentId: number;
    if (kind === 'offer') {
      await wait(ava);
      await offerFreedPlaces(t.deps, tenant, [termClassId]);
      const [entry] = await db().select().from(classWaitlist).where(eq(classWaitlist.childId, ava.kid.id));
      enrolmentId = entry!.enrolmentId!;
    } else if (kind === 'trial_conversion') {
      const hold = await db().transaction((tx) =>
        holdPlaces(t.deps, tx, tenant, {
          termClassId,
          childIds: [ava.kid.id],
          startsOn: dates[0]!,
          heldFor: 'trial_conversion',
          hours: 48,
        }),
      );
      enrolmentId = hold.enrolmentIds[0]!;
    } else {
      const [row] = await db()
        .insert(classEnrolments)
        .values({
          companyId: company.id,
          termClassId,
          childId: ava.kid.id,
          kind: 'enrolled',
          startsOn: dates[0],
          status: 'pending',
          heldFor: 'rollover',
          holdToken: `rollover-${termClassId}`,
          holdExpiresAt: new Date(Date.now() + 5 * 86_400_000),
        })
        .returning();
      enrolmentId = row!.id;
    }
    await wait(bea);
    const before = await place(enrolmentId);
    expect(before).toMatchObject({ status: 'pending', heldFor: kind });
    return { termClassId, ava, bea, enrolmentId, before, token: before.holdToken! };
  }

  const place = async (id: number) =>
    (await db().select().from(classEnrolments).where(eq(classEnrolments.id, id)))[0]!;
  const left = async (termClassId: number) =>
    (await placesLeft(db(), tenant, [termClassId], dates[0]!)).get(termClassId);
  const waitlistOf = async (childId: number) =>
    (await db().select().from(classWaitlist).where(eq(classWaitlist.childId, childId)))[0];
  const url = (path: string) => `/api/v1/registration/${path}?authhash=${company.authhash}`;
  const holdView = async (token: string, headers: Record<string, string>) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/registration/holds?authhash=${company.authhash}&token=${token}`,
        headers,
      })
    ).json();

  /** The accept page's checkout: the held place with the token, priced by the quote first. */
  async function takeUp(held: Awaited<ReturnType<typeof heldPlace>>) {
    const body = {
      f: formKey,
      children: [{ id: held.ava.kid.id }],
      choices: [{ child: 0, term_class_id: held.termClassId, kind: 'enrolled' }],
      answers: [{}],
      hold_token: held.token,
    };
    const quote = await t.app.inject({
      method: 'POST',
      url: url('quote'),
      payload: body,
      headers: held.ava.headers,
    });
    if (quote.statusCode !== 200) return quote;
    return t.app.inject({
      method: 'POST',
      url: url('checkout'),
      payload: { ...body, accept_terms: true, amount: quote.json().amount_due },
      headers: held.ava.headers,
    });
  }

  const cancelCardForm = (sessionId: string) =>
    t.app.inject({ method: 'POST', url: '/integrations/test/cancel', payload: { session: sessionId } });
  const pay = (sessionId: string) =>
    t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session: sessionId, card_number: '4242424242424242' },
    });

  /** The place is back on its own hold: same kind, expiry and token; the link is open again. */
  async function expectBackOnHold(held: Awaited<ReturnType<typeof heldPlace>>, kind: Kind) {
    expect(await place(held.enrolmentId)).toMatchObject({
      status: 'pending',
      heldFor: kind,
      holdExpiresAt: held.before.holdExpiresAt,
      holdToken: held.before.holdToken,
    });
    expect(await holdView(held.token, held.ava.headers)).toMatchObject({
      status: 'open',
      held_for: kind,
      expires_at: held.before.holdExpiresAt!.toISOString(),
    });
    // Counted once, and not offered to the family waiting behind.
    expect(await left(held.termClassId)).toBe(0);
    expect((await waitlistOf(held.bea.kid.id))!.status).toBe('waiting');
    if (kind === 'offer') expect((await waitlistOf(held.ava.kid.id))!.status).toBe('offered');
  }

  /** Taken up again and paid: the place is the family's. */
  async function expectPaysAgain(held: Awaited<ReturnType<typeof heldPlace>>, kind: Kind) {
    const again = await takeUp(held);
    expect(again.statusCode, again.body).toBe(200);
    expect((await pay(again.json().sessionId)).statusCode).toBe(200);
    expect(await place(held.enrolmentId)).toMatchObject({ status: 'active', heldFor: null });
    if (kind === 'offer') {
      await releaseLapsedHolds(t.deps);
      expect((await waitlistOf(held.ava.kid.id))!.status).toBe('accepted');
    }
  }

  const KINDS: Kind[] = ['offer', 'trial_conversion', 'rollover'];

  it.each(KINDS)(
    '%s: the parent cancels the card form, keeps the place on its hold and can pay later',
    async (kind) => {
      const held = await heldPlace(kind);
      const taken = await takeUp(held);
      expect(taken.statusCode, taken.body).toBe(200);
      expect(await place(held.enrolmentId)).toMatchObject({ status: 'pending', heldFor: 'checkout' });
      expect((await holdView(held.token, held.ava.headers)).status).toBe('paying');
      // While it pays, the link is not taken up a second time.
      expect((await takeUp(held)).statusCode).toBe(409);

      const cancel = await cancelCardForm(taken.json().sessionId);
      expect(cancel.statusCode, cancel.body).toBe(200);
      // The card page returns to the link, which shows the place still held.
      const back = new URL(cancel.json().redirect);
      expect(back.pathname).toBe('/registration/accept/');
      expect(back.searchParams.get('token')).toBe(held.token);
      expect(back.searchParams.get('status')).toBe('cancelled');
      const [purchase] = await db()
        .select()
        .from(enrolmentPurchases)
        .where(eq(enrolmentPurchases.reference, taken.json().booking_hash));
      expect(purchase!.status).toBe('expired');
      await releaseLapsedHolds(t.deps);
      await expectBackOnHold(held, kind);
      await expectPaysAgain(held, kind);
    },
  );

  it.each(KINDS)(
    '%s: the checkout’s hold lapses and the expiry job gives the place back to its hold',
    async (kind) => {
      const held = await heldPlace(kind);
      const taken = await takeUp(held);
      expect(taken.statusCode, taken.body).toBe(200);
      const past = new Date(Date.now() - 1000);
      await db()
        .update(enrolmentPurchases)
        .set({ holdExpiresAt: past })
        .where(eq(enrolmentPurchases.reference, taken.json().booking_hash));
      await db()
        .update(classEnrolments)
        .set({ holdExpiresAt: past })
        .where(eq(classEnrolments.id, held.enrolmentId));
      expect(await expireLapsedPurchases(t.deps)).toBeGreaterThanOrEqual(1);
      await releaseLapsedHolds(t.deps);
      await expectBackOnHold(held, kind);
      await expectPaysAgain(held, kind);
    },
  );

  it.each(KINDS)(
    '%s: a hold whose own deadline passed during the checkout is cancelled and offered on',
    async (kind) => {
      const held = await heldPlace(kind);
      const taken = await takeUp(held);
      expect(taken.statusCode, taken.body).toBe(200);
      // The offer's 24 hours (the link's 48, the rollover deadline) ended while the card form was open.
      const [purchase] = await db()
        .select()
        .from(enrolmentPurchases)
        .where(eq(enrolmentPurchases.reference, taken.json().booking_hash));
      await db()
        .update(enrolmentPurchaseItems)
        .set({ priorHoldExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(enrolmentPurchaseItems.purchaseId, purchase!.id));
      expect((await cancelCardForm(taken.json().sessionId)).statusCode).toBe(200);
      expect(await place(held.enrolmentId)).toMatchObject({ status: 'cancelled', heldFor: null });
      expect((await holdView(held.token, held.ava.headers)).status).toBe('closed');
      if (kind === 'offer') expect((await waitlistOf(held.ava.kid.id))!.status).toBe('expired');
      // Bea's family is offered the place at once.
      const bea = await waitlistOf(held.bea.kid.id);
      expect(bea!.status).toBe('offered');
      expect(await place(bea!.enrolmentId!)).toMatchObject({ status: 'pending', heldFor: 'offer' });
      expect(await left(held.termClassId)).toBe(0);
    },
  );

  it.each(KINDS)('%s: two checkouts of one link at once take it up once', async (kind) => {
    const held = await heldPlace(kind);
    const [one, two] = await Promise.all([takeUp(held), takeUp(held)]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 409]);
    const winner = one.statusCode === 200 ? one : two;
    const items = await db()
      .select()
      .from(enrolmentPurchaseItems)
      .where(eq(enrolmentPurchaseItems.enrolmentId, held.enrolmentId));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ priorHeldFor: kind, priorHoldExpiresAt: held.before.holdExpiresAt });
    expect(await left(held.termClassId)).toBe(0);
    // Released, the place is back once; a late payment of the released checkout does not pay twice.
    expect((await cancelCardForm(winner.json().sessionId)).statusCode).toBe(200);
    await expectBackOnHold(held, kind);
  });

  it('a lapsed checkout whose place was sold meanwhile does not get it back (never oversold)', async () => {
    const held = await heldPlace('rollover');
    const taken = await takeUp(held);
    expect(taken.statusCode, taken.body).toBe(200);
    const past = new Date(Date.now() - 1000);
    await db()
      .update(enrolmentPurchases)
      .set({ holdExpiresAt: past })
      .where(eq(enrolmentPurchases.reference, taken.json().booking_hash));
    await db()
      .update(classEnrolments)
      .set({ holdExpiresAt: past })
      .where(eq(classEnrolments.id, held.enrolmentId));
    // The lapsed checkout hold stopped counting: another child took the place before the job ran.
    await db().insert(classEnrolments).values({
      companyId: company.id,
      termClassId: held.termClassId,
      childId: held.bea.kid.id,
      kind: 'enrolled',
      startsOn: dates[0],
    });
    await expireLapsedPurchases(t.deps);
    expect(await place(held.enrolmentId)).toMatchObject({ status: 'cancelled' });
    expect(await left(held.termClassId)).toBe(0);
  });
});
