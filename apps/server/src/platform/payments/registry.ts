import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { sha256 } from '../secrets.ts';
import type { Tenant } from '../tenancy.ts';
import {
  connectAvailable,
  hasConnection,
  squareAccessOf,
  stripeAccountOf,
} from './connections/connections.service.ts';
import { type PaymentProvider, type ProviderName, WebhookSignatureError } from './provider.ts';
import { createSquareProvider, type SquareProvider, type SquareProviderOptions } from './square.ts';
import { createStripeProvider, type StripeProviderOptions } from './stripe.ts';
import { createTestProvider } from './test.ts';

/**
 * The provider of a company's payment method. A company that connected its own account
 * (platform/payments/connections: Stripe Connect, Square OAuth) is paid into it: Stripe calls carry
 * its account (`Stripe-Account`), Square calls use the merchant's token and chosen location. A
 * company without a connection uses the installation's account (environment keys), as an
 * installation serving one company does; one with a connection never falls back to it. Which
 * account is read when a call is made (the interface stays synchronous to get); webhooks are
 * verified with the installation's secrets whatever the company.
 */
export function providerFor(
  deps: AppDeps,
  tenant: Tenant,
  name: ProviderName,
  /** The origin the parent is using, when known: the test card page is served from it. */
  origin?: string,
): PaymentProvider {
  const { config } = deps;
  switch (name) {
    case 'test':
      if (!config.TEST_PAYMENTS) break;
      return createTestProvider(deps, tenant, {
        publicUrl: origin ?? config.publicUrl,
        // Derived, not configured: the test provider only ever talks to ourselves.
        webhookSecret: sha256(`test-webhook:${config.DATA_DIR}`),
      });
    case 'stripe': {
      // Connect acts for a company's account with the platform's own key: the keys are needed either way.
      if (!config.STRIPE_SECRET_KEY || !config.STRIPE_PUBLISHABLE_KEY || !config.STRIPE_WEBHOOK_SECRET) break;
      const keys: StripeProviderOptions = {
        secretKey: config.STRIPE_SECRET_KEY,
        publishableKey: config.STRIPE_PUBLISHABLE_KEY,
        webhookSecret: config.STRIPE_WEBHOOK_SECRET,
        ...(config.STRIPE_API_BASE ? { apiBase: config.STRIPE_API_BASE } : {}),
      };
      return deferred(stripeVerifier(keys, config.STRIPE_CONNECT_WEBHOOK_SECRET), async () => {
        const stripeAccount = await stripeAccountOf(deps, tenant);
        return createStripeProvider({ ...keys, ...(stripeAccount ? { stripeAccount } : {}) });
      });
    }
    case 'square':
      return squareProviderFor(deps, tenant, origin);
  }
  throw notSetUp();
}

/**
 * Stripe webhooks arrive signed by the platform endpoint's secret, or by the Connect endpoint's
 * (events of connected accounts) when that endpoint has its own: either is accepted.
 */
function stripeVerifier(keys: StripeProviderOptions, connectSecret: string | undefined): PaymentProvider {
  const platform = createStripeProvider(keys);
  if (!connectSecret) return platform;
  const connect = createStripeProvider({ ...keys, webhookSecret: connectSecret });
  return {
    ...platform,
    parseWebhook: async (rawBody, headers) => {
      try {
        return await platform.parseWebhook(rawBody, headers);
      } catch (error) {
        if (!(error instanceof WebhookSignatureError)) throw error;
        return connect.parseWebhook(rawBody, headers);
      }
    },
  };
}

const notSetUp = () =>
  new AppError(503, 'Card payments are not set up for this provider yet. Please contact the provider.');

/** The Square provider with its own extra step (`saveCard`, for our Square card page). */
export function squareProviderFor(deps: AppDeps, tenant: Tenant, origin?: string): SquareProvider {
  const { config } = deps;
  const installation = Boolean(config.SQUARE_ACCESS_TOKEN && config.SQUARE_LOCATION_ID);
  if (!config.SQUARE_WEBHOOK_SIGNATURE_KEY || !(installation || connectAvailable(config, 'square')))
    throw notSetUp();
  const common = {
    webhookSignatureKey: config.SQUARE_WEBHOOK_SIGNATURE_KEY,
    notificationUrl: `${config.publicUrl}/integrations/square/webhook`,
    environment: config.SQUARE_ENVIRONMENT,
    ...(config.SQUARE_BASE_URL ? { baseUrl: config.SQUARE_BASE_URL } : {}),
    cardSetups: { db: deps.database.db, tenant, publicUrl: origin ?? config.publicUrl },
  } satisfies Partial<SquareProviderOptions>;
  // Verifying a webhook needs only the signature key (the token is never used for it).
  const verifier = createSquareProvider({
    ...common,
    accessToken: config.SQUARE_ACCESS_TOKEN ?? 'webhooks-only',
    locationId: config.SQUARE_LOCATION_ID ?? 'webhooks-only',
  });
  const resolve = async (): Promise<SquareProvider> => {
    const merchant = await squareAccessOf(deps, tenant);
    if (merchant?.locationId) {
      return createSquareProvider({
        ...common,
        accessToken: merchant.accessToken,
        locationId: merchant.locationId,
      });
    }
    // Connected but expired or without a location: never the installation's account instead.
    if (merchant || (await hasConnection(deps, tenant, 'square')) || !installation) throw notSetUp();
    return verifier;
  };
  return {
    ...deferred(verifier, resolve),
    saveCard: async (...args) => (await resolve()).saveCard(...args),
  };
}

/**
 * A provider whose account is found when a call is made (a database read, so not in
 * `providerFor` itself); `verifier` checks webhook signatures, which are the installation's.
 */
function deferred(verifier: PaymentProvider, resolve: () => Promise<PaymentProvider>): PaymentProvider {
  return {
    name: verifier.name,
    createCheckout: async (request) => (await resolve()).createCheckout(request),
    getCheckout: async (sessionId) => (await resolve()).getCheckout(sessionId),
    expireCheckout: async (sessionId) => (await resolve()).expireCheckout(sessionId),
    parseWebhook: (rawBody, headers) => verifier.parseWebhook(rawBody, headers),
    refund: async (request) => (await resolve()).refund(request),
    getRefund: async (refundRef) => (await resolve()).getRefund(refundRef),
    startCardSetup: async (request) => (await resolve()).startCardSetup(request),
    getCardSetup: async (sessionId) => (await resolve()).getCardSetup(sessionId),
    chargeSavedCard: async (request) => (await resolve()).chargeSavedCard(request),
  };
}
