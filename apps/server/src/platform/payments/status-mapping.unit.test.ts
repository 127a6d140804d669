import type { Square } from 'square';
import { describe, expect, it } from 'vitest';
import { orderStatus } from './square.ts';
import { sessionStatus } from './stripe.ts';

/** How each provider's own state reads as ours: open, paid, expired or failed. */
describe('stripe: a Checkout Session as a checkout state', () => {
  const intent = (status: string) => ({ id: 'pi_1', object: 'payment_intent', status }) as never;
  it.each([
    ['open', 'unpaid', null, 'open'],
    ['complete', 'paid', intent('succeeded'), 'paid'],
    ['expired', 'unpaid', null, 'expired'],
    // An asynchronous payment still on its way is not a failure…
    ['complete', 'unpaid', intent('processing'), 'open'],
    // …one not expanded (an id only) cannot be told apart: still open.
    ['complete', 'unpaid', 'pi_1', 'open'],
    // …async_payment_failed leaves the intent needing a new payment method, or cancelled.
    ['complete', 'unpaid', intent('requires_payment_method'), 'failed'],
    ['complete', 'unpaid', intent('canceled'), 'failed'],
  ] as const)(
    'status %s, payment_status %s, intent %j → %s',
    (status, paymentStatus, paymentIntent, want) => {
      expect(sessionStatus({ status, payment_status: paymentStatus, payment_intent: paymentIntent })).toBe(
        want,
      );
    },
  );
});

describe('square: a payment link order as a checkout state', () => {
  const order = (state: Square.OrderState, tenders: Square.Tender[] = []): Square.Order => ({
    locationId: 'L1',
    state,
    totalMoney: { amount: 4500n, currency: 'AUD' },
    tenders,
  });
  const card = (status: Square.TenderCardDetailsStatus): Square.Tender => ({
    type: 'CARD',
    amountMoney: { amount: 4500n, currency: 'AUD' },
    cardDetails: { status },
  });
  it.each([
    ['a new link', order('DRAFT'), 'open'],
    ['a captured card', order('OPEN', [card('CAPTURED')]), 'paid'],
    ['a card only authorised', order('OPEN', [card('AUTHORIZED')]), 'open'],
    ['a FAILED payment', order('OPEN', [card('FAILED')]), 'failed'],
    ['a CANCELED payment (its tender voided)', order('OPEN', [card('VOIDED')]), 'failed'],
    ['a failed card, then a captured one', order('OPEN', [card('FAILED'), card('CAPTURED')]), 'paid'],
    ['a cancelled order', order('CANCELED', [card('FAILED')]), 'expired'],
    ['a completed order', order('COMPLETED'), 'paid'],
  ] as const)('%s → %s', (_name, value, want) => {
    expect(orderStatus(value)).toBe(want);
  });
});
