import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckoutRequest, type PaymentProvider, WebhookSignatureError } from './provider.ts';
import {
  createStripeProvider,
  STRIPE_API_VERSION,
  STRIPE_UI_MODE,
  stripeExpiresAt,
  withSessionIdPlaceholder,
} from './stripe.ts';
import { type FormValue, type StripeStub, start } from './testing/stripe-stub.ts';

// The adapter runs through the real stripe SDK over HTTP against a local stand-in for Stripe.

let stub: StripeStub;
let provider: PaymentProvider;

beforeAll(async () => {
  stub = await start();
  provider = createStripeProvider({
    secretKey: stub.secretKey,
    publishableKey: 'pk_test_stub',
    webhookSecret: stub.webhookSecret,
    apiBase: stub.url,
  });
});

afterAll(async () => {
  await stub.close();
});

function checkoutRequest(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  return {
    reference: 'BK-1001',
    amount: 12_345,
    currency: 'AUD',
    description: 'Holiday camp (2 children)',
    customerEmail: 'parent@example.test',
    returnUrl: 'https://tumble.test/booking?authhash=abc&status=true',
    expiresAt: new Date(Date.now() + 2 * 60 * 60 * 1000),
    ...overrides,
  };
}

function field(value: FormValue | undefined, ...path: (string | number)[]): FormValue | undefined {
  let node = value;
  for (const key of path) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = Array.isArray(node) ? node[Number(key)] : node[String(key)];
  }
  return node;
}

function lastCreateRequest() {
  const request = stub.requests
    .filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')
    .at(-1);
  if (!request) throw new Error('no create request reached the stub');
  return request;
}

describe('stripe provider: checkout', () => {
  it('pins the API version the installed SDK declares', () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
    expect(STRIPE_UI_MODE).toBe('embedded_page');
  });

  it('creates an embedded checkout session with the amount in cents, currency, reference and return url', async () => {
    const request = checkoutRequest();
    const start = await provider.createCheckout(request);

    expect(start.kind).toBe('embedded');
    if (start.kind !== 'embedded') return;
    const session = stub.sessions.get(start.sessionId);
    expect(session).toBeDefined();
    expect(start.publicKey).toBe('pk_test_stub');
    expect(start.clientSecret).toBe(session?.client_secret);

    const sent = lastCreateRequest();
    expect(sent.headers.authorization).toBe(`Bearer ${stub.secretKey}`);
    expect(sent.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(field(sent.body, 'ui_mode')).toBe('embedded_page');
    expect(field(sent.body, 'mode')).toBe('payment');
    expect(field(sent.body, 'line_items', 0, 'quantity')).toBe('1');
    expect(field(sent.body, 'line_items', 0, 'price_data', 'unit_amount')).toBe('12345');
    expect(field(sent.body, 'line_items', 0, 'price_data', 'currency')).toBe('aud');
    expect(field(sent.body, 'line_items', 0, 'price_data', 'product_data', 'name')).toBe(
      'Holiday camp (2 children)',
    );
    expect(field(sent.body, 'customer_email')).toBe('parent@example.test');
    expect(field(sent.body, 'client_reference_id')).toBe('BK-1001');
    expect(field(sent.body, 'metadata', 'reference')).toBe('BK-1001');
    expect(field(sent.body, 'return_url')).toBe(
      'https://tumble.test/booking?authhash=abc&status=true&session_id={CHECKOUT_SESSION_ID}',
    );
    expect(field(sent.body, 'expires_at')).toBe(String(Math.floor(request.expiresAt.getTime() / 1000)));
    expect(session?.amount_total).toBe(12_345);
  });

  it('clamps expires_at into the 30 minutes to 24 hours Stripe accepts', async () => {
    const before = Math.floor(Date.now() / 1000);
    await provider.createCheckout(checkoutRequest({ expiresAt: new Date(Date.now() + 5 * 60 * 1000) }));
    const soon = Number(field(lastCreateRequest().body, 'expires_at'));
    expect(soon).toBeGreaterThanOrEqual(before + 30 * 60);
    expect(soon).toBeLessThanOrEqual(before + 30 * 60 + 5 * 60);

    await provider.createCheckout(
      checkoutRequest({ expiresAt: new Date(Date.now() + 3 * 24 * 3600 * 1000) }),
    );
    const late = Number(field(lastCreateRequest().body, 'expires_at'));
    expect(late).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 24 * 3600);
    expect(late).toBeGreaterThan(before + 23 * 3600);

    const now = new Date('2030-01-01T00:00:00Z');
    const nowSeconds = now.getTime() / 1000;
    expect(stripeExpiresAt(new Date(now.getTime() - 60_000), now)).toBe(nowSeconds + 32 * 60);
    expect(stripeExpiresAt(new Date(now.getTime() + 3600_000), now)).toBe(nowSeconds + 3600);
    expect(stripeExpiresAt(new Date(now.getTime() + 48 * 3600_000), now)).toBe(nowSeconds + 24 * 3600 - 120);
  });

  it('adds the session id placeholder to the return url without encoding it', () => {
    expect(withSessionIdPlaceholder('https://t.test/booking')).toBe(
      'https://t.test/booking?session_id={CHECKOUT_SESSION_ID}',
    );
    expect(withSessionIdPlaceholder('https://t.test/booking?status=true#top')).toBe(
      'https://t.test/booking?status=true&session_id={CHECKOUT_SESSION_ID}#top',
    );
    expect(withSessionIdPlaceholder('https://t.test/r?s={CHECKOUT_SESSION_ID}')).toBe(
      'https://t.test/r?s={CHECKOUT_SESSION_ID}',
    );
  });

  it('reads a session as open, then paid once Stripe marks it paid', async () => {
    const start = await provider.createCheckout(checkoutRequest({ reference: 'BK-2002', amount: 5_000 }));

    expect(await provider.getCheckout(start.sessionId)).toEqual({
      sessionId: start.sessionId,
      reference: 'BK-2002',
      status: 'open',
      amount: 5_000,
    });

    stub.markPaid(start.sessionId);
    expect(await provider.getCheckout(start.sessionId)).toMatchObject({ status: 'paid', amount: 5_000 });

    // Expiring a paid session is a no-op: it can no longer take payment, and stays paid.
    await provider.expireCheckout(start.sessionId);
    expect(await provider.getCheckout(start.sessionId)).toMatchObject({ status: 'paid' });
  });

  it('expires an open session, and expiring it again is fine', async () => {
    const start = await provider.createCheckout(checkoutRequest({ reference: 'BK-3003' }));

    await provider.expireCheckout(start.sessionId);
    expect(await provider.getCheckout(start.sessionId)).toMatchObject({
      status: 'expired',
      reference: 'BK-3003',
    });

    await provider.expireCheckout(start.sessionId);
    expect(
      stub.requests.filter((r) => r.path === `/v1/checkout/sessions/${start.sessionId}/expire`),
    ).toHaveLength(2);
    expect(await provider.getCheckout(start.sessionId)).toMatchObject({ status: 'expired' });
  });

  it('does not hide real failures', async () => {
    await expect(provider.expireCheckout('cs_test_missing')).rejects.toBeInstanceOf(
      Stripe.errors.StripeInvalidRequestError,
    );
    await expect(provider.getCheckout('cs_test_missing')).rejects.toThrow(/No such checkout.session/);

    const wrongKey = createStripeProvider({
      secretKey: 'sk_test_wrong',
      publishableKey: 'pk_test_stub',
      webhookSecret: stub.webhookSecret,
      apiBase: stub.url,
    });
    await expect(wrongKey.createCheckout(checkoutRequest())).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
    await expect(provider.createCheckout(checkoutRequest({ amount: 12.5 }))).rejects.toThrow(/whole number/);
  });
});

describe('stripe provider: webhooks', () => {
  async function paidSession(): Promise<string> {
    const start = await provider.createCheckout(checkoutRequest());
    stub.markPaid(start.sessionId);
    return start.sessionId;
  }

  it('accepts a correctly signed checkout event and names its session', async () => {
    const sessionId = await paidSession();
    for (const type of [
      'checkout.session.completed',
      'checkout.session.async_payment_succeeded',
      'checkout.session.async_payment_failed',
      'checkout.session.expired',
    ]) {
      const event = stub.checkoutEvent(type, sessionId);
      const notice = await provider.parseWebhook(Buffer.from(event.payload), {
        'stripe-signature': stub.signatureHeader(event.payload),
      });
      expect(notice, type).toEqual({ kind: 'checkout', eventId: event.id, sessionId });
    }
  });

  it('refuses a signature made with another secret', async () => {
    const event = stub.checkoutEvent('checkout.session.completed', await paidSession());
    const forged = stub.signatureHeader(event.payload, { secret: 'whsec_attacker' });
    await expect(
      provider.parseWebhook(Buffer.from(event.payload), { 'stripe-signature': forged }),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('refuses a stale signature (older than five minutes)', async () => {
    const event = stub.checkoutEvent('checkout.session.completed', await paidSession());
    const stale = stub.signatureHeader(event.payload, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    await expect(
      provider.parseWebhook(Buffer.from(event.payload), { 'stripe-signature': stale }),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('refuses a body that was re-serialized after signing', async () => {
    const event = stub.checkoutEvent('checkout.session.completed', await paidSession());
    const header = stub.signatureHeader(event.payload);
    const reserialized = JSON.stringify(JSON.parse(event.payload));
    expect(reserialized).not.toBe(event.payload);
    await expect(
      provider.parseWebhook(Buffer.from(reserialized), { 'stripe-signature': header }),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('refuses a missing or repeated signature header', async () => {
    const event = stub.checkoutEvent('checkout.session.completed', await paidSession());
    const header = stub.signatureHeader(event.payload);
    await expect(provider.parseWebhook(Buffer.from(event.payload), {})).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
    await expect(
      provider.parseWebhook(Buffer.from(event.payload), { 'stripe-signature': [header, header] }),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('answers null for a correctly signed event of another type', async () => {
    const payload = JSON.stringify({
      id: 'evt_customer',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_1', object: 'customer' } },
    });
    expect(
      await provider.parseWebhook(Buffer.from(payload), {
        'stripe-signature': stub.signatureHeader(payload),
      }),
    ).toBeNull();
  });
});

describe('stripe provider: refunds', () => {
  async function paidSession(amount = 5_000): Promise<string> {
    const start = await provider.createCheckout(checkoutRequest({ amount }));
    stub.markPaid(start.sessionId);
    return start.sessionId;
  }
  const refundsPosted = () => stub.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');

  it("refunds a checkout's payment intent with the amount, reason and our idempotency key", async () => {
    const sessionId = await paidSession();
    const intent = stub.sessions.get(sessionId)?.payment_intent?.id;
    const state = await provider.refund({
      paymentRef: sessionId,
      amount: 1_500,
      currency: 'AUD',
      reason: 'Class cancelled',
      idempotencyKey: 'refund-41',
    });
    expect(state).toEqual({
      refundRef: expect.stringMatching(/^re_/),
      status: 'pending',
      amount: 1_500,
      failureReason: null,
    });
    const sent = refundsPosted().at(-1);
    expect(sent?.headers['idempotency-key']).toBe('refund-41');
    expect(sent?.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(sent?.body).toEqual({
      payment_intent: intent,
      amount: '1500',
      metadata: { reason: 'Class cancelled' },
    });
    expect(stub.refunds.get(state.refundRef)?.payment_intent).toBe(intent);
  });

  it('makes one refund for one key, whatever is sent twice', async () => {
    const sessionId = await paidSession();
    const request = {
      paymentRef: sessionId,
      amount: 700,
      currency: 'AUD',
      reason: 'Sick',
      idempotencyKey: 'refund-42',
    };
    const first = await provider.refund(request);
    const again = await provider.refund(request);
    expect(again.refundRef).toBe(first.refundRef);
    expect([...stub.refunds.values()].filter((r) => r.id === first.refundRef)).toHaveLength(1);
    const intent = stub.sessions.get(sessionId)?.payment_intent?.id;
    expect([...stub.refunds.values()].filter((r) => r.payment_intent === intent)).toHaveLength(1);
  });

  it('reads a refund as Stripe moves it on, with the failure in words', async () => {
    const sessionId = await paidSession();
    const base = { paymentRef: sessionId, amount: 100, currency: 'AUD', reason: 'x' };
    const ok = await provider.refund({ ...base, idempotencyKey: 'refund-43' });
    stub.settleRefund(ok.refundRef, 'requires_action');
    expect(await provider.getRefund(ok.refundRef)).toMatchObject({ status: 'pending' });
    stub.settleRefund(ok.refundRef, 'succeeded');
    expect(await provider.getRefund(ok.refundRef)).toEqual({ ...ok, status: 'succeeded' });

    const closed = await provider.refund({ ...base, idempotencyKey: 'refund-44' });
    stub.settleRefund(closed.refundRef, 'failed', 'expired_or_canceled_card');
    expect(await provider.getRefund(closed.refundRef)).toMatchObject({
      status: 'failed',
      failureReason: 'The card has expired or was closed.',
    });
    const canceled = await provider.refund({ ...base, idempotencyKey: 'refund-45' });
    stub.settleRefund(canceled.refundRef, 'canceled');
    expect(await provider.getRefund(canceled.refundRef)).toMatchObject({
      status: 'failed',
      failureReason: 'The refund was cancelled.',
    });
  });

  it('does not hide a refund Stripe refuses', async () => {
    const sessionId = await paidSession(1_000);
    await expect(
      provider.refund({
        paymentRef: sessionId,
        amount: 1_001,
        currency: 'AUD',
        reason: 'x',
        idempotencyKey: 'r-46',
      }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    const unpaid = await provider.createCheckout(checkoutRequest());
    await expect(
      provider.refund({
        paymentRef: unpaid.sessionId,
        amount: 100,
        currency: 'AUD',
        reason: 'x',
        idempotencyKey: 'r-47',
      }),
    ).rejects.toThrow(/no payment to refund/);
    await expect(provider.getRefund('re_missing')).rejects.toThrow(/No such refund/);
  });
});

describe('stripe provider: saved cards and off-session charges', () => {
  const setupRequest = (customerRef: string | null = null) => ({
    reference: 'autopay-7',
    customerEmail: 'parent@example.test',
    customerName: 'Pat Parent',
    customerRef,
    returnUrl: 'https://tumble.test/account/autopay',
  });

  async function savedCard(behaviour?: 'pays' | 'card_declined' | 'authentication_required') {
    const start = await provider.startCardSetup(setupRequest());
    stub.markSetUp(start.sessionId, { behaviour: behaviour ?? 'pays' });
    const card = await provider.getCardSetup(start.sessionId);
    if (!card) throw new Error('no card saved');
    return card;
  }

  const charge = (card: { customerRef: string; cardRef: string }, key: string) => ({
    customerRef: card.customerRef,
    cardRef: card.cardRef,
    amount: 12_000,
    currency: 'AUD',
    description: 'Term 1 instalment 2',
    reference: 'INV-7',
    idempotencyKey: key,
  });

  it('opens an embedded setup-mode session for a new customer and reads the saved card', async () => {
    const start = await provider.startCardSetup(setupRequest());
    expect(start.kind).toBe('embedded');
    if (start.kind !== 'embedded') return;
    const session = stub.sessions.get(start.sessionId);
    expect(start.clientSecret).toBe(session?.client_secret);

    const customerSent = stub.requests.filter((r) => r.path === '/v1/customers').at(-1);
    expect(customerSent?.body).toMatchObject({ email: 'parent@example.test', name: 'Pat Parent' });
    expect(lastCreateRequest().body).toMatchObject({
      ui_mode: STRIPE_UI_MODE,
      mode: 'setup',
      currency: 'aud',
      customer: session?.customer,
      client_reference_id: 'autopay-7',
      return_url: 'https://tumble.test/account/autopay?session_id={CHECKOUT_SESSION_ID}',
    });
    expect(await provider.getCardSetup(start.sessionId), 'not finished yet').toBeNull();

    const method = stub.markSetUp(start.sessionId, { last4: '4444' });
    expect(await provider.getCardSetup(start.sessionId)).toEqual({
      customerRef: session?.customer,
      cardRef: method.id,
      brand: 'visa',
      last4: '4444',
      expMonth: 8,
      expYear: method.card.exp_year,
    });
    const read = stub.requests.filter((r) => r.path === `/v1/checkout/sessions/${start.sessionId}`).at(-1);
    expect(field(read?.body, 'expand', 0)).toBe('setup_intent.payment_method');
  });

  it("keeps the family's customer when it has one", async () => {
    const before = stub.customers.size;
    const first = await savedCard();
    const start = await provider.startCardSetup(setupRequest(first.customerRef));
    expect(stub.customers.size).toBe(before + 1);
    expect(stub.sessions.get(start.sessionId)?.customer).toBe(first.customerRef);
  });

  it('charges a saved card off-session once per idempotency key', async () => {
    const card = await savedCard();
    const first = await provider.chargeSavedCard(charge(card, 'instalment-3-1'));
    expect(first).toEqual({ paymentRef: expect.stringMatching(/^pi_/), status: 'paid', failureReason: null });
    const sent = stub.requests.filter((r) => r.path === '/v1/payment_intents').at(-1);
    expect(sent?.headers['idempotency-key']).toBe('instalment-3-1');
    expect(sent?.body).toMatchObject({
      amount: '12000',
      currency: 'aud',
      customer: card.customerRef,
      payment_method: card.cardRef,
      off_session: 'true',
      confirm: 'true',
    });

    const intentsBefore = stub.intents.size;
    expect(await provider.chargeSavedCard(charge(card, 'instalment-3-1'))).toEqual(first);
    expect(stub.intents.size, 'the same key charges nothing more').toBe(intentsBefore);

    // An off-session charge is refunded by its own intent id.
    const refund = await provider.refund({
      paymentRef: first.paymentRef,
      amount: 12_000,
      currency: 'AUD',
      reason: 'Withdrawn',
      idempotencyKey: 'refund-48',
    });
    expect(stub.refunds.get(refund.refundRef)?.payment_intent).toBe(first.paymentRef);
  });

  it('answers a declined card or one needing authentication as a failed charge, and throws on other errors', async () => {
    const declined = await provider.chargeSavedCard(
      charge(await savedCard('card_declined'), 'instalment-4-1'),
    );
    expect(declined).toEqual({
      paymentRef: expect.stringMatching(/^pi_/),
      status: 'failed',
      failureReason: 'Your card was declined.',
    });
    const authentication = await provider.chargeSavedCard(
      charge(await savedCard('authentication_required'), 'instalment-4-2'),
    );
    expect(authentication).toMatchObject({
      status: 'failed',
      failureReason: 'Your card was declined. This transaction requires authentication.',
    });
    await expect(
      provider.chargeSavedCard(charge({ customerRef: 'cus_x', cardRef: 'pm_missing' }, 'instalment-4-3')),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });
});

describe('stripe provider: refund and card setup webhooks', () => {
  async function refundRef(): Promise<string> {
    const start = await provider.createCheckout(checkoutRequest());
    stub.markPaid(start.sessionId);
    const state = await provider.refund({
      paymentRef: start.sessionId,
      amount: 100,
      currency: 'AUD',
      reason: 'x',
      idempotencyKey: `refund-webhook-${Math.random()}`,
    });
    return state.refundRef;
  }

  it('names the refund of refund events', async () => {
    const ref = await refundRef();
    for (const type of ['refund.created', 'refund.updated', 'refund.failed', 'charge.refund.updated']) {
      const event = stub.refundEvent(type, ref);
      const notice = await provider.parseWebhook(Buffer.from(event.payload), {
        'stripe-signature': stub.signatureHeader(event.payload),
      });
      expect(notice, type).toEqual({ kind: 'refund', eventId: event.id, refundRef: ref });
    }
  });

  it('refuses a refund event signed with another secret', async () => {
    const event = stub.refundEvent('refund.updated', await refundRef());
    await expect(
      provider.parseWebhook(Buffer.from(event.payload), {
        'stripe-signature': stub.signatureHeader(event.payload, { secret: 'whsec_attacker' }),
      }),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('names a finished setup-mode session as a card setup', async () => {
    const start = await provider.startCardSetup({
      reference: 'autopay-8',
      customerEmail: 'parent@example.test',
      customerName: 'Pat Parent',
      customerRef: null,
      returnUrl: 'https://tumble.test/account',
    });
    stub.markSetUp(start.sessionId);
    const event = stub.checkoutEvent('checkout.session.completed', start.sessionId);
    expect(
      await provider.parseWebhook(Buffer.from(event.payload), {
        'stripe-signature': stub.signatureHeader(event.payload),
      }),
    ).toEqual({ kind: 'card_setup', eventId: event.id, sessionId: start.sessionId });
  });
});
