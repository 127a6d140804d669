import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { Tenant } from '../tenancy.ts';
import { onCardSetupNotice, onRefundNotice } from './notices.ts';
import { testCharges, testRefunds } from './payments.tables.ts';
import type { ChargeRequest, PaymentProvider, ProviderName, RefundState } from './provider.ts';
import { providerFor } from './registry.ts';
import { payTestCheckout, testNoticesDelivered } from './test.ts';

// The `test` provider's refunds, saved cards and off-session charges, on real PostgreSQL and through
// the card page's routes. Billing's notice handlers are not registered here: the test registers its own.

describe('test provider: refunds, saved cards, off-session charges', () => {
  let t: TestContext;
  let tenant: Tenant;
  let provider: PaymentProvider;
  const refundNotices: { provider: ProviderName; state: RefundState }[] = [];
  const setupNotices: { provider: ProviderName; sessionId: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    tenant = new Tenant((await createCompany(t.database.db)).id);
    provider = providerFor(t.deps, tenant, 'test');
    // As billing's handler does: re-read the refund from the provider when its notice arrives.
    onRefundNotice(async (deps, name, refundRef) => {
      const [row] = await deps.database.db
        .select({ companyId: testRefunds.companyId })
        .from(testRefunds)
        .where(eq(testRefunds.id, refundRef));
      const state = await providerFor(deps, new Tenant(row!.companyId), name).getRefund(refundRef);
      refundNotices.push({ provider: name, state });
    });
    onCardSetupNotice(async (_deps, name, sessionId) => {
      setupNotices.push({ provider: name, sessionId });
    });
  });
  afterAll(async () => {
    await testNoticesDelivered();
    await t.close();
  });

  async function paidCheckout(amount = 5_000): Promise<string> {
    const start = await provider.createCheckout({
      reference: 'BK-1',
      amount,
      currency: 'AUD',
      description: 'Holiday camp',
      customerEmail: 'parent@example.test',
      returnUrl: 'http://tumble.test/booking?status=true',
      expiresAt: new Date(Date.now() + 30 * 60 * 1000),
    });
    expect(await payTestCheckout(t.database.db, tenant, start.sessionId)).toBe(true);
    return start.sessionId;
  }

  async function saveCard(cardNumber: string, customerRef: string | null = null) {
    const start = await provider.startCardSetup({
      reference: 'autopay-1',
      customerEmail: 'parent@example.test',
      customerName: 'Pat Parent',
      customerRef,
      returnUrl: 'http://tumble.test/account/autopay?saved=1',
    });
    expect(start.kind).toBe('redirect');
    const saved = await t.app.inject({
      method: 'POST',
      url: '/integrations/test/save-card',
      payload: { session: start.sessionId, card_number: cardNumber },
    });
    return { sessionId: start.sessionId, start, saved };
  }

  const charge = (card: { customerRef: string; cardRef: string }, key: string): ChargeRequest => ({
    ...card,
    amount: 12_000,
    currency: 'AUD',
    description: 'Term 1 instalment 2',
    reference: 'INV-7',
    idempotencyKey: key,
  });

  const countCharges = async (cardRef: string) =>
    (await t.database.db.select().from(testCharges).where(eq(testCharges.cardRef, cardRef))).length;

  it('records a refund as pending; its webhook then says succeeded, and the notice re-reads it', async () => {
    const paymentRef = await paidCheckout();
    const started = await provider.refund({
      paymentRef,
      amount: 2_000,
      currency: 'AUD',
      reason: 'Class cancelled',
      idempotencyKey: 'refund-1',
    });
    expect(started).toEqual({
      refundRef: expect.stringMatching(/^test_re_/),
      status: 'pending',
      amount: 2_000,
      failureReason: null,
    });
    expect(refundNotices.filter((n) => n.state.refundRef === started.refundRef)).toEqual([]);

    await testNoticesDelivered();
    expect(refundNotices.filter((n) => n.state.refundRef === started.refundRef)).toEqual([
      {
        provider: 'test',
        state: { refundRef: started.refundRef, status: 'succeeded', amount: 2_000, failureReason: null },
      },
    ]);
    expect(await provider.getRefund(started.refundRef)).toMatchObject({ status: 'succeeded' });
  });

  it('makes one refund per idempotency key, whatever is sent twice', async () => {
    const paymentRef = await paidCheckout();
    const request = {
      paymentRef,
      amount: 1_500,
      currency: 'AUD',
      reason: 'Sick',
      idempotencyKey: 'refund-2',
    };
    const first = await provider.refund(request);
    const again = await provider.refund({ ...request, amount: 1_600 });
    expect(again.refundRef).toBe(first.refundRef);
    expect(again.amount).toBe(1_500);
    const rows = await t.database.db.select().from(testRefunds).where(eq(testRefunds.paymentRef, paymentRef));
    expect(rows).toHaveLength(1);
    await testNoticesDelivered();
    expect(refundNotices.filter((n) => n.state.refundRef === first.refundRef)).toHaveLength(1);
  });

  it('fails a refund of an amount ending in 13 cents, saying why', async () => {
    const paymentRef = await paidCheckout();
    const started = await provider.refund({
      paymentRef,
      amount: 1_013,
      currency: 'AUD',
      reason: 'Overcharged',
      idempotencyKey: 'refund-3',
    });
    expect(started.status).toBe('pending');
    await testNoticesDelivered();
    expect(await provider.getRefund(started.refundRef)).toEqual({
      refundRef: started.refundRef,
      status: 'failed',
      amount: 1_013,
      failureReason: 'The card was closed.',
    });
  });

  it('refuses to refund a payment it did not take, and hides refunds from other companies', async () => {
    const unpaid = await provider.createCheckout({
      reference: 'BK-2',
      amount: 5_000,
      currency: 'AUD',
      description: 'Holiday camp',
      customerEmail: 'parent@example.test',
      returnUrl: 'http://tumble.test/booking',
      expiresAt: new Date(Date.now() + 30 * 60 * 1000),
    });
    const request = { amount: 100, currency: 'AUD', reason: 'x', idempotencyKey: 'refund-4' };
    await expect(provider.refund({ ...request, paymentRef: unpaid.sessionId })).rejects.toThrow(/no paid/);
    await expect(provider.refund({ ...request, paymentRef: 'test_cs_nope' })).rejects.toThrow(/no paid/);

    const mine = await provider.refund({ ...request, paymentRef: await paidCheckout() });
    const foreign = providerFor(t.deps, new Tenant((await createCompany(t.database.db)).id), 'test');
    await expect(foreign.getRefund(mine.refundRef)).rejects.toThrow(/unknown test refund/);
  });

  it('saves the 4242 card on the card page, notices it, and charges it once per idempotency key', async () => {
    const refused = await saveCard('4000 0000 0000 0002');
    expect(refused.saved.statusCode).toBe(402);
    expect(refused.saved.json()).toEqual({ message: 'Your card was declined.' });
    expect(await provider.getCardSetup(refused.sessionId)).toBeNull();

    const { sessionId, start, saved } = await saveCard('4242 4242 4242 4242');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ redirect: 'http://tumble.test/account/autopay?saved=1' });
    expect(setupNotices).toContainEqual({ provider: 'test', sessionId });
    if (start.kind === 'redirect')
      expect(start.url).toBe(`http://tumble.test/payments/test?session=${sessionId}`);

    const card = await provider.getCardSetup(sessionId);
    expect(card).toEqual({
      customerRef: expect.stringMatching(/^test_cus_/),
      cardRef: expect.stringMatching(/^test_card_/),
      brand: 'visa',
      last4: '4242',
      expMonth: new Date().getUTCMonth() + 1,
      expYear: new Date().getUTCFullYear() + 2,
    });

    const first = await provider.chargeSavedCard(charge(card!, 'instalment-9-1'));
    expect(first).toEqual({
      paymentRef: expect.stringMatching(/^test_ch_/),
      status: 'paid',
      failureReason: null,
    });
    const again = await provider.chargeSavedCard(charge(card!, 'instalment-9-1'));
    expect(again).toEqual(first);
    expect(await countCharges(card!.cardRef)).toBe(1);
    const next = await provider.chargeSavedCard(charge(card!, 'instalment-9-2'));
    expect(next.paymentRef).not.toBe(first.paymentRef);
    expect(await countCharges(card!.cardRef)).toBe(2);

    // An off-session charge can be refunded by its id, like a checkout.
    const refund = await provider.refund({
      paymentRef: first.paymentRef,
      amount: 12_000,
      currency: 'AUD',
      reason: 'Withdrawn',
      idempotencyKey: 'refund-5',
    });
    await testNoticesDelivered();
    expect(await provider.getRefund(refund.refundRef)).toMatchObject({ status: 'succeeded' });
  });

  it('saves the 0341 card, but every charge of it is declined', async () => {
    const { sessionId, saved } = await saveCard('4000000000000341');
    expect(saved.statusCode, saved.body).toBe(200);
    const card = await provider.getCardSetup(sessionId);
    expect(card).toMatchObject({ last4: '0341', brand: 'visa' });
    const result = await provider.chargeSavedCard(charge(card!, 'instalment-10-1'));
    expect(result).toEqual({
      paymentRef: expect.stringMatching(/^test_ch_/),
      status: 'failed',
      failureReason: 'Your card was declined.',
    });
  });

  it('keeps the family customer it is given, and a saved page takes no second card', async () => {
    const { sessionId } = await saveCard('4242424242424242', 'test_cus_family7');
    expect(await provider.getCardSetup(sessionId)).toMatchObject({ customerRef: 'test_cus_family7' });
    const second = await t.app.inject({
      method: 'POST',
      url: '/integrations/test/save-card',
      payload: { session: sessionId, card_number: '4242424242424242' },
    });
    expect(second.statusCode).toBe(409);
  });

  it('shows the setup page without an amount, and its Pay route is not there', async () => {
    const start = await provider.startCardSetup({
      reference: 'autopay-2',
      customerEmail: 'parent@example.test',
      customerName: 'Pat Parent',
      customerRef: null,
      returnUrl: 'http://tumble.test/account',
    });
    const page = await t.app.inject({ url: `/integrations/test/session?session=${start.sessionId}` });
    expect(page.json()).toMatchObject({ mode: 'setup', formatted: '', status: 'open' });
    const pay = await t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session: start.sessionId, card_number: '4242424242424242' },
    });
    expect(pay.statusCode).toBe(404);
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/integrations/test/save-card',
      payload: { session: start.sessionId, card_number: '1234' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(await provider.getCardSetup(start.sessionId)).toBeNull();
  });
});
