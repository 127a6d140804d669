import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../platform/payments/payments.tables.ts';
import { type StripeStub, start as startStripeStub } from '../../platform/payments/testing/stripe-stub.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { registrationAnomalies, registrationForms } from '../registration/registration.tables.ts';
import { classTypes, termClasses } from './classes.tables.ts';
import { enrolmentPurchases } from './enrolments.tables.ts';

/**
 * The public class finder before sign-in, and a class enrolment whose payment fails (issue 14
 * anomalies: "a payment that failed"), with the test provider's card page and with Stripe (the real
 * SDK against the local stub).
 */
describe('class finder for visitors, and failed enrolment payments', () => {
  let stub: StripeStub;
  let t: TestContext;
  const today = todayIn('Australia/Sydney');
  const dates = Array.from({ length: 6 }, (_, i) => addDays(today, 7 + i * 7));

  beforeAll(async () => {
    stub = await startStripeStub();
    t = await createTestApp({
      STRIPE_SECRET_KEY: stub.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_stub',
      STRIPE_WEBHOOK_SECRET: stub.webhookSecret,
      STRIPE_API_BASE: stub.url,
    });
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  /** A company with one published form and one class for 3 to 6 year olds at $20 a session. */
  async function setUp(paymentMethod: 'test' | 'stripe') {
    const { db } = t.database;
    const company = await createCompany(db, { timeZone: 'Australia/Sydney', paymentMethod });
    const made = await createClassWithSessions(db, company.id, { coachId: null, dates, name: 'Tumble Tots' });
    await db
      .update(classTypes)
      .set({ price: 2000, ageMinMonths: 36, ageMaxMonths: 72 })
      .where(eq(classTypes.id, made.type.id));
    await db.update(termClasses).set({ capacity: 8 }).where(eq(termClasses.id, made.termClass.id));
    const [form] = await db
      .insert(registrationForms)
      .values({ companyId: company.id, key: 'tots', name: 'Tots', termIds: [made.term.id] })
      .returning();
    const parent = await createUser(db, company.id, {
      role: 'student',
      email: `fam${company.id}@example.test`,
    });
    const { headers } = await sessionFor(db, parent);
    return { company, made, form: form!, parent, headers };
  }

  type SetUp = Awaited<ReturnType<typeof setUp>>;

  /** The page's checkout: the quote's amount, then the checkout, for a new child Mia Private. */
  async function checkout({ company, made, form, headers }: SetUp) {
    const body = {
      f: form.key,
      children: [{ first_name: 'Mia', last_name: 'Private', dob: '2021-03-01' }],
      choices: [{ child: 0, term_class_id: made.termClass.id, kind: 'enrolled' }],
    };
    const url = (path: string) => `/api/v1/registration/${path}?authhash=${company.authhash}`;
    const quote = await t.app.inject({ method: 'POST', url: url('quote'), payload: body, headers });
    expect(quote.statusCode, quote.body).toBe(200);
    const response = await t.app.inject({
      method: 'POST',
      url: url('checkout'),
      payload: { ...body, accept_terms: true, amount: quote.json().amount_due },
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { sessionId: string; booking_hash: string };
  }

  const purchaseOf = async (reference: string) => {
    const [row] = await t.database.db
      .select()
      .from(enrolmentPurchases)
      .where(eq(enrolmentPurchases.reference, reference));
    return row!;
  };
  const failedAnomalies = (purchaseId: number) =>
    t.database.db
      .select()
      .from(registrationAnomalies)
      .where(
        and(
          eq(registrationAnomalies.purchaseId, purchaseId),
          eq(registrationAnomalies.kind, 'payment_failed'),
        ),
      );
  const paymentStatus = async (sessionId: string) => {
    const [row] = await t.database.db.select().from(payments).where(eq(payments.providerRef, sessionId));
    return row?.status;
  };

  it('finds classes by a date of birth without a session, with live places and no family’s data', async () => {
    const setup = await setUp('test');
    const { company, made, form } = setup;
    // A family already holds a place: the finder counts it and says nothing else about them.
    await checkout(setup);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/registration/classes?f=${form.key}&authhash=${company.authhash}&dob=2021-03-01`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const classes = response.json().classes as Record<string, unknown>[];
    expect(classes.map((c) => c.id)).toEqual([made.termClass.id]);
    expect(classes[0]).toMatchObject({ places_left: 7, price: 6 * 2000, sessions_left: 6 });
    expect(response.body).not.toMatch(/Mia|Private|example\.test/);
    expect(Object.keys(classes[0]!).sort()).toEqual(
      [
        'age_max_months',
        'age_min_months',
        'class_type',
        'coach',
        'day',
        'end_time',
        'first_date',
        'id',
        'level',
        'name',
        'places_left',
        'price',
        'pricing_model',
        'sessions_left',
        'start_time',
        'term_id',
        'term_name',
        'trial',
        'venue',
        'weekday',
      ].sort(),
    );
    // The form itself is public too; a baby sees no class; a bad authhash or form answers 404.
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/v1/registration/form?f=${form.key}&authhash=${company.authhash}`,
    });
    expect(page.statusCode, page.body).toBe(200);
    const baby = await t.app.inject({
      method: 'GET',
      url: `/api/v1/registration/classes?f=${form.key}&authhash=${company.authhash}&dob=${addDays(today, -30)}`,
    });
    expect(baby.json().classes).toEqual([]);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/v1/registration/classes?f=${form.key}&authhash=nope&dob=2021-03-01`,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('a declined test card says so, records one payment_failed anomaly however often, and another card still pays', async () => {
    const setup = await setUp('test');
    const answer = await checkout(setup);
    const card = (card_number: string) =>
      t.app.inject({
        method: 'POST',
        url: '/integrations/test/pay',
        payload: { session: answer.sessionId, card_number },
      });
    for (const _ of [1, 2]) {
      const declined = await card('4000 0000 0000 0002');
      expect(declined.statusCode).toBe(402);
      expect(declined.json().message).toBe('Your card was declined.');
    }
    const purchase = await purchaseOf(answer.booking_hash);
    expect(purchase.status).toBe('pending');
    expect(await paymentStatus(answer.sessionId)).toBe('failed');
    const anomalies = await failedAnomalies(purchase.id);
    expect(anomalies).toHaveLength(1);
    expect(anomalies[0]).toMatchObject({ parentId: setup.parent.id, formId: setup.form.id, status: 'open' });
    expect(anomalies[0]!.detail).toContain(purchase.code);

    const paid = await card('4242 4242 4242 4242');
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await purchaseOf(answer.booking_hash)).status).toBe('confirmed');
    expect(await paymentStatus(answer.sessionId)).toBe('paid');
    expect(await failedAnomalies(purchase.id)).toHaveLength(1);
  });

  it('Stripe’s async_payment_failed delivered twice records one anomaly; the purchase stays pending and can still be paid', async () => {
    const setup = await setUp('stripe');
    const answer = await checkout(setup);
    const deliver = (type: string) => {
      const event = stub.checkoutEvent(type, answer.sessionId);
      return t.app.inject({
        method: 'POST',
        url: '/integrations/stripe/webhook',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': stub.signatureHeader(event.payload),
        },
        payload: event.payload,
      });
    };
    stub.markFailed(answer.sessionId);
    const failed = await deliver('checkout.session.async_payment_failed');
    expect(failed.statusCode, failed.body).toBe(200);
    expect((await deliver('checkout.session.async_payment_failed')).statusCode).toBe(200);
    const purchase = await purchaseOf(answer.booking_hash);
    expect(purchase.status).toBe('pending');
    expect(await paymentStatus(answer.sessionId)).toBe('failed');
    expect(await failedAnomalies(purchase.id)).toHaveLength(1);

    stub.markPaid(answer.sessionId);
    expect((await deliver('checkout.session.async_payment_succeeded')).statusCode).toBe(200);
    expect((await purchaseOf(answer.booking_hash)).status).toBe('confirmed');
    expect(await paymentStatus(answer.sessionId)).toBe('paid');
    expect(await failedAnomalies(purchase.id)).toHaveLength(1);
  });

  it('closing the card form after a failed Stripe payment still releases the purchase', async () => {
    const setup = await setUp('stripe');
    const answer = await checkout(setup);
    stub.markFailed(answer.sessionId);
    const event = stub.checkoutEvent('checkout.session.async_payment_failed', answer.sessionId);
    await t.app.inject({
      method: 'POST',
      url: '/integrations/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stub.signatureHeader(event.payload),
      },
      payload: event.payload,
    });
    expect(await paymentStatus(answer.sessionId)).toBe('failed');
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/integrations/stripe/cancel-session?session=${answer.sessionId}`,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect((await purchaseOf(answer.booking_hash)).status).toBe('expired');
    expect(await paymentStatus(answer.sessionId)).toBe('expired');
  });

  it('the card page returns to the confirmation naming the purchase, which needs no sign-in (a form paid out of a provider’s frame)', async () => {
    const setup = await setUp('test');
    const answer = await checkout(setup);
    const session = await t.app.inject({
      method: 'GET',
      url: `/integrations/test/session?session=${answer.sessionId}`,
    });
    expect(session.statusCode, session.body).toBe(200);
    const returnUrl = new URL(session.json().return_url);
    expect(returnUrl.pathname).toBe('/registration/');
    expect(Object.fromEntries(returnUrl.searchParams)).toEqual({
      f: setup.form.key,
      authhash: setup.company.authhash,
      status: 'true',
      purchase: answer.booking_hash,
    });
    // The full page after paying has not the frame's sign-in: the confirmation reads without one.
    const confirmation = await t.app.inject({
      method: 'GET',
      url: `/api/v1/registration/purchase?id=${answer.booking_hash}&authhash=${setup.company.authhash}`,
    });
    expect(confirmation.statusCode, confirmation.body).toBe(200);
    expect(confirmation.json()).toMatchObject({ status: 'pending', places: [{ child: 'Mia Private' }] });
  });
});
