import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { type Square, SquareClient, SquareEnvironment, SquareError } from 'square';
import { notBuiltYet } from './not-built-yet.ts';
import {
  type CheckoutRequest,
  type CheckoutStart,
  type CheckoutState,
  type PaymentProvider,
  type WebhookNotice,
  WebhookSignatureError,
} from './provider.ts';

/**
 * The Square API version every request is pinned to (the `Square-Version` header): the one the
 * installed square SDK (46.0.0) is generated for. https://developer.squareup.com/docs/build-basics/versioning-overview
 */
export const SQUARE_API_VERSION = '2026-09-16' satisfies SquareClient.Options['version'];

/** Order metadata key where the adapter keeps the payment link's id (needed to delete the link). */
export const PAYMENT_LINK_METADATA_KEY = 'tumble_payment_link_id';

/** Square limits an order's `reference_id` to 40 characters. */
const MAX_REFERENCE_LENGTH = 40;

const SIGNATURE_HEADER = 'x-square-hmacsha256-signature';
const PAYMENT_EVENT_TYPES: ReadonlySet<string> = new Set(['payment.created', 'payment.updated']);

export interface SquareProviderOptions {
  accessToken: string;
  locationId: string;
  webhookSignatureKey: string;
  /** The webhook subscription's notification URL exactly as registered with Square: it is signed. */
  notificationUrl: string;
  environment: 'sandbox' | 'production';
  /** Where the API is (tests: a local stub); overrides `environment`. */
  baseUrl?: string;
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
export function createSquareProvider(options: SquareProviderOptions): PaymentProvider {
  const client = new SquareClient({
    token: options.accessToken,
    version: SQUARE_API_VERSION,
    environment:
      options.environment === 'production' ? SquareEnvironment.Production : SquareEnvironment.Sandbox,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  });

  async function readOrder(orderId: string): Promise<Square.Order> {
    const { order } = await client.orders.get({ orderId });
    if (!order) throw new Error(`Square returned no order for ${orderId}.`);
    return order;
  }

  /** Applies `change` to the order at its current version, re-reading once if Square moved it on. */
  async function updateOrder(orderId: string, known: Square.Order, change: Partial<Square.Order>) {
    let order = known;
    for (let attempt = 0; ; attempt++) {
      try {
        const { order: updated } = await client.orders.update({
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
      const created = await client.checkout.paymentLinks.create({
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
        await client.checkout.paymentLinks.delete({ id: link.id }).catch(() => undefined);
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
          await client.checkout.paymentLinks.delete({ id: linkId });
        } catch (error) {
          if (!(error instanceof SquareError && error.statusCode === 404)) throw error;
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
        data?: { object?: { payment?: { order_id?: unknown } } };
      };
      if (typeof event.type !== 'string' || !PAYMENT_EVENT_TYPES.has(event.type)) return null;
      const orderId = event.data?.object?.payment?.order_id;
      if (typeof event.event_id !== 'string' || typeof orderId !== 'string') return null;
      return { kind: 'checkout', eventId: event.event_id, sessionId: orderId };
    },
    ...notBuiltYet, // TEMPORARY (lead, issue 15): the providers engineer replaces this today.
  };
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

function hasErrorCode(error: unknown, code: string): boolean {
  return error instanceof SquareError && error.errors.some((e) => e.code === code);
}

function assertCents(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new Error(`A checkout amount must be a positive whole number of cents, not ${amount}.`);
  }
}
