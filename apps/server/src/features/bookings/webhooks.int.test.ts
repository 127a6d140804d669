import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import { type StripeStub, start as startStripeStub } from '../../platform/payments/testing/stripe-stub.ts';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { bookings } from './bookings.tables.ts';

/**
 * Stripe webhooks as a table of deliveries (Stripe: at-least-once, unordered, signed). The real
 * Stripe SDK talks to a local stub speaking Stripe's HTTP API; signatures come from the SDK's
 * own test header helper.
 */
describe('Stripe webhooks', () => {
  let stub: StripeStub;
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;

  beforeAll(async () => {
    stub = await startStripeStub();
    t = await createTestApp({
      STRIPE_SECRET_KEY: stub.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_stub',
      STRIPE_WEBHOOK_SECRET: stub.webhookSecret,
      STRIPE_API_BASE: stub.url,
    });
    company = await createCompany(t.database.db, { paymentMethod: 'stripe' });
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  /** A parent's checkout of one place; answers the Stripe session and our booking reference. */
  async function book(capacity = 5) {
    const fixture = await createBookableEvent(t.database.db, company.id, { capacity });
    const parent = await createUser(t.database.db, company.id, { role: 'student' });
    const { headers } = await sessionFor(t.database.db, parent);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/booking/checkout?authhash=${company.authhash}`,
      headers,
      payload: {
        event_id: fixture.event.id,
        quantity: 1,
        booked: [fixture.cell()],
        children: [
          { first_name: 'Sam', last_name: 'Lee', dob: '2019-03-03', insurance_type: 'daily_insurance' },
        ],
        amount: 4800,
        accept_terms: true,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return {
      fixture,
      parent,
      body: response.json() as {
        sessionId: string;
        client_secret: string;
        public_key: string;
        booking_hash: string;
        method: string;
      },
    };
  }

  const deliver = (event: { payload: string }, signature = stub.signatureHeader(event.payload)) =>
    t.app.inject({
      method: 'POST',
      url: '/integrations/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload: event.payload,
    });

  const state = async (reference: string) => {
    const [booking] = await t.database.db.select().from(bookings).where(eq(bookings.reference, reference));
    const rows = await t.database.db
      .select()
      .from(payments)
      .where(and(eq(payments.purchaseKind, 'event'), eq(payments.purchaseId, booking!.id)));
    const [mails] = await t.database.db
      .select({ n: count() })
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'booking-confirmation'));
    return { booking: booking!.status, payments: rows.map((p) => p.status), mails: mails!.n };
  };

  it('answers the embedded checkout with the pinned session, key and client secret', async () => {
    const { body } = await book();
    expect(body).toMatchObject({ method: 'stripe', public_key: 'pk_test_stub' });
    expect(stub.sessions.get(body.sessionId)).toMatchObject({
      amount_total: 4800,
      ui_mode: 'embedded_page',
      client_reference_id: body.booking_hash,
    });
  });

  it('refuses a forged signature, a stale timestamp and a re-serialized body, and changes nothing', async () => {
    const { body } = await book();
    stub.markPaid(body.sessionId);
    const event = stub.checkoutEvent('checkout.session.completed', body.sessionId);
    const forged = await deliver(event, stub.signatureHeader(event.payload, { secret: 'whsec_wrong' }));
    const stale = await deliver(
      event,
      stub.signatureHeader(event.payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
    );
    const reserialized = await deliver({ payload: ` ${event.payload}` }, stub.signatureHeader(event.payload));
    expect([forged.statusCode, stale.statusCode, reserialized.statusCode]).toEqual([400, 400, 400]);
    expect((await state(body.booking_hash)).booking).toBe('pending');
  });

  it('confirms once whatever arrives twice, or twice at once', async () => {
    const { body } = await book();
    const before = (await state(body.booking_hash)).mails;
    stub.markPaid(body.sessionId);
    const event = stub.checkoutEvent('checkout.session.completed', body.sessionId);
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await deliver(event)).statusCode).toBe(200);
    await Promise.all([deliver(event), deliver(event), deliver(event)]);
    expect(await state(body.booking_hash)).toEqual({
      booking: 'confirmed',
      payments: ['paid'],
      mails: before + 1,
    });
  });

  it('out of order: an "expired" event after completion re-reads the session and stays confirmed', async () => {
    const { body } = await book();
    stub.markPaid(body.sessionId);
    const completed = stub.checkoutEvent('checkout.session.completed', body.sessionId);
    // The expired notice is delivered first, then completed: both re-read the (paid) session.
    await deliver(stub.checkoutEvent('checkout.session.expired', body.sessionId));
    await deliver(completed);
    expect(await state(body.booking_hash)).toMatchObject({ booking: 'confirmed', payments: ['paid'] });
  });

  it('closing the card form expires the session and releases the hold', async () => {
    const { body } = await book();
    const response = await t.app.inject({
      method: 'POST',
      url: `/integrations/stripe/cancel-session?session=${body.sessionId}`,
      headers: { 'content-type': 'application/json' },
      payload: { userAction: 'expire' },
    });
    expect(response.statusCode).toBe(200);
    expect(stub.sessions.get(body.sessionId)!.status).toBe('expired');
    expect(await state(body.booking_hash)).toMatchObject({ booking: 'expired', payments: ['expired'] });
    // A late "expired" webhook changes nothing more.
    await deliver(stub.checkoutEvent('checkout.session.expired', body.sessionId));
    expect(await state(body.booking_hash)).toMatchObject({ booking: 'expired', payments: ['expired'] });
  });

  it('late after the hold lapsed and the place went to someone else: flagged for refund, never oversold', async () => {
    const first = await book(1);
    await t.database.db
      .update(bookings)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(bookings.reference, first.body.booking_hash));
    // Someone else takes the freed place and pays.
    const other = await createUser(t.database.db, company.id, { role: 'student' });
    const otherCheckout = await t.app.inject({
      method: 'POST',
      url: `/api/v1/booking/checkout?authhash=${company.authhash}`,
      headers: (await sessionFor(t.database.db, other)).headers,
      payload: {
        event_id: first.fixture.event.id,
        quantity: 1,
        booked: [first.fixture.cell()],
        children: [
          { first_name: 'Kim', last_name: 'Ng', dob: '2019-03-03', insurance_type: 'daily_insurance' },
        ],
        amount: 4800,
        accept_terms: true,
      },
    });
    const second = otherCheckout.json();
    stub.markPaid(second.sessionId);
    await deliver(stub.checkoutEvent('checkout.session.completed', second.sessionId));
    // The first parent's payment lands late.
    stub.markPaid(first.body.sessionId);
    await deliver(stub.checkoutEvent('checkout.session.completed', first.body.sessionId));
    expect((await state(first.body.booking_hash)).booking).toBe('refund_due');
    expect((await state(second.booking_hash)).booking).toBe('confirmed');
  });

  it('ignores a signed event about a session that is not ours', async () => {
    const { body } = await book();
    const foreign = stub.checkoutEvent('checkout.session.completed', body.sessionId);
    const payload = foreign.payload.replaceAll(body.sessionId, 'cs_test_someone_else');
    const response = await deliver({ payload });
    expect(response.statusCode).toBe(200);
    expect((await state(body.booking_hash)).booking).toBe('pending');
  });
});
