import type { AppDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { sha256 } from '../secrets.ts';
import type { Tenant } from '../tenancy.ts';
import type { PaymentProvider, ProviderName } from './provider.ts';
import { createSquareProvider, type SquareProvider } from './square.ts';
import { createStripeProvider } from './stripe.ts';
import { createTestProvider } from './test.ts';

/**
 * The provider of a company's payment method. Stripe and Square use the installation's account
 * (environment keys); a company whose method is not configured cannot take card payments.
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
    case 'stripe':
      if (!config.STRIPE_SECRET_KEY || !config.STRIPE_PUBLISHABLE_KEY || !config.STRIPE_WEBHOOK_SECRET) break;
      return createStripeProvider({
        secretKey: config.STRIPE_SECRET_KEY,
        publishableKey: config.STRIPE_PUBLISHABLE_KEY,
        webhookSecret: config.STRIPE_WEBHOOK_SECRET,
        ...(config.STRIPE_API_BASE ? { apiBase: config.STRIPE_API_BASE } : {}),
      });
    case 'square':
      return squareProviderFor(deps, tenant, origin);
  }
  throw notSetUp();
}

const notSetUp = () =>
  new AppError(503, 'Card payments are not set up for this provider yet. Please contact the provider.');

/** The Square provider with its own extra step (`saveCard`, for our Square card page). */
export function squareProviderFor(deps: AppDeps, tenant: Tenant, origin?: string): SquareProvider {
  const { config } = deps;
  if (!config.SQUARE_ACCESS_TOKEN || !config.SQUARE_LOCATION_ID || !config.SQUARE_WEBHOOK_SIGNATURE_KEY)
    throw notSetUp();
  return createSquareProvider({
    accessToken: config.SQUARE_ACCESS_TOKEN,
    locationId: config.SQUARE_LOCATION_ID,
    webhookSignatureKey: config.SQUARE_WEBHOOK_SIGNATURE_KEY,
    notificationUrl: `${config.publicUrl}/integrations/square/webhook`,
    environment: config.SQUARE_ENVIRONMENT,
    ...(config.SQUARE_BASE_URL ? { baseUrl: config.SQUARE_BASE_URL } : {}),
    cardSetups: { db: deps.database.db, tenant, publicUrl: origin ?? config.publicUrl },
  });
}
