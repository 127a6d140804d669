import Stripe from 'stripe';
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
 * The Stripe API version every request is pinned to: the version the installed stripe SDK
 * (23.1.0) declares as its latest (`Stripe.API_VERSION`), so the SDK types describe exactly what
 * the API answers. Typed as `Stripe.LatestApiVersion` so that an SDK upgrade fails to compile here
 * until the version is moved on deliberately (https://docs.stripe.com/api/versioning). The web
 * app's Stripe.js must be the release that matches this version.
 */
export const STRIPE_API_VERSION: Stripe.LatestApiVersion = '2026-10-28.endive';

/**
 * Embedded Checkout in this API version is `ui_mode: 'embedded_page'` (the older 'embedded' is not
 * in the SDK's types any more).
 */
export const STRIPE_UI_MODE = 'embedded_page' satisfies Stripe.Checkout.SessionCreateParams.UiMode;

/** Stripe accepts `expires_at` from 30 minutes to 24 hours after the session is created. */
const MIN_EXPIRY_SECONDS = 30 * 60;
const MAX_EXPIRY_SECONDS = 24 * 60 * 60;
/** Room for the request's travel time and clock skew between us and Stripe. */
const EXPIRY_MARGIN_SECONDS = 120;

/** The webhook events that are about a checkout session; anything else is not ours to handle. */
const CHECKOUT_EVENT_TYPES: ReadonlySet<string> = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);

/** The webhook events about a refund (their object is the refund); anything else is not ours. */
const REFUND_EVENT_TYPES: ReadonlySet<string> = new Set([
  'refund.created',
  'refund.updated',
  'refund.failed',
  'charge.refund.updated',
]);

/** A refund's `failure_reason` in words for staff (https://docs.stripe.com/refunds#failed-refunds). */
const REFUND_FAILURES: Record<string, string> = {
  lost_or_stolen_card: 'The card was reported lost or stolen.',
  expired_or_canceled_card: 'The card has expired or was closed.',
  charge_for_pending_refund_disputed: 'The payment is being disputed.',
  insufficient_funds: 'The Stripe balance could not cover the refund.',
  declined: "The card's bank declined the refund.",
  merchant_request: 'The refund was cancelled.',
};

export interface StripeProviderOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Where the API is (tests: a local stub); only scheme, host and port are used. */
  apiBase?: string;
  /**
   * A company's connected account (Stripe Connect, acct_…): every request carries it as the
   * `Stripe-Account` header, so checkouts, refunds and customers are the company's own.
   */
  stripeAccount?: string;
}

/**
 * Stripe Embedded Checkout behind `PaymentProvider`: one Checkout Session per checkout, its id is
 * the session id, and the SPA mounts the card form with the client secret.
 *
 * @example
 *   const stripe = createStripeProvider({ secretKey, publishableKey, webhookSecret });
 *   const start = await stripe.createCheckout({ reference: 'B-1001', amount: 4500, currency: 'AUD', ... });
 */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const client = new Stripe(options.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    telemetry: false,
    ...(options.apiBase ? apiAddress(options.apiBase) : {}),
    ...(options.stripeAccount ? { stripeAccount: options.stripeAccount } : {}),
  });

  async function readSession(sessionId: string): Promise<CheckoutState> {
    // The payment intent tells a failed asynchronous payment from one still processing.
    const session = await client.checkout.sessions.retrieve(sessionId, { expand: ['payment_intent'] });
    return {
      sessionId: session.id,
      reference: session.client_reference_id ?? session.metadata?.reference ?? '',
      status: sessionStatus(session),
      amount: session.amount_total ?? 0,
    };
  }

  return {
    name: 'stripe',

    async createCheckout(request: CheckoutRequest): Promise<CheckoutStart> {
      assertCents(request.amount);
      const session = await client.checkout.sessions.create({
        ui_mode: STRIPE_UI_MODE,
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.currency.toLowerCase(),
              unit_amount: request.amount,
              product_data: { name: request.description },
            },
          },
        ],
        customer_email: request.customerEmail,
        client_reference_id: request.reference,
        metadata: { reference: request.reference },
        return_url: withSessionIdPlaceholder(request.returnUrl),
        expires_at: stripeExpiresAt(request.expiresAt, new Date()),
      });
      if (!session.client_secret) {
        throw new Error(`Stripe returned checkout session ${session.id} without a client secret.`);
      }
      return {
        kind: 'embedded',
        sessionId: session.id,
        publicKey: options.publishableKey,
        clientSecret: session.client_secret,
        ...(options.stripeAccount ? { stripeAccount: options.stripeAccount } : {}),
      };
    },

    getCheckout: readSession,

    async expireCheckout(sessionId: string): Promise<void> {
      try {
        await client.checkout.sessions.expire(sessionId);
      } catch (error) {
        // Stripe refuses to expire a session that is no longer open (already expired, or complete).
        // Rather than matching its message text, re-read the session: if it is not open, it can no
        // longer take payment, which is all this call promises. Anything else is a real failure.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.statusCode === 404) {
          throw error;
        }
        const session = await client.checkout.sessions.retrieve(sessionId);
        if (session.status === 'open') throw error;
      }
    },

    async parseWebhook(rawBody, headers): Promise<WebhookNotice | null> {
      const signature = headers['stripe-signature'];
      if (typeof signature !== 'string' || signature === '') {
        throw new WebhookSignatureError('Missing Stripe-Signature header.');
      }
      let event: Stripe.Event;
      try {
        // Default tolerance (300 s): older signatures are refused as replays.
        event = client.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
          throw new WebhookSignatureError(error.message.split('\n')[0]);
        }
        throw error;
      }
      const object = event.data.object as { object?: string; id?: string; mode?: string };
      if (typeof object.id !== 'string') return null;
      if (REFUND_EVENT_TYPES.has(event.type) && object.object === 'refund') {
        return { kind: 'refund', eventId: event.id, refundRef: object.id };
      }
      if (!CHECKOUT_EVENT_TYPES.has(event.type) || object.object !== 'checkout.session') return null;
      // A setup-mode session saves a card (autopay); the others take a payment.
      if (object.mode === 'setup') return { kind: 'card_setup', eventId: event.id, sessionId: object.id };
      return { kind: 'checkout', eventId: event.id, sessionId: object.id };
    },

    async refund(request): Promise<RefundState> {
      assertCents(request.amount);
      const refund = await client.refunds.create(
        {
          payment_intent: await paymentIntentOf(request.paymentRef),
          amount: request.amount,
          metadata: { reason: request.reason },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return refundState(refund);
    },

    async getRefund(refundRef: string): Promise<RefundState> {
      return refundState(await client.refunds.retrieve(refundRef));
    },

    async startCardSetup(request): Promise<CheckoutStart> {
      const customer =
        request.customerRef ??
        (
          await client.customers.create({
            email: request.customerEmail,
            name: request.customerName,
            metadata: { reference: request.reference },
          })
        ).id;
      const session = await client.checkout.sessions.create({
        ui_mode: STRIPE_UI_MODE,
        mode: 'setup',
        // Saved for off-session card charges (autopay), so cards only.
        allowed_payment_method_types: ['card'],
        currency: (request.currency ?? DEFAULT_CURRENCY).toLowerCase(),
        customer,
        client_reference_id: request.reference,
        metadata: { reference: request.reference },
        return_url: withSessionIdPlaceholder(request.returnUrl),
      });
      if (!session.client_secret) {
        throw new Error(`Stripe returned setup session ${session.id} without a client secret.`);
      }
      return {
        kind: 'embedded',
        sessionId: session.id,
        publicKey: options.publishableKey,
        clientSecret: session.client_secret,
        ...(options.stripeAccount ? { stripeAccount: options.stripeAccount } : {}),
      };
    },

    async getCardSetup(sessionId: string): Promise<SavedCard | null> {
      const session = await client.checkout.sessions.retrieve(sessionId, {
        expand: ['setup_intent.payment_method'],
      });
      const intent = typeof session.setup_intent === 'object' ? session.setup_intent : null;
      const method = typeof intent?.payment_method === 'object' ? intent.payment_method : null;
      if (session.status !== 'complete' || intent?.status !== 'succeeded' || !method?.card) return null;
      const customer = session.customer ?? intent.customer;
      const customerRef = typeof customer === 'string' ? customer : customer?.id;
      if (!customerRef) throw new Error(`Stripe setup session ${sessionId} has no customer.`);
      return {
        customerRef,
        cardRef: method.id,
        brand: method.card.brand,
        last4: method.card.last4,
        expMonth: method.card.exp_month,
        expYear: method.card.exp_year,
      };
    },

    async chargeSavedCard(request): Promise<ChargeResult> {
      assertCents(request.amount);
      let intent: Stripe.PaymentIntent;
      try {
        intent = await client.paymentIntents.create(
          {
            amount: request.amount,
            currency: request.currency.toLowerCase(),
            customer: request.customerRef,
            payment_method: request.cardRef,
            off_session: true,
            confirm: true,
            description: request.description,
            metadata: { reference: request.reference },
          },
          { idempotencyKey: request.idempotencyKey },
        );
      } catch (error) {
        // Declined, or the bank wants the cardholder present (authentication_required): a failed
        // charge to tell the family about. Stripe replays the same error for the same key.
        if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
        return {
          paymentRef: error.payment_intent?.id ?? `declined:${request.idempotencyKey}`,
          status: 'failed',
          failureReason: error.message,
        };
      }
      if (intent.status === 'succeeded')
        return { paymentRef: intent.id, status: 'paid', failureReason: null };
      if (intent.status === 'requires_payment_method' || intent.status === 'requires_action') {
        return {
          paymentRef: intent.id,
          status: 'failed',
          failureReason:
            intent.last_payment_error?.message ?? 'The card needs the cardholder to confirm the payment.',
        };
      }
      // Cards settle at once; anything else (processing) is not a result yet: the caller retries
      // with the same key and Stripe answers with this same intent.
      throw new Error(`Stripe payment intent ${intent.id} is ${intent.status}, not paid or failed.`);
    },
  };

  /** The payment intent behind what we recorded: a Checkout Session's (cs_…), or the intent itself (pi_…). */
  async function paymentIntentOf(paymentRef: string): Promise<string> {
    if (paymentRef.startsWith('pi_')) return paymentRef;
    if (!paymentRef.startsWith('cs_')) throw new Error(`Not a Stripe payment: ${paymentRef}.`);
    const session = await client.checkout.sessions.retrieve(paymentRef);
    const intent =
      typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
    if (!intent) throw new Error(`Stripe checkout session ${paymentRef} has no payment to refund.`);
    return intent;
  }
}

/** The currency of a card setup when the request names none (setup mode needs one; we bill in AUD). */
const DEFAULT_CURRENCY = 'aud';

/** A Stripe refund as our state: requires_action is still pending, canceled is a failure. */
export function refundState(
  refund: Pick<Stripe.Refund, 'id' | 'status' | 'amount' | 'failure_reason'>,
): RefundState {
  const status =
    refund.status === 'succeeded'
      ? 'succeeded'
      : refund.status === 'failed' || refund.status === 'canceled'
        ? 'failed'
        : 'pending';
  return {
    refundRef: refund.id,
    status,
    amount: refund.amount,
    failureReason:
      status !== 'failed'
        ? null
        : ((refund.failure_reason && REFUND_FAILURES[refund.failure_reason]) ??
          (refund.status === 'canceled' ? 'The refund was cancelled.' : 'The refund failed.')),
  };
}

/**
 * A Checkout Session as our state. Complete but unpaid is an asynchronous payment: still
 * processing, or failed (`checkout.session.async_payment_failed`) when its payment intent went back
 * to needing a payment method or was cancelled.
 */
export function sessionStatus(
  session: Pick<Stripe.Checkout.Session, 'status' | 'payment_status' | 'payment_intent'>,
): CheckoutState['status'] {
  if (session.status === 'complete' && session.payment_status === 'paid') return 'paid';
  if (session.status === 'expired') return 'expired';
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
  if (
    session.status === 'complete' &&
    session.payment_status === 'unpaid' &&
    (intent?.status === 'requires_payment_method' || intent?.status === 'canceled')
  )
    return 'failed';
  // Open, or complete with an asynchronous payment still processing: not paid yet.
  return 'open';
}

/** `expiresAt` as Stripe's `expires_at`: unix seconds, clamped into the window Stripe accepts. */
export function stripeExpiresAt(expiresAt: Date, now: Date): number {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const earliest = nowSeconds + MIN_EXPIRY_SECONDS + EXPIRY_MARGIN_SECONDS;
  const latest = nowSeconds + MAX_EXPIRY_SECONDS - EXPIRY_MARGIN_SECONDS;
  return Math.min(latest, Math.max(earliest, Math.floor(expiresAt.getTime() / 1000)));
}

/**
 * Embedded Checkout sends the parent to `return_url` with the literal `{CHECKOUT_SESSION_ID}`
 * replaced by the session id (https://docs.stripe.com/payments/checkout/custom-success-page).
 * The placeholder must stay unencoded, so it is appended as text, before any fragment.
 */
export function withSessionIdPlaceholder(returnUrl: string): string {
  if (returnUrl.includes('{CHECKOUT_SESSION_ID}')) return returnUrl;
  const hashAt = returnUrl.indexOf('#');
  const base = hashAt === -1 ? returnUrl : returnUrl.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : returnUrl.slice(hashAt);
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}session_id={CHECKOUT_SESSION_ID}${fragment}`;
}

function apiAddress(apiBase: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

function assertCents(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new Error(`A checkout amount must be a positive whole number of cents, not ${amount}.`);
  }
}
