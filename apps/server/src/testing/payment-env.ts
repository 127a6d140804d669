/**
 * Payment keys for tests that walk every route: set, so webhooks run their signature checks instead
 * of answering "not set up" (503), but pointing nowhere, since no such request reaches a provider.
 */
export const UNREACHABLE_PAYMENT_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_unreachable',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_unreachable',
  STRIPE_WEBHOOK_SECRET: 'whsec_unreachable',
  STRIPE_API_BASE: 'http://127.0.0.1:9',
  SQUARE_ACCESS_TOKEN: 'square-unreachable',
  SQUARE_LOCATION_ID: 'LUNREACHABLE',
  SQUARE_WEBHOOK_SIGNATURE_KEY: 'square-unreachable-key',
  SQUARE_BASE_URL: 'http://127.0.0.1:9',
};
