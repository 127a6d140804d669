import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../deps.ts';
import { randomToken } from '../secrets.ts';
import type { Tenant } from '../tenancy.ts';
import { refundNoticed } from './notices.ts';
import { testCards, testCharges, testCheckouts, testRefunds } from './payments.tables.ts';
import {
  type CheckoutState,
  type PaymentProvider,
  type RefundState,
  WebhookSignatureError,
} from './provider.ts';

/** Cards of the test page, as in a provider's test mode: this one pays… */
export const TEST_SUCCESS_CARD = '4242424242424242';
/** …and this one is declined (and refused when saving a card). */
export const TEST_DECLINED_CARD = '4000000000000002';
/** Saves fine on the "save a card" page, but every later charge of it is declined. */
export const TEST_CHARGE_DECLINED_CARD = '4000000000000341';

/** A test refund of an amount ending in 13 cents (e.g. $10.13) fails, so a failed refund can be seen. */
export const failsAsRefund = (amount: number) => amount % 100 === 13;
export const TEST_REFUND_FAILURE = 'The card was closed.';
const DECLINED = 'Your card was declined.';

/** How long a "save a card" page stays open. */
const SETUP_HOURS = 24;

/** The Luhn check every real card number passes. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * What the test card page does with a number: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is
 * declined; a number that is not 12–19 digits or fails the Luhn check is invalid; any other
 * valid-looking number is declined, saying which numbers to use.
 */
export function testCardOutcome(
  typed: string,
): { outcome: 'paid' } | { outcome: 'declined' | 'invalid'; message: string } {
  const card = typed.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(card) || !luhnValid(card))
    return { outcome: 'invalid', message: 'Your card number is invalid.' };
  if (card === TEST_SUCCESS_CARD) return { outcome: 'paid' };
  if (card === TEST_DECLINED_CARD) return { outcome: 'declined', message: DECLINED };
  return {
    outcome: 'declined',
    message: 'Your card was declined. This is test mode: use 4242 4242 4242 4242 to pay.',
  };
}

/**
 * Webhook deliveries of the test provider still under way (a refund turning succeeded or failed and
 * its notice). Tests await `testNoticesDelivered()` instead of sleeping.
 */
const deliveries = new Set<Promise<void>>();

/** Resolves once every test-provider webhook "sent" so far was handled. */
export async function testNoticesDelivered(): Promise<void> {
  while (deliveries.size > 0) await Promise.all(deliveries);
}

/** Runs `work` after the current request has answered, as a provider's webhook arrives later. */
function deliverLater(work: () => Promise<void>): void {
  const delivery = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .catch((error: unknown) => console.error('[payments] test provider webhook failed', error))
    .finally(() => deliveries.delete(delivery));
  deliveries.add(delivery);
}

/**
 * The `test` provider: checkouts live in our own table and are paid on a local card page
 * (/payments/test) that says it is test mode. It goes through the same confirm path as Stripe
 * and Square, so the demo and the end-to-end tests exercise real holds and confirmations.
 * Refunds, saved cards (the same page in "save a card" mode) and off-session charges live in
 * tables of their own; a refund settles when its simulated webhook arrives (`refundNoticed`).
 */
export function createTestProvider(
  deps: AppDeps,
  tenant: Tenant,
  options: { publicUrl: string; webhookSecret: string },
): PaymentProvider {
  const { db } = deps.database;
  const read = async (sessionId: string): Promise<CheckoutState> => {
    const [row] = await db
      .select()
      .from(testCheckouts)
      .where(tenant.where(testCheckouts, eq(testCheckouts.id, sessionId), eq(testCheckouts.mode, 'payment')));
    if (!row) throw new Error(`unknown test checkout ${sessionId}`);
    const unpaid = row.status === 'open' || row.status === 'failed';
    const status = unpaid && row.expiresAt.getTime() <= Date.now() ? 'expired' : row.status;
    return {
      sessionId: row.id,
      reference: row.reference,
      // A payment-mode row is never `saved` (that is the setup mode's end).
      status: status as CheckoutState['status'],
      amount: row.amount,
    };
  };

  const readRefund = async (refundRef: string): Promise<RefundState> => {
    const [row] = await db
      .select()
      .from(testRefunds)
      .where(tenant.where(testRefunds, eq(testRefunds.id, refundRef)));
    if (!row) throw new Error(`unknown test refund ${refundRef}`);
    return { refundRef: row.id, status: row.status, amount: row.amount, failureReason: row.failureReason };
  };

  /** Whether `paymentRef` is money this provider took: a paid checkout or a paid off-session charge. */
  const paid = async (paymentRef: string): Promise<boolean> => {
    const [checkout] = await db
      .select({ id: testCheckouts.id })
      .from(testCheckouts)
      .where(tenant.where(testCheckouts, eq(testCheckouts.id, paymentRef), eq(testCheckouts.status, 'paid')));
    if (checkout) return true;
    const [charge] = await db
      .select({ id: testCharges.id })
      .from(testCharges)
      .where(tenant.where(testCharges, eq(testCharges.id, paymentRef), eq(testCharges.status, 'paid')));
    return Boolean(charge);
  };

  return {
    name: 'test',
    async createCheckout(request) {
      const id = `test_cs_${randomToken(18)}`;
      await db.insert(testCheckouts).values(
        tenant.values({
          id,
          reference: request.reference,
          amount: request.amount,
          currency: request.currency,
          description: request.description,
          returnUrl: request.returnUrl,
          expiresAt: request.expiresAt,
        }),
      );
      return { kind: 'redirect', sessionId: id, url: `${options.publicUrl}/payments/test?session=${id}` };
    },
    getCheckout: read,
    async expireCheckout(sessionId) {
      await db
        .update(testCheckouts)
        .set({ status: 'expired' })
        .where(
          tenant.where(
            testCheckouts,
            eq(testCheckouts.id, sessionId),
            inArray(testCheckouts.status, ['open', 'failed']),
          ),
        );
    },
    async parseWebhook(rawBody, headers) {
      const expected = createHmac('sha256', options.webhookSecret).update(rawBody).digest('hex');
      const given = String(headers['x-test-signature'] ?? '');
      if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
        throw new WebhookSignatureError();
      }
      const event = JSON.parse(rawBody.toString('utf8')) as {
        id?: string;
        session?: string;
        refund?: string;
      };
      if (!event.id) return null;
      if (event.session) return { kind: 'checkout', eventId: event.id, sessionId: event.session };
      if (event.refund) return { kind: 'refund', eventId: event.id, refundRef: event.refund };
      return null;
    },

    async refund(request) {
      assertCents(request.amount);
      if (!(await paid(request.paymentRef))) throw new Error(`no paid test payment ${request.paymentRef}`);
      const [created] = await db
        .insert(testRefunds)
        .values(
          tenant.values({
            id: `test_re_${randomToken(18)}`,
            paymentRef: request.paymentRef,
            amount: request.amount,
            currency: request.currency,
            reason: request.reason,
            idempotencyKey: request.idempotencyKey,
          }),
        )
        .onConflictDoNothing()
        .returning({ id: testRefunds.id });
      if (!created) {
        // The same key again: the first refund, whatever this request says.
        const [first] = await db
          .select({ id: testRefunds.id })
          .from(testRefunds)
          .where(tenant.where(testRefunds, eq(testRefunds.idempotencyKey, request.idempotencyKey)));
        return readRefund(first!.id);
      }
      const answer = await readRefund(created.id);
      // The "bank" answers after we did: the refund settles, then its webhook arrives.
      deliverLater(async () => {
        const failed = failsAsRefund(request.amount);
        await db
          .update(testRefunds)
          .set({
            status: failed ? 'failed' : 'succeeded',
            failureReason: failed ? TEST_REFUND_FAILURE : null,
          })
          .where(
            tenant.where(testRefunds, eq(testRefunds.id, created.id), eq(testRefunds.status, 'pending')),
          );
        await refundNoticed(deps, 'test', created.id);
      });
      return answer;
    },

    getRefund: readRefund,

    async startCardSetup(request) {
      const id = `test_cs_${randomToken(18)}`;
      await db.insert(testCheckouts).values(
        tenant.values({
          id,
          mode: 'setup' as const,
          reference: request.reference,
          amount: 0,
          currency: '',
          description: 'Save a card',
          returnUrl: request.returnUrl,
          customerRef: request.customerRef ?? `test_cus_${randomToken(12)}`,
          expiresAt: new Date(Date.now() + SETUP_HOURS * 60 * 60 * 1000),
        }),
      );
      return { kind: 'redirect', sessionId: id, url: `${options.publicUrl}/payments/test?session=${id}` };
    },

    async getCardSetup(sessionId) {
      const [row] = await db
        .select({ status: testCheckouts.status, card: testCards })
        .from(testCheckouts)
        .leftJoin(testCards, eq(testCards.id, testCheckouts.cardRef))
        .where(tenant.where(testCheckouts, eq(testCheckouts.id, sessionId), eq(testCheckouts.mode, 'setup')));
      if (!row) throw new Error(`unknown test card setup ${sessionId}`);
      if (row.status !== 'saved' || !row.card) return null;
      const { card } = row;
      return {
        customerRef: card.customerRef,
        cardRef: card.id,
        brand: 'visa',
        last4: card.last4,
        expMonth: card.expMonth,
        expYear: card.expYear,
      };
    },

    async chargeSavedCard(request) {
      assertCents(request.amount);
      const [card] = await db
        .select()
        .from(testCards)
        .where(
          tenant.where(
            testCards,
            eq(testCards.id, request.cardRef),
            eq(testCards.customerRef, request.customerRef),
          ),
        );
      if (!card) throw new Error(`unknown test card ${request.cardRef}`);
      await db
        .insert(testCharges)
        .values(
          tenant.values({
            id: `test_ch_${randomToken(18)}`,
            cardRef: card.id,
            customerRef: card.customerRef,
            amount: request.amount,
            currency: request.currency,
            description: request.description,
            reference: request.reference,
            idempotencyKey: request.idempotencyKey,
            status: card.declinesCharges ? ('failed' as const) : ('paid' as const),
            failureReason: card.declinesCharges ? DECLINED : null,
          }),
        )
        .onConflictDoNothing();
      // A new charge, or the first one made with this key (which charged nothing more).
      const [charge] = await db
        .select()
        .from(testCharges)
        .where(tenant.where(testCharges, eq(testCharges.idempotencyKey, request.idempotencyKey)));
      return { paymentRef: charge!.id, status: charge!.status, failureReason: charge!.failureReason };
    },
  };
}

function assertCents(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new Error(`An amount must be a positive whole number of cents, not ${amount}.`);
  }
}

/**
 * The card page's Pay button: a paying card pays an unexpired checkout that is open or whose last
 * card was declined; a declined card marks it failed (settlement then records the failure once).
 * Returns false when it can no longer be paid (expired, paid already).
 */
export async function payTestCheckout(
  db: Db,
  tenant: Tenant,
  sessionId: string,
  outcome: 'paid' | 'failed' = 'paid',
): Promise<boolean> {
  const paid = await db
    .update(testCheckouts)
    .set({ status: outcome })
    .where(
      and(
        tenant.where(
          testCheckouts,
          eq(testCheckouts.id, sessionId),
          eq(testCheckouts.mode, 'payment'),
          inArray(testCheckouts.status, ['open', 'failed']),
        ),
        sql`${testCheckouts.expiresAt} > now()`,
      ),
    )
    .returning({ id: testCheckouts.id });
  return paid.length === 1;
}

/**
 * The card page's Save card button (setup mode): 4242 4242 4242 4242 and 4000 0000 0000 0341 are
 * saved (the latter declines every later charge), with an expiry two years ahead; a declined number
 * marks the setup failed and the page takes another. Returns the outcome, or 'closed' when the
 * setup can no longer save a card (expired, saved already). The caller then sends the notice.
 */
export async function saveTestCard(
  db: Db,
  tenant: Tenant,
  sessionId: string,
  typed: string,
  now = new Date(),
): Promise<{ outcome: 'saved' | 'closed' } | { outcome: 'declined' | 'invalid'; message: string }> {
  const card = typed.replace(/[\s-]/g, '');
  const checked = testCardOutcome(card);
  const saves = checked.outcome === 'paid' || card === TEST_CHARGE_DECLINED_CARD;
  /** The setup while it can still take a card: not saved, not expired. */
  const stillOpen = [
    eq(testCheckouts.id, sessionId),
    eq(testCheckouts.mode, 'setup'),
    inArray(testCheckouts.status, ['open', 'failed']),
    sql`${testCheckouts.expiresAt} > now()`,
  ];
  if (!saves) {
    if (checked.outcome === 'invalid') return checked;
    const refused = await db
      .update(testCheckouts)
      .set({ status: 'failed' })
      .where(tenant.where(testCheckouts, ...stillOpen))
      .returning({ id: testCheckouts.id });
    if (refused.length === 0) return { outcome: 'closed' };
    return {
      outcome: 'declined',
      message:
        card === TEST_DECLINED_CARD
          ? DECLINED
          : 'Your card was declined. This is test mode: use 4242 4242 4242 4242 to save a card.',
    };
  }
  return db.transaction(async (tx) => {
    const [setup] = await tx
      .select({ customerRef: testCheckouts.customerRef })
      .from(testCheckouts)
      .where(tenant.where(testCheckouts, ...stillOpen))
      .for('update');
    if (!setup?.customerRef) return { outcome: 'closed' as const };
    const cardRef = `test_card_${randomToken(12)}`;
    await tx.insert(testCards).values(
      tenant.values({
        id: cardRef,
        customerRef: setup.customerRef,
        last4: card.slice(-4),
        declinesCharges: card === TEST_CHARGE_DECLINED_CARD,
        expMonth: now.getUTCMonth() + 1,
        expYear: now.getUTCFullYear() + 2,
      }),
    );
    await tx
      .update(testCheckouts)
      .set({ status: 'saved', cardRef })
      .where(tenant.where(testCheckouts, eq(testCheckouts.id, sessionId)));
    return { outcome: 'saved' as const };
  });
}

/** Which company a test checkout belongs to (the card page is public and names only the session). */
export async function testCheckoutCompany(db: Db, sessionId: string): Promise<number | null> {
  const [row] = await db
    .select({ companyId: testCheckouts.companyId })
    .from(testCheckouts)
    // cross-tenant: the public card page names only the session.
    .where(eq(testCheckouts.id, sessionId));
  return row?.companyId ?? null;
}
