import { encodeEventCode } from '@tumble/contracts/booking';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays } from '../../platform/time.ts';
import { createBookableEvent, FUTURE_MONDAY } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import {
  couponRedemptions,
  coupons,
  nswSettings,
  paymentTerms,
  promotionalCodes,
} from '../billing/billing.tables.ts';
import { bookings, waitlistEntries } from '../bookings/bookings.tables.ts';
import { eventSessions, events } from '../events/events.tables.ts';
import { partyBookings } from '../parties/parties.tables.ts';

/** The purchase pipeline (decision 010) across kinds of sale, against the real database. */
describe('purchase pipeline', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let party: Awaited<ReturnType<typeof createPartySetup>>;
  const day = (n: number) => addDays(new Date().toISOString().slice(0, 10), n);
  let nextPartyDay = 40;

  const newParent = async () => {
    const user = await createUser(t.database.db, company.id, { role: 'student' });
    return { user, ...(await sessionFor(t.database.db, user)) };
  };
  const summary = async (query: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/calculate-charges-summary?authhash=${company.authhash}&${query}`,
    });

  /** An event checkout body for one child on `cells`, priced by the summary (with `coupon`). */
  const eventOrder = async (
    fixture: Awaited<ReturnType<typeof createBookableEvent>>,
    extra: { coupon?: string; booked?: string[]; waiting?: string[] } = {},
  ) => {
    const booked = extra.booked ?? [fixture.cell()];
    const q = new URLSearchParams({
      type_of_registration: 'event',
      event_id: String(fixture.event.id),
      quantity: '1',
      coupon_code: extra.coupon ?? '',
    });
    for (const b of booked) q.append('booked[]', b);
    q.append('students[0][insurance_type]', 'daily_insurance');
    const priced = (await summary(q.toString())).json();
    return {
      event_id: fixture.event.id,
      quantity: 1,
      booked,
      waiting: extra.waiting ?? [],
      children: [
        { first_name: 'Ada', last_name: 'Pipeline', dob: '2018-04-01', insurance_type: 'daily_insurance' },
      ],
      amount: booked.length > 0 ? priced.pricing_details.total.value : 0,
      coupon_code: extra.coupon ?? '',
      accept_terms: true,
    };
  };
  const partyOrder = async (coupon = '') => {
    const date = day(nextPartyDay++);
    const priced = (
      await summary(`type_of_registration=party&date=${date}&quantity=12&coupon_code=${coupon}`)
    ).json();
    return {
      slot_id: party.morning.id,
      date,
      quantity: 12,
      amount: priced.pricing_details.amount_due.value,
      coupon_code: coupon,
      student: { first_name: 'Ivy', last_name: 'Pipeline', dob: '2019-06-01' },
      accept_terms: true,
    };
  };
  const post = (url: string, headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url: `${url}?authhash=${company.authhash}`, headers, payload });
  const eventCheckout = (headers: Record<string, string>, body: object) =>
    post('/api/v1/booking/checkout', headers, body);
  const partyCheckout = (headers: Record<string, string>, body: object) =>
    post('/api/v1/birthday-party/booking/checkout', headers, body);
  const redemptions = async (couponId: number) =>
    t.database.db.select().from(couponRedemptions).where(eq(couponRedemptions.couponId, couponId));
  const newCoupon = async (code: string, limits: { usageLimit?: number; perParentLimit?: number }) => {
    const [row] = await t.database.db
      .insert(coupons)
      .values(
        new Tenant(company.id).values({
          code,
          discountType: 'percent' as const,
          percentOff: 10,
          usageLimit: limits.usageLimit ?? null,
          perParentLimit: limits.perParentLimit ?? null,
        }),
      )
      .returning();
    return row!;
  };

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { paymentMethod: 'test' });
    party = await createPartySetup(t.database.db, company.id);
  });
  afterAll(() => t.close());

  it('a coupon limited to one use per parent, used at an event and a party checkout at the same moment, is claimed once', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 20 });
    for (let round = 0; round < 5; round++) {
      const coupon = await newCoupon(`ONCE${round}`, { perParentLimit: 1 });
      const parent = await newParent();
      const [event, partyBody] = await Promise.all([
        eventOrder(fixture, { coupon: coupon.code }),
        partyOrder(coupon.code),
      ]);
      const responses = await Promise.all([
        eventCheckout(parent.headers, event),
        partyCheckout(parent.headers, partyBody),
      ]);
      // One is held; the other is refused with the per-parent message: by the check under the
      // coupon's lock (409) or, when it arrives after the first committed, before pricing (400).
      const held = responses.filter((r) => r.statusCode === 200);
      const refused = responses.find((r) => r.statusCode !== 200)!;
      expect(held, responses.map((r) => r.body).join(' | ')).toHaveLength(1);
      expect([400, 409]).toContain(refused.statusCode);
      expect(refused.json()).toEqual({
        message: 'You have already used this coupon code as often as it allows.',
      });
      expect(await redemptions(coupon.id)).toHaveLength(1);
      const [row] = await t.database.db.select().from(coupons).where(eq(coupons.id, coupon.id));
      expect(row!.usedCount).toBe(1);
    }
  });

  it('party checkouts write a redemption row; releasing the party frees the coupon for the parent again', async () => {
    const coupon = await newCoupon('PARTYONE', { perParentLimit: 1, usageLimit: 5 });
    const parent = await newParent();
    const first = await partyCheckout(parent.headers, await partyOrder(coupon.code));
    expect(first.statusCode, first.body).toBe(200);
    const [held] = await t.database.db
      .select()
      .from(partyBookings)
      .where(eq(partyBookings.reference, first.json().booking_hash));
    expect(await redemptions(coupon.id)).toMatchObject([
      { purchaseKind: 'party', purchaseId: held!.id, parentId: parent.user.id },
    ]);
    // Used up for this parent while the party holds it.
    const again = await partyCheckout(parent.headers, await partyOrder(coupon.code));
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('You have already used this coupon code as often as it allows.');

    const cancel = await t.app.inject({
      method: 'POST',
      url: '/integrations/test/cancel',
      payload: { session: first.json().sessionId },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await redemptions(coupon.id)).toHaveLength(0);
    const [row] = await t.database.db.select().from(coupons).where(eq(coupons.id, coupon.id));
    expect(row!.usedCount).toBe(0);
    expect((await partyCheckout(parent.headers, await partyOrder(coupon.code))).statusCode).toBe(200);
  });

  it('promotional codes work in the coupon field of both checkouts and the summary says so', async () => {
    const tenant = new Tenant(company.id);
    const [promo] = await t.database.db
      .insert(promotionalCodes)
      .values(
        tenant.values({
          code: 'SPRING',
          description: 'Spring flyer campaign',
          discountType: 'fixed' as const,
          amountOff: 1000,
          appliesTo: 'all' as const,
        }),
      )
      .returning();
    const fixture = await createBookableEvent(t.database.db, company.id);
    const q = new URLSearchParams({
      type_of_registration: 'event',
      event_id: String(fixture.event.id),
      quantity: '1',
      coupon_code: 'spring',
    });
    q.append('booked[]', fixture.cell());
    const priced = (await summary(q.toString())).json();
    expect(priced.additional_information).toMatchObject({
      coupon_code: 'SPRING',
      coupon_kind: 'promotional',
    });
    expect(priced.pricing_details.coupon).toMatchObject({ label: 'Promotional code', value: -1000 });

    const parent = await newParent();
    const event = await eventCheckout(parent.headers, await eventOrder(fixture, { coupon: 'SPRING' }));
    expect(event.statusCode, event.body).toBe(200);
    const partyResponse = await partyCheckout(parent.headers, await partyOrder('SPRING'));
    expect(partyResponse.statusCode, partyResponse.body).toBe(200);
    const uses = await t.database.db
      .select({ kind: couponRedemptions.purchaseKind })
      .from(couponRedemptions)
      .where(eq(couponRedemptions.promotionalCodeId, promo!.id));
    expect(uses.map((u) => u.kind).sort()).toEqual(['event', 'party']);

    // A code for parties only is not valid at an event.
    await t.database.db.insert(promotionalCodes).values(
      tenant.values({
        code: 'PARTYPROMO',
        discountType: 'fixed' as const,
        amountOff: 500,
        appliesTo: 'parties' as const,
      }),
    );
    const wrong = new URLSearchParams({
      type_of_registration: 'event',
      event_id: String(fixture.event.id),
      quantity: '1',
      coupon_code: 'PARTYPROMO',
    });
    wrong.append('booked[]', fixture.cell());
    expect((await summary(wrong.toString())).json().errors).toEqual({
      invalid_coupon_code_message: 'This coupon code is not valid.',
    });
  });

  it('an NSW voucher is used once even by two checkouts at the same moment', async () => {
    await t.database.db
      .insert(nswSettings)
      .values(new Tenant(company.id).values({ enabled: true, voucherValue: 1000, codeFormat: '^[0-9]{8}$' }));
    const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 10 });
    const [a, b] = [await newParent(), await newParent()];
    const order = async () => {
      const body = await eventOrder(fixture);
      return { ...body, nsw_coupon_code: '12345678', amount: body.amount - 1000 };
    };
    const responses = await Promise.all([
      eventCheckout(a.headers, await order()),
      eventCheckout(b.headers, await order()),
    ]);
    // The second is refused before pricing (400) or under the voucher's unique index (409).
    expect(
      responses.filter((r) => r.statusCode === 200),
      responses.map((r) => r.body).join(' | '),
    ).toHaveLength(1);
    expect(responses.find((r) => r.statusCode !== 200)!.json()).toEqual({
      message: 'This voucher code has already been used.',
    });
    const [used] = await t.database.db
      .select({ n: count() })
      .from(couponRedemptions)
      .where(eq(couponRedemptions.voucherCode, '12345678'));
    expect(used!.n).toBe(1);
  });

  it('a cancelled card payment releases the waitlist entries its checkout made; a paid booking ends the waiting for its days', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 1 });
    const tuesday = fixture.cell(addDays(FUTURE_MONDAY, 1));
    const wednesday = fixture.cell(addDays(FUTURE_MONDAY, 2));
    // Tuesday is full.
    const first = await newParent();
    const taken = await eventCheckout(first.headers, await eventOrder(fixture, { booked: [tuesday] }));
    expect(taken.statusCode, taken.body).toBe(200);

    const parent = await newParent();
    const abandoned = await eventCheckout(
      parent.headers,
      await eventOrder(fixture, { booked: [fixture.cell()], waiting: [tuesday] }),
    );
    expect(abandoned.statusCode, abandoned.body).toBe(200);
    const [entry] = await t.database.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.parentId, parent.user.id));
    expect(entry).toMatchObject({ status: 'waiting' });
    await t.app.inject({
      method: 'POST',
      url: '/integrations/test/cancel',
      payload: { session: abandoned.json().sessionId },
    });
    const [released] = await t.database.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.id, entry!.id));
    expect(released!.status).toBe('released');

    // Waiting for Wednesday (waitlist only); staff then add a place and the family books Wednesday
    // directly (no invitation): the paid booking ends their waiting.
    const waiter = await newParent();
    const full = await newParent();
    await eventCheckout(full.headers, await eventOrder(fixture, { booked: [wednesday] }));
    const waits = await eventCheckout(
      waiter.headers,
      await eventOrder(fixture, { booked: [], waiting: [wednesday] }),
    );
    expect(waits.statusCode, waits.body).toBe(200);
    await t.database.db
      .update(eventSessions)
      .set({ capacity: 2 })
      .where(eq(eventSessions.id, fixture.session.id));
    const booked = await eventCheckout(waiter.headers, await eventOrder(fixture, { booked: [wednesday] }));
    expect(booked.statusCode, booked.body).toBe(200);
    const pay = await t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session: booked.json().sessionId, card_number: '4242424242424242' },
    });
    expect(pay.statusCode, pay.body).toBe(200);
    const entries = await t.database.db
      .select({ status: waitlistEntries.status })
      .from(waitlistEntries)
      .where(eq(waitlistEntries.parentId, waiter.user.id));
    expect(entries.map((e) => e.status)).toEqual(['fulfilled']);
  });

  it('bookings get short human references (BK-/BP-) shown in mails, separate from the link secret', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id);
    const parent = await newParent();
    const response = await eventCheckout(parent.headers, await eventOrder(fixture));
    const [booking] = await t.database.db
      .select()
      .from(bookings)
      .where(eq(bookings.reference, response.json().booking_hash));
    expect(booking!.code).toMatch(/^BK-[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{5}$/);
    expect(booking!.code).not.toBe(booking!.reference);
    await t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session: response.json().sessionId, card_number: '4242 4242 4242 4242' },
    });
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, parent.user.email));
    expect(mail!.text).toContain(booking!.code);
    // The parent's My Bookings quotes it too (the link secret stays for links).
    const mine = (
      await t.app.inject({ method: 'GET', url: '/api/v1/students/my-bookings', headers: parent.headers })
    ).json();
    expect(mine[0]).toMatchObject({ code: booking!.code, reference: booking!.reference });
    // Staff see and search the short reference.
    const staff = (
      await sessionFor(t.database.db, await createUser(t.database.db, company.id, { role: 'companystaff' }))
    ).headers;
    const list = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/events/${fixture.event.id}/bookings?search=${booking!.code}`,
        headers: staff,
      })
    ).json();
    expect(list.data.map((r: { code: string }) => r.code)).toEqual([booking!.code]);

    const partyResponse = await partyCheckout(parent.headers, await partyOrder());
    const [held] = await t.database.db
      .select()
      .from(partyBookings)
      .where(eq(partyBookings.reference, partyResponse.json().booking_hash));
    expect(held!.code).toMatch(/^BP-[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{5}$/);
  });

  it('the price calculator refuses days that do not exist or have no session (400), never prices them', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id);
    const ask = (cell: string) => {
      const q = new URLSearchParams({
        type_of_registration: 'event',
        event_id: String(fixture.event.id),
        quantity: '1',
      });
      q.append('booked[]', cell);
      return summary(q.toString());
    };
    const impossible = await ask(`${fixture.event.id}|${fixture.session.id}|2025-02-30`);
    expect(impossible.statusCode).toBe(400);
    expect(impossible.json()).toEqual({ message: '2025-02-30 is not a valid date.' });
    const saturday = addDays(FUTURE_MONDAY, 5);
    const noSession = await ask(fixture.cell(saturday));
    expect(noSession.statusCode).toBe(400);
    expect(noSession.json().message).toMatch(/^There is no session on .+ to price\.$/);
    expect((await ask(fixture.cell())).statusCode).toBe(200);
  });

  it('the test card page behaves like a test mode: 4242… pays, 4000…0002 and other valid numbers decline, a Luhn failure is invalid, bad JSON is a 400', async () => {
    const fixture = await createBookableEvent(t.database.db, company.id);
    const parent = await newParent();
    const { sessionId } = (await eventCheckout(parent.headers, await eventOrder(fixture))).json();
    const pay = (card_number: string) =>
      t.app.inject({
        method: 'POST',
        url: '/integrations/test/pay',
        payload: { session: sessionId, card_number },
      });
    const declined = await pay('4000 0000 0000 0002');
    expect([declined.statusCode, declined.json()]).toEqual([402, { message: 'Your card was declined.' }]);
    const invalid = await pay('4242 4242 4242 4241');
    expect([invalid.statusCode, invalid.json()]).toEqual([400, { message: 'Your card number is invalid.' }]);
    const other = await pay('5555 5555 5555 4444');
    expect(other.statusCode).toBe(402);
    expect(other.json().message).toBe(
      'Your card was declined. This is test mode: use 4242 4242 4242 4242 to pay.',
    );
    for (const url of ['/integrations/test/pay', '/integrations/test/cancel']) {
      const bad = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{"session": "x",',
      });
      expect([bad.statusCode, bad.json()], url).toEqual([
        400,
        { message: 'The request body is not valid JSON.' },
      ]);
    }
    expect((await pay('4242 4242 4242 4242')).statusCode).toBe(200);
  });

  it('six simultaneous saves of one party guest list all succeed or are refused cleanly', async () => {
    const parent = await newParent();
    const response = await partyCheckout(parent.headers, await partyOrder());
    const reference = response.json().booking_hash;
    await t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session: response.json().sessionId, card_number: '4242424242424242' },
    });
    const saves = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/birthday-party/update-guest?authhash=${company.authhash}&id=${reference}`,
          headers: parent.headers,
          payload: { guest_1_child_name: `Guest ${i}`, guest_2_child_name: 'Sam' },
        }),
      ),
    );
    for (const save of saves) expect(save.statusCode, save.body).toBeLessThan(500);
  });

  it('without PUBLIC_URL the card page and its return link stay on the origin the parent uses', async () => {
    // No PUBLIC_URL at all, as after the README's two commands.
    const local = await createTestApp({ PUBLIC_URL: undefined as unknown as string });
    try {
      const localCompany = await createCompany(local.database.db, { paymentMethod: 'test' });
      const fixture = await createBookableEvent(local.database.db, localCompany.id);
      const user = await createUser(local.database.db, localCompany.id, { role: 'student' });
      const response = await local.app.inject({
        method: 'POST',
        url: `/api/v1/booking/checkout?authhash=${localCompany.authhash}`,
        headers: { ...(await sessionFor(local.database.db, user)).headers, host: '127.0.0.1:8080' },
        payload: {
          event_id: fixture.event.id,
          quantity: 1,
          booked: [fixture.cell()],
          waiting: [],
          children: [
            { first_name: 'Ada', last_name: 'Local', dob: '2018-04-01', insurance_type: 'daily_insurance' },
          ],
          amount: 4800,
          accept_terms: true,
        },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().payment_link).toMatch(/^http:\/\/127\.0\.0\.1:8080\/payments\/test\?session=/);
      const session = await local.app.inject({
        method: 'GET',
        url: `/integrations/test/session?session=${response.json().sessionId}`,
      });
      expect(session.json().return_url).toMatch(
        new RegExp(
          `^http://127\\.0\\.0\\.1:8080/booking\\?authhash=.*&e=${encodeEventCode(localCompany.id, fixture.event.id)}&status=true$`,
        ),
      );
    } finally {
      await local.close();
    }
  });

  it('payment terms: an event shows its chosen terms, else the default event terms; parties show the default party terms', async () => {
    const tenant = new Tenant(company.id);
    const terms = (name: string, appliesTo: 'events' | 'parties', isDefault: boolean) =>
      t.database.db
        .insert(paymentTerms)
        .values(tenant.values({ name, appliesTo, isDefault, content: `<p>${name}</p>` }))
        .returning()
        .then((rows) => rows[0]!);
    // Rows that are not the default come first, so "the first row found" would pick them.
    await terms('Old event terms', 'events', false);
    const chosen = await terms('Camp terms', 'events', false);
    await terms('Default event terms', 'events', true);
    await terms('Default party terms', 'parties', true);
    const plain = await createBookableEvent(t.database.db, company.id);
    const camp = await createBookableEvent(t.database.db, company.id);
    await t.database.db.update(events).set({ paymentTermsId: chosen.id }).where(eq(events.id, camp.event.id));
    const eventTerms = async (eventId: number) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/booking/payment-terms?authhash=${company.authhash}&event_id=${eventId}`,
        })
      ).json();
    expect(await eventTerms(plain.event.id)).toEqual({ content: '<p>Default event terms</p>' });
    expect(await eventTerms(camp.event.id)).toEqual({ content: '<p>Camp terms</p>' });
    const partyTerms = await t.app.inject({
      method: 'GET',
      url: `/api/v1/birthday-party/payment-terms?authhash=${company.authhash}`,
    });
    expect(partyTerms.json()).toEqual({ payment_terms: '<p>Default party terms</p>' });
    // A company with no terms written: the party page never shows the holiday program's late pick-up rule.
    const fresh = await createCompany(t.database.db);
    const builtIn = await t.app.inject({
      method: 'GET',
      url: `/api/v1/birthday-party/payment-terms?authhash=${fresh.authhash}`,
    });
    expect(builtIn.json().payment_terms).toContain('deposit');
    expect(builtIn.json().payment_terms).not.toContain('Late pick-up');
  });
});
