import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../api/client';

/**
 * The test payment provider's card page API (ARCHITECTURE.md: a local card page for the demo and
 * tests, clearly marked as test mode). Its shapes are not in @tumble/contracts yet.
 */
export const testSession = z.object({
  session: z.string(),
  /** `setup`: the "save a card" page (no amount; Save card instead of Pay). */
  mode: z.enum(['payment', 'setup']).default('payment'),
  amount: z.number(),
  formatted: z.string(),
  status: z.string(),
  return_url: z.string().optional(),
  company: z
    .union([z.string(), z.object({ name: z.string() }).loose()])
    .nullable()
    .optional(),
});
export type TestSession = z.infer<typeof testSession>;

const redirectResponse = z.object({ redirect: z.string() });

/** GET /integrations/test/session?session */
export function useTestSession(session: string) {
  return useQuery({
    queryKey: ['payments', 'test', session],
    queryFn: ({ signal }) =>
      api.get('/integrations/test/session', { query: { session }, schema: testSession, signal }),
    enabled: session !== '',
    retry: false,
  });
}

/** POST /integrations/test/pay: a redirect to the return page, or 402 'Your card was declined.' */
export async function payTestSession(session: string, cardNumber: string): Promise<string> {
  const answer = await api.post(
    '/integrations/test/pay',
    { session, card_number: cardNumber },
    { schema: redirectResponse },
  );
  return answer.redirect;
}

/** POST /integrations/test/save-card: a redirect to the return page, or 402 'Your card was declined.' */
export async function saveTestCard(session: string, cardNumber: string): Promise<string> {
  const answer = await api.post(
    '/integrations/test/save-card',
    { session, card_number: cardNumber },
    { schema: redirectResponse },
  );
  return answer.redirect;
}

/** POST /integrations/test/cancel: the parent gave up; the hold is released. */
export async function cancelTestSession(session: string): Promise<string> {
  const answer = await api.post('/integrations/test/cancel', { session }, { schema: redirectResponse });
  return answer.redirect;
}
