import { encodeEventCode } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { payments, testCheckouts } from '../../platform/payments/payments.tables.ts';
import { settleCheckout } from '../../platform/payments/settlement.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, displayDate } from '../../platform/time.ts';
import { createBookableEvent, FUTURE_MONDAY } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createChild, createConfirmedBooking } from '../../testing/waiver-fixtures.ts';
import { coupons, insurances } from '../billing/billing.tables.ts';
import { expireLapsedPurchases as expireLapsedHolds } from '../checkout/checkout.ts';
import { children } from '../students/students.tables.ts';
import { bookingChildren, bookingPlaces, bookings, waitlistEntries } from './bookings.tables.ts';
import { checkInvitation } from './waitlist.service.ts';

type Fixture = Awaited<ReturnType<typeof createBookableEvent>>;

describe('event booking', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let other: Awaited<ReturnType<typeof createCompany>>;
  let f: Fixture;
  let e: string;

  const newParent = async (companyId = company.id) => {
    const user = await createUser(t.database.db, companyId, { role: 'student' });
    return { user, ...(await sessionFor(t.database.db, user)) };
  };

  const order = (fixture: Fixture, overrides: Record<string, unknown> = {}) => ({
    event_id: fixture.event.id,
    quantity: 1,
    booked: [fixture.cell()],
    waiting: [],
    children: [
      { first_name: 'Ada', last_name: 'Lovelace', dob: '2018-04-01', insurance_type: 'daily_insurance' },
    ],
    amount: 4500 + 300,
    accept_terms: true,
    ...overrides,
  });

  const checkout = (headers: Record<string, string>, body: unknown, authhash = company.authhash) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/booking/checkout?authhash=${authhash}`,
      headers,
      payload: body as object,
    });

  const rowCounts = async () => {
    const { db } = t.database;
    const n = async (
      table: typeof bookings | typeof children | typeof bookingPlaces | typeof waitlistEntries,
    ) => (await db.select({ n: count() }).from(table))[0]!.n;
    return {
      bookings: await n(bookings),
      children: await n(children),
      places: await n(bookingPlaces),
      waiting: await n(waitlistEntries),
    };
  };

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { paymentMethod: 'test' });
    other = await createCompany(t.database.db);
    f = await createBookableEvent(t.database.db, company.id);
    e = encodeEventCode(company.id, f.event.id);
  });
  afterAll(() => t.close());

  describe('public pages', () => {
    it('answers the event for its company and "No event data available." otherwise', async () => {
      const ok = await t.app.inject({
        method: 'GET',
        url: `/api/v1/booking?e=${e}&authhash=${company.authhash}`,
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ event: { id: f.event.id, name: 'Holiday Camp' }, bookable: true });
      for (const url of [
        `/api/v1/booking?e=${e}&authhash=${other.authhash}`,
        `/api/v1/booking?e=zz&authhash=${company.authhash}`,
        `/api/v1/booking?e=${encodeEventCode(company.id, 999999)}&authhash=${company.authhash}`,
        `/api/v1/booking?e=${e}&authhash=nope`,
        `/api/v1/booking/sessions?e=${e}&authhash=${other.authhash}`,
      ]) {
        const response = await t.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ message: messages.noEventData });
      }
    });

    it('lists the session on each weekday with its places and price', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/booking/sessions?e=${e}&authhash=${company.authhash}`,
      });
      const { days } = response.json();
      expect(Object.keys(days)).toEqual([0, 1, 2, 3, 4].map((i) => addDays(FUTURE_MONDAY, i)));
      expect(days[FUTURE_MONDAY][0]).toMatchObject({
        session_id: f.session.id,
        status: 'bookable',
        available: 5,
        price: 4500,
      });
    });

    it('prices a selection on the server, with the coupon message beside a bad code', async () => {
      const url = `/api/v1/calculate-charges-summary?authhash=${company.authhash}&type_of_registration=event&event_id=${f.event.id}&quantity=2&booked=${encodeURIComponent(f.cell())}&booked=${encodeURIComponent(f.cell(addDays(FUTURE_MONDAY, 1)))}&coupon_code=${f.coupon.code}&students[0][insurance_type]=daily_insurance&students[1][insurance_type]=full_insurance&students[1][insurance_ids][]=${f.full.id}`;
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, response.body).toBe(200);
      const details = response.json().pricing_details;
      expect(details.subtotal.value).toBe(4500 * 2 * 2);
      expect(details.insurance.value).toBe(300 * 2 + 2500);
      expect(details.coupon.value).toBe(-1800);
      expect(details.total).toMatchObject({ value: 18000 + 3100 - 1800, formatted: '$193.00' });
      const bad = await t.app.inject({
        method: 'GET',
        url: url.replace(`coupon_code=${f.coupon.code}`, 'coupon_code=NOPE'),
      });
      expect(bad.json().errors).toEqual({ invalid_coupon_code_message: 'This coupon code is not valid.' });
      expect(bad.json().pricing_details.coupon).toBeUndefined();
    });
  });

  describe('checkout', () => {
    it('holds the places, pays on the test card page, confirms once and mails the parent', async () => {
      const fixture = await createBookableEvent(t.database.db, company.id);
      const parent = await newParent();
      const response = await checkout(parent.headers, order(fixture));
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ valid: true, method: 'test' });
      expect(body.payment_link).toContain(`/payments/test?session=${body.sessionId}`);

      const sessions = await t.app.inject({
        method: 'GET',
        url: `/api/v1/booking/sessions?e=${encodeEventCode(company.id, fixture.event.id)}&authhash=${company.authhash}`,
      });
      expect(sessions.json().days[FUTURE_MONDAY][0].available).toBe(4);

      const pay = await t.app.inject({
        method: 'POST',
        url: '/integrations/test/pay',
        payload: { session: body.sessionId, card_number: '4242 4242 4242 4242' },
      });
      expect(pay.statusCode, pay.body).toBe(200);
      const [booking] = await t.database.db
        .select()
        .from(bookings)
        .where(eq(bookings.reference, body.booking_hash));
      expect(booking).toMatchObject({ status: 'confirmed', total: 4800 });
      // Delivered twice: recorded once, mailed once.
      expect(await settleCheckout(t.deps, 'test', body.sessionId)).toBe('already');
      const paid = await t.database.db
        .select()
        .from(payments)
        .where(and(eq(payments.purchaseKind, 'event'), eq(payments.purchaseId, booking!.id)));
      expect(paid).toHaveLength(1);
      expect(paid[0]).toMatchObject({ status: 'paid', amount: 4800 });
      const mails = await t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, parent.user.email));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Booking confirmed: Holiday Camp');
      expect(mails[0]!.text).toContain('Amount paid: $48.00');
    });

    it('the confirmation mail lists the waitlisted days with their place in the queue (issue 21 point 2)', async () => {
      const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 1 });
      const tuesday = fixture.cell(addDays(FUTURE_MONDAY, 1));
      // Someone else holds Tuesday's only place, so Tuesday can only be waitlisted.
      const first = await newParent();
      expect((await checkout(first.headers, order(fixture, { booked: [tuesday] }))).statusCode).toBe(200);
      const parent = await newParent();
      const response = await checkout(parent.headers, order(fixture, { waiting: [tuesday] }));
      expect(response.statusCode, response.body).toBe(200);
      const pay = await t.app.inject({
        method: 'POST',
        url: '/integrations/test/pay',
        payload: { session: response.json().sessionId, card_number: '4242 4242 4242 4242' },
      });
      expect(pay.statusCode, pay.body).toBe(200);
      const [mail] = await t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, parent.user.email));
      expect(mail!.text).toContain('You are on the waitlist for these days');
      expect(mail!.text).toContain(
        `${displayDate(addDays(FUTURE_MONDAY, 1))} Morning (number 1 in the queue)`,
      );
      expect(mail!.html).toContain('(number 1 in the queue)');
      // A booking without waitlisted days says nothing of a waitlist.
      const [firstMail] = await t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, first.user.email));
      expect(firstMail?.text ?? '').not.toContain('waitlist');
    });

    it('asks no insurance where none is sold, nor for a child holding every full-cover product (issue 21 point 6)', async () => {
      const noInsurance = { first_name: 'Ada', last_name: 'Lovelace', dob: '2018-04-01' };
      // A company that sells no insurance: the checkout goes through without a choice.
      const bare = await createCompany(t.database.db, { paymentMethod: 'test' });
      const bareEvent = await createBookableEvent(t.database.db, bare.id);
      await t.database.db
        .update(insurances)
        .set({ archivedAt: new Date() })
        .where(eq(insurances.companyId, bare.id));
      const bareParent = await newParent(bare.id);
      const sold = await checkout(
        bareParent.headers,
        order(bareEvent, { children: [noInsurance], amount: 4500 }),
        bare.authhash,
      );
      expect(sold.statusCode, sold.body).toBe(200);

      // No daily product, and the child already holds the only full-cover product.
      const fixture = await createBookableEvent(t.database.db, company.id);
      const parent = await newParent();
      const mia = await createChild(t.database.db, company.id, parent.user.id, 'Mia');
      const { booking } = await createConfirmedBooking(t.database.db, company.id, {
        parentId: parent.user.id,
        eventId: fixture.event.id,
        childIds: [mia.id],
      });
      const everyFull = await t.database.db
        .select({ id: insurances.id })
        .from(insurances)
        .where(and(eq(insurances.companyId, company.id), eq(insurances.kind, 'full')));
      await t.database.db
        .update(bookingChildren)
        .set({ insuranceIds: everyFull.map((p) => p.id) })
        .where(eq(bookingChildren.bookingId, booking.id));
      await t.database.db
        .update(insurances)
        .set({ archivedAt: new Date() })
        .where(and(eq(insurances.companyId, company.id), eq(insurances.kind, 'daily')));
      try {
        const covered = await checkout(
          parent.headers,
          order(fixture, { children: [{ id: mia.id }], amount: 4500 }),
        );
        expect(covered.statusCode, covered.body).toBe(200);
        // A new child still has to choose.
        const asked = await checkout(
          parent.headers,
          order(fixture, { children: [noInsurance], amount: 4500 }),
        );
        expect(asked.statusCode).toBe(400);
        expect(asked.json().message).toContain(messages.selectInsurance);
      } finally {
        await t.database.db
          .update(insurances)
          .set({ archivedAt: null })
          .where(and(eq(insurances.companyId, company.id), eq(insurances.kind, 'daily')));
      }
    });

    it('refuses to take test payments when TEST_PAYMENTS is off, and holds nothing', async () => {
      const live = await createTestApp({ TEST_PAYMENTS: 'false' });
      try {
        const liveCompany = await createCompany(live.database.db, { paymentMethod: 'test' });
        const fixture = await createBookableEvent(live.database.db, liveCompany.id);
        const user = await createUser(live.database.db, liveCompany.id, { role: 'student' });
        const response = await live.app.inject({
          method: 'POST',
          url: `/api/v1/booking/checkout?authhash=${liveCompany.authhash}`,
          headers: (await sessionFor(live.database.db, user)).headers,
          payload: order(fixture),
        });
        expect(response.statusCode).toBe(503);
        expect(response.json().message).toBe(
          'Card payments are not set up for this provider yet. Please contact the provider.',
        );
        const held = await live.database.db
          .select()
          .from(bookings)
          .where(eq(bookings.eventId, fixture.event.id));
        expect(held.map((b) => b.status)).toEqual(['expired']);
      } finally {
        await live.close();
      }
    });

    it('refuses a declined card and leaves the hold open', async () => {
      const fixture = await createBookableEvent(t.database.db, company.id);
      const parent = await newParent();
      const body = (await checkout(parent.headers, order(fixture))).json();
      const pay = await t.app.inject({
        method: 'POST',
        url: '/integrations/test/pay',
        payload: { session: body.sessionId, card_number: '4000 0000 0000 0002' },
      });
      expect(pay.statusCode).toBe(402);
      expect(pay.json()).toEqual({ message: 'Your card was declined.' });
      const [booking] = await t.database.db
        .select()
        .from(bookings)
        .where(eq(bookings.reference, body.booking_hash));
      expect(booking!.status).toBe('pending');

      // The parent gives up: the hold is released and the booking page says so.
      const cancel = await t.app.inject({
        method: 'POST',
        url: '/integrations/test/cancel',
        payload: { session: body.sessionId },
      });
      expect(cancel.json().redirect).toMatch(/\/booking\?authhash=.*&status=cancelled$/);
      const [released] = await t.database.db
        .select()
        .from(bookings)
        .where(eq(bookings.reference, body.booking_hash));
      expect(released!.status).toBe('expired');
    });

    it('50 parents at once for the last 5 places: exactly 5 hold, the others are told it is full', async () => {
      const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 5 });
      const parents = await Promise.all(Array.from({ length: 50 }, () => newParent()));
      const responses = await Promise.all(parents.map((p) => checkout(p.headers, order(fixture))));
      const ok = responses.filter((r) => r.statusCode === 200);
      const full = responses.filter((r) => r.statusCode === 409);
      expect(ok).toHaveLength(5);
      expect(full).toHaveLength(45);
      for (const r of full)
        expect(r.json().message).toMatch(
          /^Sorry, Morning on \d\d\/\d\d\/\d{4} is full\. Please choose another day or join the waitlist\.$/,
        );
      const [held] = await t.database.db
        .select({ n: sql<number>`coalesce(sum(${bookingPlaces.places}), 0)::int` })
        .from(bookingPlaces)
        .where(eq(bookingPlaces.sessionId, fixture.session.id));
      expect(held!.n).toBe(5);
    });

    it('checks the client amount against the server price and writes nothing when it differs', async () => {
      const parent = await newParent();
      const before = await rowCounts();
      const response = await checkout(parent.headers, order(f, { amount: 100 }));
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(
        'The price has changed to $48.00. Please check the booking summary and confirm again.',
      );
      expect(await rowCounts()).toEqual(before);
    });

    it.each([
      [
        'two of the same child',
        {
          quantity: 2,
          amount: 9600,
          children: [
            { id: 1, insurance_type: 'daily_insurance' },
            { id: 1, insurance_type: 'daily_insurance' },
          ],
        },
        messages.childrenUnique,
      ],
      [
        'a new child without a name',
        {
          children: [
            { first_name: '', last_name: 'X', dob: '2018-01-01', insurance_type: 'daily_insurance' },
          ],
        },
        messages.newChildIncomplete(1),
      ],
      [
        'a bad date of birth',
        {
          children: [
            { first_name: 'A', last_name: 'B', dob: '2018-13-45', insurance_type: 'daily_insurance' },
          ],
        },
        messages.newChildDobInvalid(1),
      ],
      [
        'no insurance choice',
        { children: [{ first_name: 'A', last_name: 'B', dob: '2018-01-01' }] },
        messages.selectInsurance,
      ],
      [
        'full insurance without a product',
        {
          children: [
            { first_name: 'A', last_name: 'B', dob: '2018-01-01', insurance_type: 'full_insurance' },
          ],
        },
        messages.selectInsurance,
      ],
      ['terms not accepted', { accept_terms: false }, messages.acceptTerms],
    ])('refuses %s with SPEC’s message and writes nothing', async (_label, overrides, message) => {
      const parent = await newParent();
      const before = await rowCounts();
      const response = await checkout(parent.headers, order(f, overrides));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
      expect(await rowCounts()).toEqual(before);
    });

    it('refuses anonymous visitors, staff, and parents of another company', async () => {
      expect((await checkout({}, order(f))).statusCode).toBe(401);
      const staff = await createUser(t.database.db, company.id, { role: 'companystaff' });
      expect((await checkout((await sessionFor(t.database.db, staff)).headers, order(f))).statusCode).toBe(
        403,
      );
      const foreign = await newParent(other.id);
      expect((await checkout(foreign.headers, order(f))).statusCode).toBe(404);
      expect((await checkout(foreign.headers, order(f), other.authhash)).statusCode).toBe(404);
    });
  });

  describe('holds', () => {
    it('releases an expired hold: the place is free again and the coupon use comes back', async () => {
      const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 1 });
      const parent = await newParent();
      const body = (
        await checkout(
          parent.headers,
          order(fixture, { coupon_code: fixture.coupon.code, amount: 4500 - 450 + 300 }),
        )
      ).json();
      expect(body.valid).toBe(true);
      const [before] = await t.database.db.select().from(coupons).where(eq(coupons.id, fixture.coupon.id));
      expect(before!.usedCount).toBe(1);
      const second = await newParent();
      expect((await checkout(second.headers, order(fixture))).statusCode).toBe(409);

      await t.database.db
        .update(bookings)
        .set({ holdExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(bookings.reference, body.booking_hash));
      expect(await expireLapsedHolds(t.deps)).toBeGreaterThanOrEqual(1);
      const [expired] = await t.database.db
        .select()
        .from(bookings)
        .where(eq(bookings.reference, body.booking_hash));
      expect(expired!.status).toBe('expired');
      const [after] = await t.database.db.select().from(coupons).where(eq(coupons.id, fixture.coupon.id));
      expect(after!.usedCount).toBe(0);
      const [checkoutRow] = await t.database.db
        .select()
        .from(testCheckouts)
        .where(eq(testCheckouts.id, body.sessionId));
      expect(checkoutRow!.status).toBe('expired');
      expect((await checkout(second.headers, order(fixture))).statusCode).toBe(200);
    });

    it('a payment that arrives after the hold lapsed confirms when the place is still free', async () => {
      const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 1 });
      const parent = await newParent();
      const body = (await checkout(parent.headers, order(fixture))).json();
      await t.database.db
        .update(bookings)
        .set({ holdExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(bookings.reference, body.booking_hash));
      // The provider took the money before our expiry ran.
      await t.database.db
        .update(testCheckouts)
        .set({ status: 'paid' })
        .where(eq(testCheckouts.id, body.sessionId));
      expect(await settleCheckout(t.deps, 'test', body.sessionId)).toBe('paid');
      const [booking] = await t.database.db
        .select()
        .from(bookings)
        .where(eq(bookings.reference, body.booking_hash));
      expect(booking!.status).toBe('confirmed');
    });

    it('a late payment whose place was taken is flagged for refund, never oversold', async () => {
      const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 1 });
      const first = await newParent();
      const late = (await checkout(first.headers, order(fixture))).json();
      await t.database.db
        .update(bookings)
        .set({ holdExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(bookings.reference, late.booking_hash));
      const second = await newParent();
      const taken = (await checkout(second.headers, order(fixture))).json();
      await t.app.inject({
        method: 'POST',
        url: '/integrations/test/pay',
        payload: { session: taken.sessionId, card_number: '4242424242424242' },
      });

      await t.database.db
        .update(testCheckouts)
        .set({ status: 'paid' })
        .where(eq(testCheckouts.id, late.sessionId));
      expect(await settleCheckout(t.deps, 'test', late.sessionId)).toBe('refund_due');
      expect(await settleCheckout(t.deps, 'test', late.sessionId)).toBe('already');
      const [booking] = await t.database.db
        .select()
        .from(bookings)
        .where(eq(bookings.reference, late.booking_hash));
      expect(booking!.status).toBe('refund_due');
      const [payment] = await t.database.db
        .select()
        .from(payments)
        .where(eq(payments.providerRef, late.sessionId));
      expect(payment!.status).toBe('refund_due');
      const confirmed = await t.database.db
        .select({ n: sql<number>`coalesce(sum(${bookingPlaces.places}), 0)::int` })
        .from(bookingPlaces)
        .innerJoin(bookings, eq(bookings.id, bookingPlaces.bookingId))
        .where(sql`${bookingPlaces.sessionId} = ${fixture.session.id} and ${bookings.status} = 'confirmed'`);
      expect(confirmed[0]!.n).toBe(1);
      const staffMail = await t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.kind, 'refund-due'));
      expect(staffMail.some((m) => m.text.includes(late.booking_hash))).toBe(true);
    });
  });

  describe('waitlist', () => {
    it('waitlists a full day, invites the first in line when a hold lapses, and honours decline', async () => {
      const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 1 });
      const holder = await newParent();
      const held = (await checkout(holder.headers, order(fixture))).json();
      const first = await newParent();
      const second = await newParent();
      for (const p of [first, second]) {
        const r = await checkout(
          p.headers,
          order(fixture, {
            booked: [],
            waiting: [fixture.cell()],
            amount: 0,
            children: [{ first_name: 'W', last_name: 'L', dob: '2017-02-02' }],
          }),
        );
        expect(r.json(), r.body).toMatchObject({ valid: true });
      }
      await t.database.db
        .update(bookings)
        .set({ holdExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(bookings.reference, held.booking_hash));
      await expireLapsedHolds(t.deps);

      const invitations = await t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.kind, 'waitlist-invitation'));
      const mine = invitations.filter((m) => [first.user.email, second.user.email].includes(m.toAddress));
      expect(mine.map((m) => m.toAddress)).toEqual([first.user.email]);
      const link = new URL(/https?:\/\/\S+/.exec(mine[0]!.text)![0]);
      const [w, b] = [link.searchParams.get('w')!, link.searchParams.get('b')!];
      const tenant = new Tenant(company.id);
      // The invitation says which event, session and day the place is for (issue 21 point 4).
      expect(await checkInvitation(t.deps, tenant, w, b)).toEqual({
        valid: true,
        place: {
          event_name: 'Holiday Camp',
          session_name: 'Morning',
          date: FUTURE_MONDAY,
          places: 1,
          cell: fixture.cell(),
        },
      });
      // The invited place is held for them: another parent finds the day full, the invited one bookable.
      const stranger = await newParent();
      expect((await checkout(stranger.headers, order(fixture))).statusCode).toBe(409);
      const code = encodeEventCode(company.id, fixture.event.id);
      const seenBy = async (headers: Record<string, string>) =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/v1/booking/sessions?e=${code}&authhash=${company.authhash}`,
            headers,
          })
        ).json().days[FUTURE_MONDAY][0];
      expect(await seenBy(stranger.headers)).toMatchObject({ status: 'full', available: 0 });
      expect(await seenBy(first.headers)).toMatchObject({ status: 'bookable', available: 1 });

      const query = `authhash=${company.authhash}&w=${w}&e=${encodeEventCode(company.id, fixture.event.id)}&b=${b}`;
      const decline = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/wait-list/invitation/decline?${query}`,
      });
      expect(decline.json()).toEqual({ valid: true });
      expect(
        (
          await t.app.inject({ method: 'GET', url: `/api/v1/events/wait-list/invitation/check?${query}` })
        ).json().valid,
      ).toBe(false);
      const next = await t.database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, second.user.email));
      expect(next.map((m) => m.kind)).toEqual(['waitlist-invitation']);
    });
  });
});
