import Stripe from 'stripe';
import type { Config } from '../../config.ts';
import { STRIPE_API_VERSION } from '../payments/stripe.ts';
import type { SubscriptionStatus } from './subscriptions.tables.ts';

/**
 * How the installation bills companies for their plans (SPEC subscriptions): Stripe Billing on the
 * installation's own Stripe account, or the test provider (no money moves) in the demo and tests.
 */
export interface InstallationBilling {
  name: 'stripe' | 'test';
  /**
   * A new subscriber: a Checkout Session in subscription mode; the company's subscription row is
   * made by the `customer.subscription.created` webhook. Returns the page to finish at.
   */
  startSubscription(request: {
    companyId: number;
    companyName: string;
    email: string;
    planId: number;
    priceId: string;
    trialDays: number;
    returnUrl: string;
  }): Promise<{ url: string; customerRef: string }>;
  /** An existing Stripe subscription moves to another plan's price (Stripe prorates). */
  changePrice(subscriptionRef: string, priceId: string): Promise<void>;
  /** The verified event, or null for an event about something else. Throws on a bad signature. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): SubscriptionEvent | null;
}

export type SubscriptionEvent =
  | {
      id: string;
      /** Unix seconds: the newest event wins. */
      created: number;
      kind: 'subscription';
      type: string;
      subscriptionRef: string;
      customerRef: string;
      companyId: number | null;
      priceId: string | null;
      status: SubscriptionStatus;
      trialEndsAt: Date | null;
    }
  | {
      id: string;
      created: number;
      kind: 'invoice';
      type: string;
      subscriptionRef: string;
      status: SubscriptionStatus;
    };

export class BillingSignatureError extends Error {}

/** Stripe's subscription statuses in ours: an unpaid or incomplete one is past due until it ends. */
export function statusOf(status: Stripe.Subscription.Status): SubscriptionStatus {
  switch (status) {
    case 'trialing':
      return 'trialing';
    case 'active':
      return 'active';
    case 'canceled':
    case 'incomplete_expired':
      return 'cancelled';
    default:
      return 'past_due';
  }
}

const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);
const INVOICE_EVENTS: Record<string, SubscriptionStatus> = {
  'invoice.paid': 'active',
  'invoice.payment_failed': 'past_due',
};

export function createStripeBilling(options: {
  secretKey: string;
  webhookSecret: string;
  apiBase?: string;
}): InstallationBilling {
  const base = options.apiBase ? new URL(options.apiBase) : null;
  const client = new Stripe(options.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'http:' ? 80 : 443)),
          protocol: base.protocol === 'http:' ? ('http' as const) : ('https' as const),
        }
      : {}),
  });
  return {
    name: 'stripe',
    async startSubscription(request) {
      const metadata = { company_id: String(request.companyId), plan_id: String(request.planId) };
      const customer = await client.customers.create({
        email: request.email,
        name: request.companyName,
        metadata,
      });
      const session = await client.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.id,
        client_reference_id: String(request.companyId),
        line_items: [{ price: request.priceId, quantity: 1 }],
        subscription_data: {
          metadata,
          ...(request.trialDays > 0 ? { trial_period_days: request.trialDays } : {}),
        },
        metadata,
        success_url: `${request.returnUrl}?status=done`,
        cancel_url: request.returnUrl,
      });
      if (!session.url) throw new Error('Stripe returned a checkout session without a URL.');
      return { url: session.url, customerRef: customer.id };
    },
    async changePrice(subscriptionRef, priceId) {
      const subscription = await client.subscriptions.retrieve(subscriptionRef);
      const item = subscription.items.data[0];
      await client.subscriptions.update(subscriptionRef, {
        items: [item ? { id: item.id, price: priceId } : { price: priceId }],
        proration_behavior: 'create_prorations',
      });
    },
    parseWebhook(rawBody, signature) {
      let event: Stripe.Event;
      try {
        event = client.webhooks.constructEvent(rawBody, signature ?? '', options.webhookSecret);
      } catch {
        throw new BillingSignatureError('The webhook signature is not valid.');
      }
      if (SUBSCRIPTION_EVENTS.has(event.type)) {
        const subscription = event.data.object as Stripe.Subscription;
        const companyId = Number(subscription.metadata?.company_id);
        return {
          id: event.id,
          created: event.created,
          kind: 'subscription',
          type: event.type,
          subscriptionRef: subscription.id,
          customerRef:
            typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id,
          companyId: Number.isInteger(companyId) && companyId > 0 ? companyId : null,
          priceId: subscription.items?.data[0]?.price?.id ?? null,
          status:
            event.type === 'customer.subscription.deleted' ? 'cancelled' : statusOf(subscription.status),
          trialEndsAt: subscription.trial_end ? new Date(subscription.trial_end * 1000) : null,
        };
      }
      const status = INVOICE_EVENTS[event.type];
      if (status) {
        const invoice = event.data.object as Stripe.Invoice;
        const ref = invoice.parent?.subscription_details?.subscription;
        const subscriptionRef = typeof ref === 'string' ? ref : ref?.id;
        if (!subscriptionRef) return null;
        return {
          id: event.id,
          created: event.created,
          kind: 'invoice',
          type: event.type,
          subscriptionRef,
          status,
        };
      }
      return null;
    },
  };
}

/** The test provider: a plan is picked at once, without payment (the demo and tests). */
const testBilling: InstallationBilling = {
  name: 'test',
  async startSubscription() {
    throw new Error('The test provider subscribes without a checkout.');
  },
  async changePrice() {},
  parseWebhook() {
    return null;
  },
};

/** Stripe Billing when the installation has a Stripe key; otherwise the test provider. */
export function installationBilling(config: Config): InstallationBilling {
  if (config.INSTALLATION_STRIPE_SECRET_KEY && config.INSTALLATION_STRIPE_WEBHOOK_SECRET)
    return createStripeBilling({
      secretKey: config.INSTALLATION_STRIPE_SECRET_KEY,
      webhookSecret: config.INSTALLATION_STRIPE_WEBHOOK_SECRET,
      apiBase: config.INSTALLATION_STRIPE_API_BASE,
    });
  return testBilling;
}
