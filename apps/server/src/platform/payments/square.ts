import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
// Types only: the SDK itself is imported when a company first uses Square (squareSdk below).
import type { Square, SquareClient, SquareError } from 'square';
import type { Db } from '../../db/client.ts';
import { randomToken } from '../secrets.ts';
import type { Tenant } from '../tenancy.ts';
import { squareCardSetups } from './payments.tables.ts';
import {
  type ChargeResult,
  type CheckoutRequest,
  type CheckoutStart,
  type CheckoutState,
  type PaymentProvider,
  type RefundState,
  type SavedCard,
  type WebhookNotice,
  WebhookSignatureError,
} from './provider.ts';

/**
 * The Square API version every request is pinned to (the `Square-Version` header): the one the
 * installed square SDK (46.0.0) is generated for. https://developer.squareup.com/docs/build-basics/versioning-overview
 */
export const SQUARE_API_VERSION = '2026-09-16' satisfies SquareClient.Options['version'];

/** The Square SDK module (its types are imported above; this is the code, ~60 MB of RSS). */
type SquareSdk = typeof import('square');
let sdk: SquareSdk | undefined;
let loading: Promise<SquareSdk> | undefined;

/**
 * The Square SDK, imported the first time a company uses Square and kept for the life of the
 * process. Imported at start it cost every server process ~60 MB of RSS and seconds of start-up
 * (docs/performance.md), though most installations never take a Square payment.
 */
export function squareSdk(): Promise<SquareSdk> {
  loading ??= import('square').then(
    (module) => (sdk = module),
    (error: unknown) => {
      loading = undefined; // a failed import is tried again on the next use
      throw error;
    },
  );
  return loading;
}

/** A Square SDK error. None can exist before the SDK is loaded: only its calls throw them. */
export function isSquareError(error: unknown): error is SquareError {
  return sdk !== undefined && error instanceof sdk.SquareError;
}

/** A Square API client pinned to SQUARE_API_VERSION (loads the SDK on first use). */
export async function squareClient(options: {
  /** The merchant's or installation's access token; none for the OAuth token endpoint. */
  token?: string;
  environment: 'sandbox' | 'production';
  /** Where the API is (tests: a local stub); overrides `environment`. */
  baseUrl?: string;
}): Promise<SquareClient> {
  const { SquareClient, SquareEnvironment } = await squareSdk();
  return new SquareClient({
    ...(options.token ? { token: options.token } : {}),
    version: SQUARE_API_VERSION,
    environment:
      options.environment === 'production' ? SquareEnvironment.Production : SquareEnvironment.Sandbox,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  });
}

/** Order metadata key where the adapter keeps the payment link's id (needed to delete the link). */
export const PAYMENT_LINK_METADATA_KEY = 'tumble_payment_link_id';

/** Square limits an order's `reference_id` to 40 characters. */
const MAX_REFERENCE_LENGTH = 40;

const SIGNATURE_HEADER = 'x-square-hmacsha256-signature';
const PAYMENT_EVENT_TYPES: ReadonlySet<string> = new Set(['payment.created', 'payment.updated']);
const REFUND_EVENT_TYPES: ReadonlySet<string> = new Set(['refund.created', 'refund.updated']);
/** Square refuses idempotency keys longer than this (payments, refunds, cards). */
const MAX_IDEMPOTENCY_KEY_LENGTH = 45;
/** How long our "save a card" page stays open. */
const CARD_SETUP_HOURS = 24;

export interface SquareProviderOptions {
  accessToken: string;
  locationId: string;
  webhookSignatureKey: string;
  /** The webhook subscription's notification URL exactly as registered with Square: it is signed. */
  notificationUrl: string;
  environment: 'sandbox' | 'production';
  /** Where the API is (tests: a local stub); overrides `environment`. */
  baseUrl?: string;
  /**
   * Card setups live in our table (square_card_setups) and are done on our page at `publicUrl`:
   * needed by `startCardSetup`, `getCardSetup` and `saveCard`.
   */
  cardSetups?: { db: Db; tenant: Tenant; publicUrl: string };
}

/** The Square provider, plus the step of its card setup that our own card page performs. */
export interface SquareProvider extends PaymentProvider {
  /**
   * Saves the card Square's Web Payments SDK tokenized on our page (`sourceId`) on the family's
   * customer (created when they have none) and marks the setup saved. Idempotent per setup.
   * `closed` when the setup is no longer open (saved already, expired); `declined` in Square's
   * words when Square refuses the card.
   */
  saveCard(
    sessionId: string,
    sourceId: string,
    verificationToken?: string,
  ): Promise<{ outcome: 'saved' | 'closed' } | { outcome: 'declined'; message: string }>;
}

/**
 * Square payment links behind `PaymentProvider`. Each checkout is a payment link for an order that
 * carries our reference in `reference_id`.
 *
 * The session id is the ORDER id, because that is what payments and `payment.*` webhooks name.
 * Deleting the link (the way to stop a payment link) needs the link's id, so the adapter writes it
 * into the order's metadata (`tumble_payment_link_id`) right after creating the link.
 *
 * @example
 *   const square = createSquareProvider({ accessToken, locationId, webhookSignatureKey, notificationUrl, environment: 'sandbox' });
 *   const start = await square.createCheckout({ reference: 'B-1001', amount: 4500, currency: 'AUD', ... });
 *   // start: { kind: 'redirect', sessionId: <order id>, url: <payment link> }
 */
export function createSquareProvider(options: SquareProviderOptions): SquareProvider {
  // Made on the first call, so a provider that only verifies webhooks never loads the SDK.
  let made: Promise<SquareClient> | undefined;
  const api = () =>
    (made ??= squareClient({
      token: options.accessToken,
      environment: options.environment,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    }));

  async function readOrder(orderId: string): Promise<Square.Order> {
    const { order } = await (await api()).orders.get({ orderId });
    if (!order) throw new Error(`Square returned no order for ${orderId}.`);
    return order;
  }

  /** Applies `change` to the order at its current version, re-reading once if Square moved it on. */
  async function updateOrder(orderId: string, known: Square.Order, change: Partial<Square.Order>) {
    let order = known;
    for (let attempt = 0; ; attempt++) {
      try {
        const { order: updated } = await (await api()).orders.update({
          orderId,
          order: { locationId: order.locationId, version: order.version, ...change },
          idempotencyKey: randomUUID(),
        });
        return updated;
      } catch (error) {
        // Square bumps versions on its own (payments, async calculations): retry once with the new one.
        if (attempt > 0 || !hasErrorCode(error, 'VERSION_MISMATCH')) throw error;
        order = await readOrder(orderId);
      }
    }
  }

  return {
    name: 'square',

    async createCheckout(request: CheckoutRequest): Promise<CheckoutStart> {
      assertCents(request.amount);
      if (request.reference.length > MAX_REFERENCE_LENGTH) {
        throw new Error(`Square keeps at most ${MAX_REFERENCE_LENGTH} characters of a reference.`);
      }
      const created = await (await api()).checkout.paymentLinks.create({
        idempotencyKey: `${request.reference}-${randomUUID()}`,
        description: request.description,
        order: {
          locationId: options.locationId,
          referenceId: request.reference,
          lineItems: [
            {
              name: request.description,
              quantity: '1',
              basePriceMoney: {
                amount: BigInt(request.amount),
                currency: request.currency.toUpperCase() as Square.Currency,
              },
            },
          ],
        },
        checkoutOptions: {
          redirectUrl: request.returnUrl,
          allowTipping: false,
          askForShippingAddress: false,
        },
        prePopulatedData: { buyerEmail: request.customerEmail },
        paymentNote: request.reference,
      });
      const link = created.paymentLink;
      if (!link?.id || !link.orderId || !link.url) {
        throw new Error('Square returned a payment link without an id, order id or url.');
      }
      const order =
        created.relatedResources?.orders?.find((o) => o.id === link.orderId) ??
        (await readOrder(link.orderId));
      try {
        await updateOrder(link.orderId, order, { metadata: { [PAYMENT_LINK_METADATA_KEY]: link.id } });
      } catch (error) {
        // Without the link id we could not stop this link later: withdraw it and fail the checkout.
        await (await api()).checkout.paymentLinks.delete({ id: link.id }).catch(() => undefined);
        throw error;
      }
      return { kind: 'redirect', sessionId: link.orderId, url: link.url };
    },

    async getCheckout(sessionId: string): Promise<CheckoutState> {
      const order = await readOrder(sessionId);
      return {
        sessionId,
        reference: order.referenceId ?? '',
        status: orderStatus(order),
        amount: Number(order.totalMoney?.amount ?? 0n),
      };
    },

    async expireCheckout(sessionId: string): Promise<void> {
      let order = await readOrder(sessionId);
      if (!payable(orderStatus(order))) return;

      const linkId = order.metadata?.[PAYMENT_LINK_METADATA_KEY];
      if (linkId) {
        try {
          // Square cancels the link's order when the link is deleted (DeletePaymentLinkResponse.cancelled_order_id).
          await (await api()).checkout.paymentLinks.delete({ id: linkId });
        } catch (error) {
          if (!(isSquareError(error) && error.statusCode === 404)) throw error;
        }
        order = await readOrder(sessionId);
        if (!payable(orderStatus(order))) return;
      }

      // The link is gone but the order is still open (Square does not always cancel it): cancel it,
      // so no late payment can land on it.
      try {
        await updateOrder(sessionId, order, { state: 'CANCELED' });
      } catch (error) {
        if (payable(orderStatus(await readOrder(sessionId)))) throw error;
      }
    },

    async parseWebhook(rawBody, headers): Promise<WebhookNotice | null> {
      const signature = headers[SIGNATURE_HEADER];
      if (typeof signature !== 'string' || signature === '') {
        throw new WebhookSignatureError('Missing x-square-hmacsha256-signature header.');
      }
      if (!validSignature(rawBody, signature, options.webhookSignatureKey, options.notificationUrl)) {
        throw new WebhookSignatureError();
      }
      const event = JSON.parse(rawBody.toString('utf8')) as {
        event_id?: unknown;
        type?: unknown;
        data?: { object?: { payment?: { order_id?: unknown }; refund?: { id?: unknown } } };
      };
      if (typeof event.type !== 'string' || typeof event.event_id !== 'string') return null;
      if (REFUND_EVENT_TYPES.has(event.type)) {
        const refundId = event.data?.object?.refund?.id;
        return typeof refundId === 'string'
          ? { kind: 'refund', eventId: event.event_id, refundRef: refundId }
          : null;
      }
      if (!PAYMENT_EVENT_TYPES.has(event.type)) return null;
      const orderId = event.data?.object?.payment?.order_id;
      if (typeof orderId !== 'string') return null;
      return { kind: 'checkout', eventId: event.event_id, sessionId: orderId };
    },

    async refund(request): Promise<RefundState> {
      assertCents(request.amount);
      const { refund } = await (await api()).refunds.refundPayment({
        idempotencyKey: squareKey(request.idempotencyKey),
        paymentId: await paymentIdOf(request.paymentRef),
        amountMoney: {
          amount: BigInt(request.amount),
          currency: request.currency.toUpperCase() as Square.Currency,
        },
        reason: request.reason.slice(0, 192),
      });
      if (!refund) throw new Error('Square returned no refund.');
      return refundState(refund);
    },

    async getRefund(refundRef: string): Promise<RefundState> {
      const { refund } = await (await api()).refunds.get({ refundId: refundRef });
      if (!refund) throw new Error(`Square returned no refund for ${refundRef}.`);
      return refundState(refund);
    },

    async startCardSetup(request): Promise<CheckoutStart> {
      const { db, tenant, publicUrl } = setups();
      const id = `sqcs_${randomToken(18)}`;
      await db.insert(squareCardSetups).values(
        tenant.values({
          id,
          reference: request.reference,
          customerEmail: request.customerEmail,
          customerName: request.customerName,
          customerRef: request.customerRef,
          returnUrl: request.returnUrl,
          expiresAt: new Date(Date.now() + CARD_SETUP_HOURS * 60 * 60 * 1000),
        }),
      );
      return { kind: 'redirect', sessionId: id, url: `${publicUrl}/payments/square-card?session=${id}` };
    },

    async getCardSetup(sessionId: string): Promise<SavedCard | null> {
      const setup = await readSetup(sessionId);
      if (setup.status !== 'saved' || !setup.cardRef || !setup.customerRef) return null;
      // Square's card as it is now (expiry, brand), not a copy of what it was.
      const { card } = await (await api()).cards.get({ cardId: setup.cardRef });
      if (!card?.id) throw new Error(`Square returned no card for ${setup.cardRef}.`);
      return {
        customerRef: setup.customerRef,
        cardRef: card.id,
        brand: (card.cardBrand ?? 'OTHER_BRAND').toLowerCase(),
        last4: card.last4 ?? '',
        expMonth: Number(card.expMonth ?? 0),
        expYear: Number(card.expYear ?? 0),
      };
    },

    async saveCard(sessionId, sourceId, verificationToken) {
      const { db, tenant } = setups();
      const setup = await readSetup(sessionId);
      if (setup.status !== 'open' || setup.expiresAt.getTime() <= Date.now()) return { outcome: 'closed' };
      const customerRef = setup.customerRef ?? (await createCustomer(setup));
      let card: Square.Card | undefined;
      try {
        ({ card } = await (await api()).cards.create({
          // One card per token: a page posting the same token twice saves it once.
          idempotencyKey: squareKey(`card:${setup.id}:${sourceId}`),
          sourceId,
          ...(verificationToken ? { verificationToken } : {}),
          card: { customerId: customerRef, referenceId: setup.reference.slice(0, 128) },
        }));
      } catch (error) {
        const refused = declineOf(error);
        if (!refused) throw error;
        return { outcome: 'declined', message: refused.detail ?? refused.code };
      }
      if (!card?.id) throw new Error('Square returned no card.');
      const saved = await db
        .update(squareCardSetups)
        .set({ status: 'saved', customerRef, cardRef: card.id })
        .where(
          tenant.where(
            squareCardSetups,
            eq(squareCardSetups.id, sessionId),
            eq(squareCardSetups.status, 'open'),
            sql`${squareCardSetups.expiresAt} > now()`,
          ),
        )
        .returning({ id: squareCardSetups.id });
      return { outcome: saved.length === 1 ? 'saved' : 'closed' };
    },

    async chargeSavedCard(request): Promise<ChargeResult> {
      assertCents(request.amount);
      let payment: Square.Payment | undefined;
      try {
        ({ payment } = await (await api()).payments.create({
          sourceId: request.cardRef,
          customerId: request.customerRef,
          idempotencyKey: squareKey(request.idempotencyKey),
          amountMoney: {
            amount: BigInt(request.amount),
            currency: request.currency.toUpperCase() as Square.Currency,
          },
          autocomplete: true,
          locationId: options.locationId,
          referenceId: request.reference.slice(0, MAX_REFERENCE_LENGTH),
          note: request.description.slice(0, 500),
        }));
      } catch (error) {
        // A declined card is a failed charge in Square's words; anything else is a real failure.
        const declined = declineOf(error);
        if (!declined) throw error;
        const failed = ((error as SquareError).body as { payment?: { id?: string } } | undefined)?.payment
          ?.id;
        return {
          paymentRef: failed ?? `declined:${request.idempotencyKey}`,
          status: 'failed',
          failureReason: declined.detail ?? declined.code,
        };
      }
      if (!payment?.id) throw new Error('Square returned no payment.');
      if (payment.status === 'COMPLETED')
        return { paymentRef: payment.id, status: 'paid', failureReason: null };
      if (payment.status === 'FAILED' || payment.status === 'CANCELED') {
        return { paymentRef: payment.id, status: 'failed', failureReason: 'Your card was declined.' };
      }
      throw new Error(`Square payment ${payment.id} is ${payment.status}, not completed or failed.`);
    },
  };

  function setups(): NonNullable<SquareProviderOptions['cardSetups']> {
    if (!options.cardSetups) throw new Error('Square card setups need the database (cardSetups option).');
    return options.cardSetups;
  }

  async function readSetup(sessionId: string) {
    const { db, tenant } = setups();
    const [setup] = await db
      .select()
      .from(squareCardSetups)
      .where(tenant.where(squareCardSetups, eq(squareCardSetups.id, sessionId)));
    if (!setup) throw new Error(`unknown Square card setup ${sessionId}`);
    return setup;
  }

  async function createCustomer(setup: typeof squareCardSetups.$inferSelect): Promise<string> {
    const [givenName, ...family] = setup.customerName.trim().split(/\s+/);
    const { customer } = await (await api()).customers.create({
      idempotencyKey: squareKey(`customer:${setup.id}`),
      ...(givenName ? { givenName } : {}),
      ...(family.length > 0 ? { familyName: family.join(' ') } : {}),
      emailAddress: setup.customerEmail,
      referenceId: setup.reference,
    });
    if (!customer?.id) throw new Error('Square returned no customer.');
    return customer.id;
  }

  /**
   * The Square payment behind what we recorded: a checkout's session id is its ORDER id (the
   * payment is its captured card tender's); an off-session charge recorded the payment id itself.
   */
  async function paymentIdOf(paymentRef: string): Promise<string> {
    let order: Square.Order;
    try {
      order = await readOrder(paymentRef);
    } catch (error) {
      if (isSquareError(error) && error.statusCode === 404) return paymentRef;
      throw error;
    }
    const tender = (order.tenders ?? []).find((t) => tenderSettled(t) && t.paymentId);
    if (!tender?.paymentId) throw new Error(`Square order ${paymentRef} has no payment to refund.`);
    return tender.paymentId;
  }
}

/** Square's refund status as ours: PENDING until COMPLETED, or REJECTED/FAILED. */
export function refundState(refund: Square.PaymentRefund): RefundState {
  const status =
    refund.status === 'COMPLETED'
      ? 'succeeded'
      : refund.status === 'REJECTED' || refund.status === 'FAILED'
        ? 'failed'
        : 'pending';
  return {
    refundRef: refund.id,
    status,
    amount: Number(refund.amountMoney.amount ?? 0n),
    failureReason:
      status !== 'failed'
        ? null
        : refund.status === 'REJECTED'
          ? 'Square rejected the refund.'
          : 'The refund failed at the card network.',
  };
}

/** Our keys as Square takes them: long ones are hashed (the same key always gives the same hash). */
export function squareKey(key: string): string {
  if (key.length <= MAX_IDEMPOTENCY_KEY_LENGTH) return key;
  return createHash('sha256').update(key).digest('hex').slice(0, MAX_IDEMPOTENCY_KEY_LENGTH);
}

/**
 * Square signs `notificationUrl + body` with HMAC-SHA256 and the subscription's signature key,
 * base64 (https://developer.squareup.com/docs/webhooks/step3validate). The SDK's
 * `WebhooksHelper.verifySignature` computes the same but compares with `===`; this compares in
 * constant time, on the raw bytes received.
 */
export function validSignature(
  rawBody: Buffer,
  header: string,
  key: string,
  notificationUrl: string,
): boolean {
  const expected = Buffer.from(
    createHmac('sha256', key).update(notificationUrl, 'utf8').update(rawBody).digest('base64'),
    'utf8',
  );
  const given = Buffer.from(header, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Payment-link orders start as DRAFT and become OPEN once paid; COMPLETED only after fulfilment.
 * So "paid" is read from the tenders, not the state.
 */
export function orderStatus(order: Square.Order): CheckoutState['status'] {
  if (order.state === 'CANCELED') return 'expired';
  if (order.state === 'COMPLETED') return 'paid';
  const total = order.totalMoney?.amount ?? 0n;
  const settled = (order.tenders ?? [])
    .filter(tenderSettled)
    .reduce((sum, tender) => sum + (tender.amountMoney?.amount ?? 0n), 0n);
  if (total > 0n && settled >= total) return 'paid';
  // A FAILED or CANCELED payment shows as a FAILED or VOIDED tender; the link still takes another.
  return (order.tenders ?? []).some(tenderFailed) ? 'failed' : 'open';
}

/** An order that can still take a payment (a failed attempt does not close its link). */
const payable = (status: CheckoutState['status']) => status === 'open' || status === 'failed';

/** A tender whose payment failed or was cancelled (voided) before its money was taken. */
function tenderFailed(tender: Square.Tender): boolean {
  const status = tender.cardDetails?.status ?? tender.bankAccountDetails?.status;
  return status === 'FAILED' || status === 'VOIDED';
}

/** A tender counts once its money is taken; pending, authorised-only, voided or failed ones do not. */
function tenderSettled(tender: Square.Tender): boolean {
  switch (tender.type) {
    case 'CARD':
      return tender.cardDetails?.status === 'CAPTURED';
    case 'BANK_ACCOUNT':
      return tender.bankAccountDetails?.status === 'COMPLETED';
    case 'BUY_NOW_PAY_LATER':
      return tender.buyNowPayLaterDetails?.status === 'CAPTURED';
    case 'SQUARE_ACCOUNT':
      return tender.squareAccountDetails?.status === 'CAPTURED';
    default:
      return true;
  }
}

/** Square refusing the card itself (PAYMENT_METHOD_ERROR: CARD_DECLINED, INSUFFICIENT_FUNDS, …). */
function declineOf(error: unknown): SquareError.BodyError | undefined {
  return isSquareError(error) ? error.errors.find((e) => e.category === 'PAYMENT_METHOD_ERROR') : undefined;
}

function hasErrorCode(error: unknown, code: string): boolean {
  return isSquareError(error) && error.errors.some((e) => e.code === code);
}

function assertCents(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new Error(`A checkout amount must be a positive whole number of cents, not ${amount}.`);
  }
}
