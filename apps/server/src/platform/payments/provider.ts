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
  | { kind: 'embedded'; sessionId: string; publicKey: string; clientSecret: string }
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

export interface WebhookNotice {
  /** The provider's event id, for logs. */
  eventId: string;
  /** The checkout the event is about. */
  sessionId: string;
}

export class WebhookSignatureError extends Error {
  constructor(message = 'Invalid webhook signature.') {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createCheckout(request: CheckoutRequest): Promise<CheckoutStart>;
  getCheckout(sessionId: string): Promise<CheckoutState>;
  /** Stops a checkout from taking payment (closing the card form, hold expiry). Idempotent. */
  expireCheckout(sessionId: string): Promise<void>;
  /**
   * Verifies a webhook on its raw body; null when the event is not about a checkout we handle.
   * Throws WebhookSignatureError when the signature is wrong or stale.
   */
  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<WebhookNotice | null>;
}
