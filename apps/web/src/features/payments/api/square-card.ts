import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../api/client';

/** Our Square card page's setup (Square has no hosted "save a card" page; ours tokenizes the card). */
export const squareCardSetup = z.object({
  session: z.string(),
  status: z.enum(['open', 'saved', 'expired']),
  return_url: z.string(),
  company: z.string(),
  /** Square's Web Payments SDK needs these in the browser; null when the installation has no app id. */
  application_id: z.string().nullable(),
  location_id: z.string().nullable(),
  environment: z.enum(['sandbox', 'production']),
});
export type SquareCardSetup = z.infer<typeof squareCardSetup>;

/** GET /integrations/square/card-setup?session */
export function useSquareCardSetup(session: string) {
  return useQuery({
    queryKey: ['payments', 'square-card', session],
    queryFn: ({ signal }) =>
      api.get('/integrations/square/card-setup', { query: { session }, schema: squareCardSetup, signal }),
    enabled: session !== '',
    retry: false,
  });
}

/** POST /integrations/square/card-setup: the tokenized card is saved; a redirect back, or 402 in Square's words. */
export async function saveSquareCard(session: string, sourceId: string): Promise<string> {
  const answer = await api.post(
    '/integrations/square/card-setup',
    { session, source_id: sourceId },
    { schema: z.object({ redirect: z.string() }) },
  );
  return answer.redirect;
}
