import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../api/client';

/** GET /api/v1/birthday-party/payment-terms answers `{ payment_terms }`, HTML sanitized by the server. */
const partyPaymentTermsResponse = z.object({ payment_terms: z.string() });

export function partyPaymentTermsQuery(authhash: string) {
  return queryOptions({
    queryKey: ['party', 'payment-terms', authhash],
    queryFn: ({ signal }) =>
      api.get('/api/v1/birthday-party/payment-terms', {
        query: { authhash },
        schema: partyPaymentTermsResponse,
        signal,
      }),
    staleTime: 5 * 60_000,
  });
}

export function usePartyPaymentTerms(authhash: string) {
  return useQuery(partyPaymentTermsQuery(authhash));
}
