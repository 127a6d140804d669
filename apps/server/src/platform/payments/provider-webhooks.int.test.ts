import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { Tenant } from '../tenancy.ts';
import { onCardSetupNotice, onRefundNotice } from './notices.ts';
import type { ProviderName } from './provider.ts';
import { providerFor } from './registry.ts';
import * as squareStub from './testing/square-stub.ts';
import * as stripeStub from './testing/stripe-stub.ts';

// The webhook routes hand refund and card-setup events to billing's notice handlers (registered
// here by the test), checkout events to settlement, and refuse a bad signature with 400.

describe('provider webhooks: refund and card setup notices', () => {
  let t: TestContext;
  let stripe: stripeStub.StripeStub;
  let square: squareStub.SquareStub;
  const refunds: { provider: ProviderName; refundRef: string }[] = [];
  const setups: { provider: ProviderName; sessionId: string }[] = [];

  beforeAll(async () => {
    stripe = await stripeStub.start();
    square = await squareStub.start({ notificationUrl: 'http://tumble.test/integrations/square/webhook' });
    t = await createTestApp({
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_stub',
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
      SQUARE_ACCESS_TOKEN: square.accessToken,
      SQUARE_LOCATION_ID: square.locationId,
      SQUARE_WEBHOOK_SIGNATURE_KEY: square.signatureKey,
      SQUARE_BASE_URL: square.url,
    });
    onRefundNotice(async (_deps, provider, refundRef) => {
      refunds.push({ provider, refundRef });
    });
    onCardSetupNotice(async (_deps, provider, sessionId) => {
      setups.push({ provider, sessionId });
    });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
    await square.close();
  });

  // Webhooks name no company: any tenant's adapter makes the objects at the providers.
  const provider = (name: 'stripe' | 'square') => providerFor(t.deps, new Tenant(1), name);

  async function stripeRefund(): Promise<string> {
    const start = await provider('stripe').createCheckout({
      reference: 'BK-1',
      amount: 5_000,
      currency: 'AUD',
      description: 'Camp',
      customerEmail: 'p@example.test',
      returnUrl: 'http://tumble.test/booking',
      expiresAt: new Date(Date.now() + 2 * 60 * 60 * 1000),
    });
    stripe.markPaid(start.sessionId);
    const refund = await provider('stripe').refund({
      paymentRef: start.sessionId,
      amount: 1_000,
      currency: 'AUD',
      reason: 'x',
      idempotencyKey: crypto.randomUUID(),
    });
    return refund.refundRef;
  }

  it('hands a signed Stripe refund event to the refund handler, and refuses a bad signature', async () => {
    const refundRef = await stripeRefund();
    const event = stripe.refundEvent('refund.updated', refundRef);
    const forged = await t.app.inject({
      method: 'POST',
      url: '/integrations/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripe.signatureHeader(event.payload, { secret: 'whsec_attacker' }),
      },
      payload: event.payload,
    });
    expect(forged.statusCode).toBe(400);
    expect(refunds).toEqual([]);

    const signed = await t.app.inject({
      method: 'POST',
      url: '/integrations/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripe.signatureHeader(event.payload),
      },
      payload: event.payload,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(refunds).toEqual([{ provider: 'stripe', refundRef }]);
  });

  it('hands a finished Stripe setup session to the card setup handler', async () => {
    const start = await provider('stripe').startCardSetup({
      reference: 'autopay-1',
      customerEmail: 'p@example.test',
      customerName: 'Pat Parent',
      customerRef: null,
      returnUrl: 'http://tumble.test/account',
    });
    stripe.markSetUp(start.sessionId);
    const event = stripe.checkoutEvent('checkout.session.completed', start.sessionId);
    const response = await t.app.inject({
      method: 'POST',
      url: '/integrations/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripe.signatureHeader(event.payload),
      },
      payload: event.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(setups).toEqual([{ provider: 'stripe', sessionId: start.sessionId }]);
  });

  it('hands a signed Square refund event to the refund handler, and refuses a bad signature', async () => {
    const { sessionId } = await provider('square').createCheckout({
      reference: 'BK-2',
      amount: 5_000,
      currency: 'AUD',
      description: 'Camp',
      customerEmail: 'p@example.test',
      returnUrl: 'http://tumble.test/booking',
      expiresAt: new Date(Date.now() + 30 * 60 * 1000),
    });
    square.markPaid(sessionId);
    const refund = await provider('square').refund({
      paymentRef: sessionId,
      amount: 1_000,
      currency: 'AUD',
      reason: 'x',
      idempotencyKey: crypto.randomUUID(),
    });
    const event = square.refundEvent('refund.updated', square.refunds.get(refund.refundRef)!);
    const post = (signature: string) =>
      t.app.inject({
        method: 'POST',
        url: '/integrations/square/webhook',
        headers: { 'content-type': 'application/json', 'x-square-hmacsha256-signature': signature },
        payload: event.body,
      });
    expect((await post(square.sign(event.body, { key: 'attacker-key' }))).statusCode).toBe(400);
    expect(refunds.filter((r) => r.provider === 'square')).toEqual([]);
    const signed = await post(square.sign(event.body));
    expect(signed.statusCode, signed.body).toBe(200);
    expect(refunds.filter((r) => r.provider === 'square')).toEqual([
      { provider: 'square', refundRef: refund.refundRef },
    ]);
  });
});
