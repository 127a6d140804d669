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
