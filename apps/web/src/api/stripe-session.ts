import { api } from './client';

/**
 * POST /integrations/stripe/cancel-session?session: the parent closed the card form, so the
 * Checkout Session is expired and what it held (event places, a party slot) is released
 * (SPEC.md point 4).
 */
export function cancelStripeSession(sessionId: string): Promise<unknown> {
  return api.post(
    '/integrations/stripe/cancel-session',
    { userAction: 'expire' },
    { query: { session: sessionId } },
  );
}
