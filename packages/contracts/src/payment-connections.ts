import { z } from 'zod';

/**
 * A company's own payment account (page /admin/integrations/payments, issue 18): its Stripe
 * account connected through Stripe Connect (Standard, OAuth) or its Square account through Square
 * OAuth, so parents' money goes straight to the company. Without a connection the installation's
 * own keys are used, as before.
 */

export const paymentConnectionProvider = z.enum(['stripe', 'square']);
export type PaymentConnectionProvider = z.infer<typeof paymentConnectionProvider>;

export const paymentConnection = z.object({
  provider: paymentConnectionProvider,
  /** `needs_location`: Square is connected but no location is chosen yet (payments need one). */
  state: z.enum(['not_connected', 'connected', 'needs_location', 'expired']),
  /** Whether this installation can connect accounts of this provider at all (its app is set up). */
  available: z.boolean(),
  /** Stripe's account id (acct_…) or Square's merchant id. */
  account_id: z.string().nullable(),
  /** Square: the location payments are taken at. */
  location_id: z.string().nullable(),
  location_name: z.string().nullable(),
  connected_at: z.string().nullable(),
  last_error: z.string().nullable(),
});
export type PaymentConnection = z.infer<typeof paymentConnection>;

export const paymentConnectionsStatus = z.object({
  /** The company's payment method (stripe, square or test): the one parents pay through. */
  payment_method: z.enum(['stripe', 'square', 'test']),
  connections: z.array(paymentConnection),
});
export type PaymentConnectionsStatus = z.infer<typeof paymentConnectionsStatus>;

export const paymentConnectResponse = z.object({ url: z.string() });

export const squareLocationsResponse = z.object({
  locations: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type SquareLocations = z.infer<typeof squareLocationsResponse>;

export const squareLocationInput = z.object({
  location_id: z.string().trim().min(1, 'Please choose a location.').max(100),
});
