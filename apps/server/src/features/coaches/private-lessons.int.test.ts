import { privateLessonMessages } from '@tumble/contracts/private-lessons';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { addDays, todayIn, zonedInstant } from '../../platform/time.ts';
import { createCoach, createLeave } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createConfirmedLesson, createPrivateSlot } from '../../testing/private-lesson-fixtures.ts';
import { createChild } from '../../testing/waiver-fixtures.ts';
import { promotionalCodes } from '../billing/billing.tables.ts';
import { expireLapsedPurchases } from '../checkout/checkout.ts';
import { restrictedDates } from '../venues/venues.tables.ts';
import { privateLessonBookings, privateLessonSettings } from './private-lessons.tables.ts';

type Headers = Record<string, string>;

describe('private lessons', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let other: Awaited<ReturnType<typeof createCompany>>;
  let coachId: number;
  /** Days from today in the company's zone (a fresh company defaults to one zone for all tests). */
  const day = (n: number) => addDays(todayIn(company.timeZone), n);

  const parent = async (companyId = company.id) => {
    const user = await createUser(t.database.db, companyId, { role: 'student' });
    const kids = [
      await createChild(t.database.db, companyId, user.id, 'Mia'),
      await createChild(t.database.db, companyId, user.id, 'Leo'),
      await createChild(t.database.db, companyId, user.id, 'Ava'),
    ];
    return { user, kids, headers: (await sessionFor(t.database.db, user)).headers };
  };
  const slotOn = (
    date: string,
    overrides: { maxChildren?: number; startTime?: string; coach?: number } = {},
  ) =>
    createPrivateSlot(t.database.db, company.id, {
      coachId: overrides.coach ?? coachId,
      date,
      maxChildren: overrides.maxChildren,
      startTime: overrides.startTime,
    });
  const checkout = (headers: Headers, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/students/private-lessons/checkout',
      headers,
      payload: body,
    });
  const order = (slotId: number, date: string, childIds: number[], extra: Record<string, unknown> = {}) => ({
    slot_id: slotId,
    date,
    child_ids: childIds,
    amount: 6000,
    accept_terms: true,
    ...extra,
  });
  const available = async (headers: Headers, coach?: number) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/students/private-lessons/available${coach ? `?coach_id=${coach}` : ''}`,
        headers,
      })
    ).json() as { lessons: { slot_id: number; date: string }[] };
  const liveBookings = async (slotId: number, date: string) =>
    (
      await t.database.db
        .select({ n: count() })
        .from(privateLessonBookings)
        .where(
          and(
            eq(privateLessonBookings.slotId, slotId),
            eq(privateLessonBookings.date, date),
            inArray(privateLessonBookings.status, ['pending', 'confirmed']),
          ),
        )
    )[0]!.n;

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { paymentMethod: 'test' });
    other = await createCompany(t.database.db, { paymentMethod: 'test' });
    coachId = (await createCoach(t.database.db, company.id, { fullName: 'Casey Coach' })).coach.id;
  });
  afterAll(() => t.close());

  it('parents racing for the same lesson: exactly one booking, the others are told it was taken', async () => {
    const date = day(9);
    const slot = await slotOn(date);
    // Two parents, several times over (and ten at once), so the checkouts really overlap.
    for (const size of [2, 2, 2, 10]) {
      const when = addDays(date, 7 * (size === 10 ? 3 : 0));
      await t.database.db
        .update(privateLessonBookings)
        .set({ status: 'cancelled' })
        .where(and(eq(privateLessonBookings.slotId, slot.id), eq(privateLessonBookings.date, when)));
      const parents = await Promise.all(Array.from({ length: size }, () => parent()));
      const responses = await Promise.all(
        parents.map((p) => checkout(p.headers, order(slot.id, when, [p.kids[0]!.id]))),
      );
      const statuses = responses.map((r) => r.statusCode);
      expect(
        statuses.filter((s) => s === 200),
        JSON.stringify(statuses),
      ).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(size - 1);
      for (const refused of responses.filter((r) => r.statusCode === 409))
        expect(refused.json().message).toBe(privateLessonMessages.taken);
      expect(await liveBookings(slot.id, when)).toBe(1);
    }
    const parentA = await parent();
    expect(
      (await available(parentA.headers)).lessons.some((l) => l.slot_id === slot.id && l.date === date),
    ).toBe(false);
  });

  it('a coach’s leave blocks their slots: not offered, and refused at checkout', async () => {
    const { coach } = await createCoach(t.database.db, company.id, { fullName: 'Lee Leave' });
    const date = day(10);
    const slot = await slotOn(date, { coach: coach.id });
    const p = await parent();
    const before = (await available(p.headers, coach.id)).lessons;
    expect(before.some((l) => l.date === date)).toBe(true);
    await createLeave(t.database.db, company.id, coach.id, addDays(date, -1), addDays(date, 1));
    const after = (await available(p.headers, coach.id)).lessons;
    expect(after.some((l) => l.date === date)).toBe(false);
    // The same weekday a week later is still offered.
    expect(after.some((l) => l.date === addDays(date, 7))).toBe(true);
    const response = await checkout(p.headers, order(slot.id, date, [p.kids[0]!.id]));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(privateLessonMessages.unavailable);
    expect(await liveBookings(slot.id, date)).toBe(0);
  });

  it('a closure for every kind of booking blocks the lesson; a parties-only one does not', async () => {
    const closed = day(17);
    const partiesOnly = day(18);
    const slotA = await slotOn(closed);
    const slotB = await slotOn(partiesOnly);
    await t.database.db.insert(restrictedDates).values([
      { companyId: company.id, date: closed, reason: 'Gym closed', appliesTo: 'all' },
      { companyId: company.id, date: partiesOnly, reason: 'No parties', appliesTo: 'parties' },
    ]);
    const p = await parent();
    const lessons = (await available(p.headers)).lessons;
    expect(lessons.some((l) => l.slot_id === slotA.id && l.date === closed)).toBe(false);
    expect(lessons.some((l) => l.slot_id === slotB.id && l.date === partiesOnly)).toBe(true);
    const refused = await checkout(p.headers, order(slotA.id, closed, [p.kids[0]!.id]));
    expect(refused.statusCode).toBe(400);
    expect(await liveBookings(slotA.id, closed)).toBe(0);
  });

  it('a promotional code for classes lowers the price, and the checkout charges what the summary showed', async () => {
    await t.database.db.insert(promotionalCodes).values({
      companyId: company.id,
      code: 'PRIVATE10',
      discountType: 'percent',
      percentOff: 10,
      appliesTo: 'classes',
    });
    await t.database.db.insert(promotionalCodes).values({
      companyId: company.id,
      code: 'PARTY10',
      discountType: 'percent',
      percentOff: 10,
      appliesTo: 'parties',
    });
    const date = day(19);
    const slot = await slotOn(date);
    const p = await parent();
    const price = async (code: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/students/private-lessons/charges?slot_id=${slot.id}&date=${date}&coupon_code=${code}`,
          headers: p.headers,
        })
      ).json();
    const discounted = await price('private10');
    expect(discounted.pricing_details.coupon.value).toBe(-600);
    expect(discounted.pricing_details.amount_due.value).toBe(5400);
    expect((await price('PARTY10')).errors.invalid_coupon_code_message).toBe(
      'This coupon code is not valid.',
    );
    // The full price is refused once the code applies; the summary's amount is taken.
    const stale = await checkout(
      p.headers,
      order(slot.id, date, [p.kids[0]!.id], { coupon_code: 'PRIVATE10' }),
    );
    expect(stale.statusCode).toBe(409);
    const paid = await checkout(
      p.headers,
      order(slot.id, date, [p.kids[0]!.id], { coupon_code: 'PRIVATE10', amount: 5400 }),
    );
    expect(paid.statusCode).toBe(200);
    const [row] = await t.database.db
      .select()
      .from(privateLessonBookings)
      .where(eq(privateLessonBookings.reference, paid.json().booking_hash));
    expect(row).toMatchObject({ price: 6000, discount: 600, amountDue: 5400, couponCode: 'PRIVATE10' });
  });

  it('more children than the slot takes are refused, and nothing is booked', async () => {
    const date = day(11);
    const slot = await slotOn(date, { maxChildren: 2 });
    const p = await parent();
    const response = await checkout(
      p.headers,
      order(
        slot.id,
        date,
        p.kids.map((k) => k.id),
      ),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('This lesson takes at most 2 children.');
    expect(await liveBookings(slot.id, date)).toBe(0);
    const four = await checkout(p.headers, order(slot.id, date, [...p.kids.map((k) => k.id), 999]));
    expect(four.statusCode).toBe(400);
    expect(await liveBookings(slot.id, date)).toBe(0);
  });

  it('an unpaid hold that expired frees the lesson for the next parent', async () => {
    const date = day(12);
    const slot = await slotOn(date);
    const [a, b] = await Promise.all([parent(), parent()]);
    const first = await checkout(a.headers, order(slot.id, date, [a.kids[0]!.id]));
    expect(first.statusCode).toBe(200);
    expect((await checkout(b.headers, order(slot.id, date, [b.kids[0]!.id]))).statusCode).toBe(409);
    // The card form was left open past the hold.
    await t.database.db
      .update(privateLessonBookings)
      .set({ holdExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(privateLessonBookings.reference, first.json().booking_hash));
    expect((await available(b.headers)).lessons.some((l) => l.slot_id === slot.id && l.date === date)).toBe(
      true,
    );
    const second = await checkout(b.headers, order(slot.id, date, [b.kids[0]!.id]));
    expect(second.statusCode).toBe(200);
    const [lapsed] = await t.database.db
      .select()
      .from(privateLessonBookings)
      .where(eq(privateLessonBookings.reference, first.json().booking_hash));
    expect(lapsed!.status).toBe('expired');
    expect(await liveBookings(slot.id, date)).toBe(1);
  });

  it('the expiry job ends a lapsed hold, and the lesson is offered again', async () => {
    const date = day(13);
    const slot = await slotOn(date);
    const p = await parent();
    const held = await checkout(p.headers, order(slot.id, date, [p.kids[0]!.id]));
    expect(held.statusCode).toBe(200);
    await t.database.db
      .update(privateLessonBookings)
      .set({ holdExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(privateLessonBookings.reference, held.json().booking_hash));
    expect(await expireLapsedPurchases(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await liveBookings(slot.id, date)).toBe(0);
    expect((await available(p.headers)).lessons.some((l) => l.slot_id === slot.id && l.date === date)).toBe(
      true,
    );
  });

  it('pays with the test card, mails the date and time, and the parent cancels for credit', async () => {
    const date = day(14);
    const slot = await slotOn(date, { startTime: '09:30' });
    const p = await parent();
    const charges = await t.app.inject({
      method: 'GET',
      url: `/api/v1/students/private-lessons/charges?slot_id=${slot.id}&date=${date}&children=2`,
      headers: p.headers,
    });
    expect(charges.json().pricing_details.amount_due.value).toBe(6000);
    const body = (await checkout(p.headers, order(slot.id, date, [p.kids[0]!.id, p.kids[1]!.id]))).json();
    expect(body).toMatchObject({ valid: true, method: 'test' });
    const pay = await t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session: body.sessionId, card_number: '4242424242424242' },
    });
    expect(pay.statusCode).toBe(200);
    const [booking] = await t.database.db
      .select()
      .from(privateLessonBookings)
      .where(eq(privateLessonBookings.reference, body.booking_hash));
    expect(booking).toMatchObject({ status: 'confirmed', amountDue: 6000, holdExpiresAt: null });
    expect(booking!.code).toMatch(/^PL-/);
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'private-lesson-confirmation'), eq(mailOutbox.toAddress, p.user.email)));
    expect(mail!.text).toContain(`${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)} at 09:30`);
    expect(mail!.text).toContain('for Leo, Mia is booked');
    // The lesson as a calendar file (the mail platform attaches `ics`): 09:30 in the company's zone.
    const start = zonedInstant(date, '09:30', company.timeZone)
      .toISOString()
      .replace(/[-:]/g, '')
      .slice(0, 15);
    expect(mail!.data.ics).toContain(`DTSTART:${start}Z`);
    expect(mail!.data.ics).toContain(`UID:${booking!.code}@tumble`);
    expect(mail!.data.icsFilename).toBe('private-lesson.ics');

    const mine = (
      await t.app.inject({ method: 'GET', url: '/api/v1/students/private-lessons', headers: p.headers })
    ).json();
    expect(mine.upcoming).toHaveLength(1);
    expect(mine.upcoming[0]).toMatchObject({
      code: booking!.code,
      can_cancel: true,
      children: ['Mia Tester', 'Leo Tester'],
    });

    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/v1/students/private-lessons/${booking!.id}/cancel`,
      headers: p.headers,
    });
    expect(cancel.statusCode).toBe(200);
    const [cancelled] = await t.database.db
      .select()
      .from(privateLessonBookings)
      .where(eq(privateLessonBookings.id, booking!.id));
    expect(cancelled).toMatchObject({ status: 'cancelled', refundChoice: 'credit', cancelledBy: 'parent' });
    const [cancelMail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'private-lesson-cancelled'), eq(mailOutbox.toAddress, p.user.email)));
    expect(cancelMail!.text).toContain('The $60.00 you paid is kept as a credit for you.');
    // The lesson is free again.
    expect((await available(p.headers)).lessons.some((l) => l.slot_id === slot.id && l.date === date)).toBe(
      true,
    );
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/v1/students/private-lessons/${booking!.id}/cancel`,
      headers: p.headers,
    });
    expect(again.statusCode).toBe(400);
  });

  it('cancelling inside the company’s policy window is refused and changes nothing', async () => {
    const own = await createCompany(t.database.db, { paymentMethod: 'test' });
    const { coach } = await createCoach(t.database.db, own.id);
    await t.database.db
      .insert(privateLessonSettings)
      .values({ companyId: own.id, cancelHoursBefore: 72, cancelOutcome: 'refund' });
    const p = await parent(own.id);
    const soon = addDays(todayIn(own.timeZone), 2);
    const later = addDays(todayIn(own.timeZone), 20);
    const slot = await createPrivateSlot(t.database.db, own.id, { coachId: coach.id, date: soon });
    const laterSlot = await createPrivateSlot(t.database.db, own.id, { coachId: coach.id, date: later });
    const near = await createConfirmedLesson(t.database.db, own.id, {
      parentId: p.user.id,
      slot,
      date: soon,
      childIds: [p.kids[0]!.id],
    });
    const far = await createConfirmedLesson(t.database.db, own.id, {
      parentId: p.user.id,
      slot: laterSlot,
      date: later,
      childIds: [p.kids[0]!.id],
    });
    const mine = (
      await t.app.inject({ method: 'GET', url: '/api/v1/students/private-lessons', headers: p.headers })
    ).json();
    expect(mine.upcoming.find((l: { id: number }) => l.id === near.id)).toMatchObject({
      can_cancel: false,
      cancel_note: privateLessonMessages.tooLate,
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/v1/students/private-lessons/${near.id}/cancel`,
      headers: p.headers,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(privateLessonMessages.tooLate);
    const [still] = await t.database.db
      .select()
      .from(privateLessonBookings)
      .where(eq(privateLessonBookings.id, near.id));
    expect(still).toMatchObject({ status: 'confirmed', refundChoice: null });
    // Outside the window the company's outcome (here: refund) is recorded.
    const allowed = await t.app.inject({
      method: 'POST',
      url: `/api/v1/students/private-lessons/${far.id}/cancel`,
      headers: p.headers,
    });
    expect(allowed.statusCode).toBe(200);
    const [done] = await t.database.db
      .select()
      .from(privateLessonBookings)
      .where(eq(privateLessonBookings.id, far.id));
    expect(done).toMatchObject({ status: 'cancelled', refundChoice: 'refund' });
  });

  it('staff set the company’s one cancellation policy (a second one is refused)', async () => {
    const own = await createCompany(t.database.db, { paymentMethod: 'test' });
    const admin = (await sessionFor(t.database.db, await createUser(t.database.db, own.id))).headers;
    const save = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/v1/admin/private-lesson-policy', headers: admin, payload });
    const first = await save({ cancel_hours_before: 48, cancel_outcome: 'none' });
    expect(first.json()).toMatchObject({ valid: true });
    const second = await save({ cancel_hours_before: 12, cancel_outcome: 'refund' });
    expect(second.json().valid).toBe(false);
    expect(JSON.stringify(second.json())).toContain(
      'The company already has a cancellation policy: edit that one.',
    );
    const rows = await t.database.db
      .select()
      .from(privateLessonSettings)
      .where(eq(privateLessonSettings.companyId, own.id));
    expect(rows).toMatchObject([{ cancelHoursBefore: 48, cancelOutcome: 'none' }]);
  });

  it('staff see a leave added after booking as a clash, filter by coach and date, and cancel with a choice', async () => {
    const { coach } = await createCoach(t.database.db, company.id, { fullName: 'Robin Later' });
    const date = day(15);
    const slot = await slotOn(date, { coach: coach.id });
    const p = await parent();
    const lesson = await createConfirmedLesson(t.database.db, company.id, {
      parentId: p.user.id,
      slot,
      date,
      childIds: [p.kids[0]!.id],
    });
    await createLeave(t.database.db, company.id, coach.id, date, date);
    const staff = (
      await sessionFor(t.database.db, await createUser(t.database.db, company.id, { role: 'companystaff' }))
    ).headers;
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/private-lessons?coach_id=${coach.id}&from=${date}&to=${date}`,
      headers: staff,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().lessons).toHaveLength(1);
    expect(list.json().lessons[0]).toMatchObject({
      id: lesson.id,
      coach_on_leave: true,
      status: 'confirmed',
    });
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/private-lessons?coach_id=${coachId}&from=${date}&to=${date}`,
      headers: staff,
    });
    expect(elsewhere.json().lessons.some((l: { id: number }) => l.id === lesson.id)).toBe(false);
    for (const from of ['2026-02-30', '2026-99-99']) {
      const wrong = await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/private-lessons?from=${from}`,
        headers: staff,
      });
      expect(wrong.statusCode, from).toBe(400);
    }
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/private-lessons/${lesson.id}/cancel`,
      headers: staff,
      payload: { refund_choice: 'cash' },
    });
    expect(bad.statusCode).toBe(400);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/private-lessons/${lesson.id}/cancel`,
      headers: staff,
      payload: { refund_choice: 'refund' },
    });
    expect(cancel.statusCode).toBe(200);
    const [row] = await t.database.db
      .select()
      .from(privateLessonBookings)
      .where(eq(privateLessonBookings.id, lesson.id));
    expect(row).toMatchObject({ status: 'cancelled', refundChoice: 'refund', cancelledBy: 'staff' });
  });

  it('another company’s slot and booking ids answer 404 and change nothing', async () => {
    const date = day(16);
    const slot = await slotOn(date);
    const p = await parent();
    const lesson = await createConfirmedLesson(t.database.db, company.id, {
      parentId: p.user.id,
      slot,
      date,
      childIds: [p.kids[0]!.id],
    });
    const foreign = await parent(other.id);
    const foreignStaff = (await sessionFor(t.database.db, await createUser(t.database.db, other.id))).headers;
    const calls = [
      await checkout(foreign.headers, order(slot.id, addDays(date, 7), [foreign.kids[0]!.id])),
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/students/private-lessons/charges?slot_id=${slot.id}&date=${date}`,
        headers: foreign.headers,
      }),
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/students/private-lessons/${lesson.id}/cancel`,
        headers: foreign.headers,
      }),
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/admin/private-lessons/${lesson.id}/cancel`,
        headers: foreignStaff,
        payload: { refund_choice: 'none' },
      }),
    ];
    expect(calls.map((c) => c.statusCode)).toEqual([404, 404, 404, 404]);
    // Another parent of the same company cannot cancel it either.
    const stranger = await parent();
    const theirs = await t.app.inject({
      method: 'POST',
      url: `/api/v1/students/private-lessons/${lesson.id}/cancel`,
      headers: stranger.headers,
    });
    expect(theirs.statusCode).toBe(404);
    // A child of another parent is not yours to book for.
    const notMine = await checkout(stranger.headers, order(slot.id, addDays(date, 7), [p.kids[0]!.id]));
    expect(notMine.statusCode).toBe(404);
    const [row] = await t.database.db
      .select()
      .from(privateLessonBookings)
      .where(eq(privateLessonBookings.id, lesson.id));
    expect(row!.status).toBe('confirmed');
    expect(await liveBookings(slot.id, addDays(date, 7))).toBe(0);
    const list = (await available(foreign.headers)).lessons;
    expect(list.some((l) => l.slot_id === slot.id)).toBe(false);
  });
});
