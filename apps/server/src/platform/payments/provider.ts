/**
 * A card payment provider (ARCHITECTURE.md "Capacity, payments and jobs"). One file per provider:
 * stripe.ts (Embedded Checkout), square.ts (payment link), test.ts (a local card page for the demo
 * and tests). Checkout code only ever talks to this interface.
 *
 * Webhooks are triggers, not truth: `parseWebhook` only verifies the signature and says which
 * checkout it concerns; the caller then re-reads it with `getCheckout`.
 */
export type ProviderName = 'stripe' | 'square' | 'test';

export interface CheckoutRequest {
  /** Our booking reference; providers keep it so `getCheckout` can name the booking. */
  reference: string;
  /** Cents. */
  amount: number;
  currency: string;
  description: string;
  customerEmail: string;
  /** Where the provider sends the parent after paying (square, test). */
  returnUrl: string;
  /** When the provider should stop accepting payment (our hold's end). */
  expiresAt: Date;
}

export type CheckoutStart =
  /** Stripe Embedded Checkout: the SPA mounts the card form with these. */
  | {
      kind: 'embedded';
      sessionId: string;
      publicKey: string;
      clientSecret: string;
      /** A company's connected account (Stripe Connect): Stripe.js must be created for it. */
      stripeAccount?: string;
    }
  /** Square payment link or the test card page: the browser goes there. */
  | { kind: 'redirect'; sessionId: string; url: string };

export interface CheckoutState {
  sessionId: string;
  reference: string;
  /**
   * `failed`: the last attempt to pay was declined or failed (a card declined, an asynchronous
   * payment that bounced). Not an end: the purchase keeps its hold, and the parent may try again.
   */
  status: 'open' | 'paid' | 'expired' | 'failed';
  /** Cents actually paid (or due while open). */
  amount: number;
}

/**
 * What a verified webhook is about (the provider's event id is for logs): a checkout (settled by
 * settlement.ts), a refund (`refundNoticed`) or a finished card setup (`cardSetupNoticed`).
 */
export type WebhookNotice =
  | { kind: 'checkout'; eventId: string; sessionId: string }
  | { kind: 'refund'; eventId: string; refundRef: string }
  | { kind: 'card_setup'; eventId: string; sessionId: string };

export class WebhookSignatureError extends Error {
  constructor(message = 'Invalid webhook signature.') {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** Money back on a card payment (Stripe Refunds, Square Refunds API, the test provider's simulation). */
export interface RefundRequest {
  /**
   * The payment as we recorded it (`payments.provider_ref`): a checkout's session id, or the id of
   * an off-session charge (`chargeSavedCard`). The adapter finds the provider's payment from it.
   */
  paymentRef: string;
  /** Cents, at most what is left of the payment (checked by billing before calling). */
  amount: number;
  currency: string;
  reason: string;
  /** Our refund row's key: the provider makes one refund per key, whatever is sent twice. */
  idempotencyKey: string;
}

export interface RefundState {
  refundRef: string;
  status: 'pending' | 'succeeded' | 'failed';
  amount: number;
  /** In plain words when failed (e.g. "The card was closed."). */
  failureReason: string | null;
}

/** Saving a card for later charges (autopay): a Stripe SetupIntent, a Square card on file, a test card. */
export interface CardSetupRequest {
  /** Ours, kept by the provider like a checkout's reference. */
  reference: string;
  customerEmail: string;
  customerName: string;
  /** The family's customer at the provider, when it already has one (a card saved before). */
  customerRef: string | null;
  returnUrl: string;
  /** The currency later charges are in (Stripe's setup mode asks for one); AUD when not given. */
  currency?: string;
}

export interface SavedCard {
  customerRef: string;
  cardRef: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** An off-session charge of a saved card (an instalment or invoice on its due date). */
export interface ChargeRequest {
  customerRef: string;
  cardRef: string;
  amount: number;
  currency: string;
  description: string;
  reference: string;
  /** One charge per key at the provider: a retried job never charges twice. */
  idempotencyKey: string;
}

export interface ChargeResult {
  /** The provider's payment id (kept as `payments.provider_ref`; refunds name it). */
  paymentRef: string;
  status: 'paid' | 'failed';
  failureReason: string | null;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createCheckout(request: CheckoutRequest): Promise<CheckoutStart>;
  getCheckout(sessionId: string): Promise<CheckoutState>;
  /** Stops a checkout from taking payment (closing the card form, hold expiry). Idempotent. */
  expireCheckout(sessionId: string): Promise<void>;
  /**
   * Verifies a webhook on its raw body; null when the event is not about a checkout, refund or card
   * setup we handle.
   * Throws WebhookSignatureError when the signature is wrong or stale.
   */
  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<WebhookNotice | null>;
  /** Starts a refund; its later state comes from `getRefund` (webhooks are triggers). */
  refund(request: RefundRequest): Promise<RefundState>;
  getRefund(refundRef: string): Promise<RefundState>;
  /** Opens the provider's page where a parent saves a card (same shapes as a checkout's start). */
  startCardSetup(request: CardSetupRequest): Promise<CheckoutStart>;
  /** The card a finished setup saved; null while the parent has not finished. */
  getCardSetup(sessionId: string): Promise<SavedCard | null>;
  chargeSavedCard(request: ChargeRequest): Promise<ChargeResult>;
}
