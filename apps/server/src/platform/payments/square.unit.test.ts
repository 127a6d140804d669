import { SquareClient, SquareError, WebhooksHelper } from 'square';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CheckoutRequest, type PaymentProvider, WebhookSignatureError } from './provider.ts';
import { createSquareProvider, PAYMENT_LINK_METADATA_KEY, SQUARE_API_VERSION, squareKey } from './square.ts';
import { type SquareStub, start } from './testing/square-stub.ts';

// The adapter runs through the real square SDK over HTTP against a local stand-in for Square.

let stub: SquareStub;
let provider: PaymentProvider;

beforeAll(async () => {
  stub = await start();
  provider = createSquareProvider({
    accessToken: stub.accessToken,
    locationId: stub.locationId,
    webhookSignatureKey: stub.signatureKey,
    notificationUrl: stub.notificationUrl,
    environment: 'sandbox',
    baseUrl: stub.url,
  });
});

beforeEach(() => {
  stub.deleteCancelsOrder = true;
});

afterAll(async () => {
  await stub.close();
});

function checkoutRequest(overrides: Partial<CheckoutRequest> = {}): CheckoutRequest {
  return {
    reference: 'BK-1001',
    amount: 12_345,
    currency: 'aud',
    description: 'Holiday camp (2 children)',
    customerEmail: 'parent@example.test',
    returnUrl: 'https://tumble.test/booking?authhash=abc&status=true',
    expiresAt: new Date(Date.now() + 30 * 60 * 1000),
    ...overrides,
  };
}

function requestsTo(method: string, pathStart: string) {
  return stub.requests.filter((r) => r.method === method && r.path.startsWith(pathStart));
}

describe('square provider: checkout', () => {
  it('creates a payment link for an order carrying the amount, currency, reference and return url', async () => {
    const result = await provider.createCheckout(checkoutRequest());

    expect(result.kind).toBe('redirect');
    if (result.kind !== 'redirect') return;
    const order = stub.orders.get(result.sessionId);
    expect(order, 'the session id is the order id').toBeDefined();
    const link = [...stub.links.values()].find((l) => l.order_id === result.sessionId);
    expect(result.url).toBe(link?.url);

    const sent = requestsTo('POST', '/v2/online-checkout/payment-links').at(-1);
    expect(sent?.headers.authorization).toBe(`Bearer ${stub.accessToken}`);
    expect(sent?.headers['square-version']).toBe(SQUARE_API_VERSION);
    expect(sent?.body).toMatchObject({
      idempotency_key: expect.stringMatching(/^BK-1001-/),
      order: {
        location_id: stub.locationId,
        reference_id: 'BK-1001',
        line_items: [
          {
            name: 'Holiday camp (2 children)',
            quantity: '1',
            base_price_money: { amount: 12_345, currency: 'AUD' },
          },
        ],
      },
      checkout_options: {
        redirect_url: 'https://tumble.test/booking?authhash=abc&status=true',
        allow_tipping: false,
      },
      pre_populated_data: { buyer_email: 'parent@example.test' },
      payment_note: 'BK-1001',
    });
    // The link id is kept on the order, so the link can be deleted later from the session id alone.
    expect(order?.metadata?.[PAYMENT_LINK_METADATA_KEY]).toBe(link?.id);
  });

  it('retries the link bookkeeping once when Square moved the order version on', async () => {
    stub.bumpVersionBeforeNextUpdate();
    const result = await provider.createCheckout(checkoutRequest({ reference: 'BK-1002' }));
    const order = stub.orders.get(result.sessionId);
    expect(order?.metadata?.[PAYMENT_LINK_METADATA_KEY]).toBeDefined();
    expect(requestsTo('PUT', `/v2/orders/${result.sessionId}`)).toHaveLength(2);
  });

  it('reads a draft order as open, then paid once the buyer paid', async () => {
    const { sessionId } = await provider.createCheckout(
      checkoutRequest({ reference: 'BK-2002', amount: 5_000 }),
    );

    expect(await provider.getCheckout(sessionId)).toEqual({
      sessionId,
      reference: 'BK-2002',
      status: 'open',
      amount: 5_000,
    });

    stub.markPaid(sessionId);
    expect(stub.orders.get(sessionId)?.state, 'paid link orders stay OPEN').toBe('OPEN');
    expect(await provider.getCheckout(sessionId)).toEqual({
      sessionId,
      reference: 'BK-2002',
      status: 'paid',
      amount: 5_000,
    });

    // Expiring a paid checkout is a no-op: it stays paid and nothing is deleted or canceled.
    const linkId = stub.orders.get(sessionId)?.metadata?.[PAYMENT_LINK_METADATA_KEY] ?? '';
    await provider.expireCheckout(sessionId);
    expect(await provider.getCheckout(sessionId)).toMatchObject({ status: 'paid' });
    expect(stub.links.has(linkId)).toBe(true);
  });

  it('expires an open checkout by deleting its link, and expiring it again is fine', async () => {
    const { sessionId } = await provider.createCheckout(checkoutRequest({ reference: 'BK-3003' }));
    const linkId = stub.orders.get(sessionId)?.metadata?.[PAYMENT_LINK_METADATA_KEY] ?? '';

    await provider.expireCheckout(sessionId);
    expect(stub.links.has(linkId)).toBe(false);
    expect(stub.orders.get(sessionId)?.state).toBe('CANCELED');
    expect(await provider.getCheckout(sessionId)).toMatchObject({ status: 'expired', reference: 'BK-3003' });

    await provider.expireCheckout(sessionId);
    expect(await provider.getCheckout(sessionId)).toMatchObject({ status: 'expired' });
  });

  it('cancels the order itself when deleting the link left it open', async () => {
    stub.deleteCancelsOrder = false;
    const { sessionId } = await provider.createCheckout(checkoutRequest({ reference: 'BK-4004' }));

    await provider.expireCheckout(sessionId);
    expect(stub.orders.get(sessionId)?.state).toBe('CANCELED');
    expect(await provider.getCheckout(sessionId)).toMatchObject({ status: 'expired' });

    await provider.expireCheckout(sessionId);
    expect(await provider.getCheckout(sessionId)).toMatchObject({ status: 'expired' });
  });

  it('does not hide real failures', async () => {
    await expect(provider.getCheckout('NOSUCHORDER')).rejects.toBeInstanceOf(SquareError);
    await expect(provider.expireCheckout('NOSUCHORDER')).rejects.toBeInstanceOf(SquareError);

    const wrongToken = createSquareProvider({
      accessToken: 'EAAA-wrong',
      locationId: stub.locationId,
      webhookSignatureKey: stub.signatureKey,
      notificationUrl: stub.notificationUrl,
      environment: 'sandbox',
      baseUrl: stub.url,
    });
    await expect(wrongToken.createCheckout(checkoutRequest())).rejects.toMatchObject({ statusCode: 401 });
    await expect(provider.createCheckout(checkoutRequest({ amount: 0 }))).rejects.toThrow(/whole number/);
    await expect(provider.createCheckout(checkoutRequest({ reference: 'R'.repeat(41) }))).rejects.toThrow(
      /40/,
    );
  });
});

describe('square provider: webhooks', () => {
  async function paidPayment() {
    const { sessionId } = await provider.createCheckout(checkoutRequest());
    return { sessionId, payment: stub.markPaid(sessionId) };
  }

  it('accepts a correctly signed payment event and names its order', async () => {
    const { sessionId, payment } = await paidPayment();
    for (const type of ['payment.created', 'payment.updated']) {
      const event = stub.paymentEvent(type, payment);
      const signature = stub.sign(event.body);
      // The stub signs exactly as the square SDK's own helper checks.
      expect(
        await WebhooksHelper.verifySignature({
          requestBody: event.body,
          signatureHeader: signature,
          signatureKey: stub.signatureKey,
          notificationUrl: stub.notificationUrl,
        }),
      ).toBe(true);
      const notice = await provider.parseWebhook(Buffer.from(event.body), {
        'x-square-hmacsha256-signature': signature,
      });
      expect(notice, type).toEqual({ kind: 'checkout', eventId: event.eventId, sessionId });
    }
  });

  it('refuses a signature made with another key or for another notification url', async () => {
    const { payment } = await paidPayment();
    const event = stub.paymentEvent('payment.updated', payment);
    for (const signature of [
      stub.sign(event.body, { key: 'attacker-key' }),
      stub.sign(event.body, { notificationUrl: 'https://elsewhere.test/webhook' }),
      'not-a-signature',
    ]) {
      await expect(
        provider.parseWebhook(Buffer.from(event.body), { 'x-square-hmacsha256-signature': signature }),
      ).rejects.toBeInstanceOf(WebhookSignatureError);
    }
  });

  it('refuses a body that was re-serialized after signing', async () => {
    const { payment } = await paidPayment();
    const event = stub.paymentEvent('payment.updated', payment);
    const signature = stub.sign(event.body);
    const reserialized = JSON.stringify(JSON.parse(event.body), null, 2);
    await expect(
      provider.parseWebhook(Buffer.from(reserialized), { 'x-square-hmacsha256-signature': signature }),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
  });

  it('refuses a missing signature header', async () => {
    const { payment } = await paidPayment();
    const event = stub.paymentEvent('payment.updated', payment);
    await expect(provider.parseWebhook(Buffer.from(event.body), {})).rejects.toBeInstanceOf(
      WebhookSignatureError,
    );
  });

  it('answers null for a correctly signed event of another type', async () => {
    const body = JSON.stringify({
      merchant_id: 'MSTUB000001',
      type: 'customer.created',
      event_id: 'e-customer',
      data: { type: 'customer', id: 'C1', object: { customer: { id: 'C1' } } },
    });
    expect(
      await provider.parseWebhook(Buffer.from(body), { 'x-square-hmacsha256-signature': stub.sign(body) }),
    ).toBeNull();
  });
});

describe('square provider: refunds', () => {
  async function paidOrder(amount = 5_000) {
    const { sessionId } = await provider.createCheckout(checkoutRequest({ amount }));
    return { sessionId, payment: stub.markPaid(sessionId) };
  }

  it("refunds a checkout's payment (found from its order's tender) with our idempotency key", async () => {
    const { sessionId, payment } = await paidOrder();
    const state = await provider.refund({
      paymentRef: sessionId,
      amount: 1_500,
      currency: 'aud',
      reason: 'Class cancelled',
      idempotencyKey: 'refund-51',
    });
    expect(state).toEqual({
      refundRef: expect.any(String),
      status: 'pending',
      amount: 1_500,
      failureReason: null,
    });
    expect(requestsTo('POST', '/v2/refunds').at(-1)?.body).toEqual({
      idempotency_key: 'refund-51',
      payment_id: payment.id,
      amount_money: { amount: 1_500, currency: 'AUD' },
      reason: 'Class cancelled',
    });
    expect(stub.refunds.get(state.refundRef)?.payment_id).toBe(payment.id);
  });

  it('makes one refund for one key, and hashes keys longer than Square takes', async () => {
    const { sessionId, payment } = await paidOrder();
    const key = `refund-${'x'.repeat(60)}`;
    const request = {
      paymentRef: sessionId,
      amount: 700,
      currency: 'AUD',
      reason: 'Sick',
      idempotencyKey: key,
    };
    const first = await provider.refund(request);
    const again = await provider.refund(request);
    expect(again.refundRef).toBe(first.refundRef);
    expect([...stub.refunds.values()].filter((r) => r.payment_id === payment.id)).toHaveLength(1);
    expect(requestsTo('POST', '/v2/refunds').at(-1)?.body).toMatchObject({ idempotency_key: squareKey(key) });
    expect(squareKey(key)).toHaveLength(45);
  });

  it('reads a refund as Square moves it on', async () => {
    const { sessionId } = await paidOrder();
    const base = { paymentRef: sessionId, amount: 100, currency: 'AUD', reason: 'x' };
    const done = await provider.refund({ ...base, idempotencyKey: 'refund-52' });
    stub.settleRefund(done.refundRef, 'COMPLETED');
    expect(await provider.getRefund(done.refundRef)).toEqual({ ...done, status: 'succeeded' });
    const rejected = await provider.refund({ ...base, idempotencyKey: 'refund-53' });
    stub.settleRefund(rejected.refundRef, 'REJECTED');
    expect(await provider.getRefund(rejected.refundRef)).toMatchObject({
      status: 'failed',
      failureReason: 'Square rejected the refund.',
    });
  });

  it('does not hide a refund Square refuses, or an order nobody paid', async () => {
    const { sessionId } = await paidOrder(1_000);
    const base = { currency: 'AUD', reason: 'x' };
    await expect(
      provider.refund({ ...base, paymentRef: sessionId, amount: 1_001, idempotencyKey: 'refund-54' }),
    ).rejects.toBeInstanceOf(SquareError);
    const unpaid = await provider.createCheckout(checkoutRequest());
    await expect(
      provider.refund({ ...base, paymentRef: unpaid.sessionId, amount: 100, idempotencyKey: 'refund-55' }),
    ).rejects.toThrow(/no payment to refund/);
  });
});

describe('square provider: off-session charges of a saved card', () => {
  // The card on file is made through the square SDK itself, as our card page's route does.
  async function cardOnFile() {
    const square = new SquareClient({
      token: stub.accessToken,
      baseUrl: stub.url,
      version: SQUARE_API_VERSION,
    });
    const { customer } = await square.customers.create({
      idempotencyKey: crypto.randomUUID(),
      emailAddress: 'p@x.test',
    });
    const { card } = await square.cards.create({
      idempotencyKey: crypto.randomUUID(),
      sourceId: 'cnon:card-nonce-ok',
      card: { customerId: customer!.id! },
    });
    return { customerRef: customer!.id!, cardRef: card!.id! };
  }

  const charge = (card: { customerRef: string; cardRef: string }, key: string) => ({
    ...card,
    amount: 12_000,
    currency: 'AUD',
    description: 'Term 1 instalment 2',
    reference: 'INV-7',
    idempotencyKey: key,
  });

  it('charges the card on file once per idempotency key, and the charge can be refunded', async () => {
    const card = await cardOnFile();
    const first = await provider.chargeSavedCard(charge(card, 'instalment-5-1'));
    expect(first).toEqual({ paymentRef: expect.any(String), status: 'paid', failureReason: null });
    expect(requestsTo('POST', '/v2/payments').at(-1)?.body).toMatchObject({
      source_id: card.cardRef,
      customer_id: card.customerRef,
      idempotency_key: 'instalment-5-1',
      amount_money: { amount: 12_000, currency: 'AUD' },
      autocomplete: true,
      location_id: stub.locationId,
      reference_id: 'INV-7',
    });
    const count = stub.payments.size;
    expect(await provider.chargeSavedCard(charge(card, 'instalment-5-1'))).toEqual(first);
    expect(stub.payments.size, 'the same key charges nothing more').toBe(count);

    const refund = await provider.refund({
      paymentRef: first.paymentRef,
      amount: 12_000,
      currency: 'AUD',
      reason: 'Withdrawn',
      idempotencyKey: 'refund-56',
    });
    expect(stub.refunds.get(refund.refundRef)?.payment_id).toBe(first.paymentRef);
  });

  it("answers a declined card as a failed charge in Square's words, and throws on other errors", async () => {
    const card = await cardOnFile();
    stub.declineChargesOf(card.cardRef);
    expect(await provider.chargeSavedCard(charge(card, 'instalment-6-1'))).toEqual({
      paymentRef: expect.any(String),
      status: 'failed',
      failureReason: "Authorization error: 'CARD_DECLINED'",
    });
    await expect(
      provider.chargeSavedCard(charge({ ...card, cardRef: 'ccof:missing' }, 'instalment-6-2')),
    ).rejects.toBeInstanceOf(SquareError);
  });
});

describe('square provider: refund webhooks', () => {
  async function refund() {
    const { sessionId } = await provider.createCheckout(checkoutRequest());
    stub.markPaid(sessionId);
    const state = await provider.refund({
      paymentRef: sessionId,
      amount: 100,
      currency: 'AUD',
      reason: 'x',
      idempotencyKey: crypto.randomUUID(),
    });
    return stub.refunds.get(state.refundRef)!;
  }

  it('names the refund of refund events', async () => {
    const found = await refund();
    for (const type of ['refund.created', 'refund.updated']) {
      const event = stub.refundEvent(type, found);
      const notice = await provider.parseWebhook(Buffer.from(event.body), {
        'x-square-hmacsha256-signature': stub.sign(event.body),
      });
      expect(notice, type).toEqual({ kind: 'refund', eventId: event.eventId, refundRef: found.id });
    }
  });

  it('refuses a refund event signed with another key', async () => {
    const event = stub.refundEvent('refund.updated', await refund());
    await expect(
      provider.parseWebhook(Buffer.from(event.body), {
        'x-square-hmacsha256-signature': stub.sign(event.body, { key: 'attacker-key' }),
      }),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
  });
});
