import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../api/client';

/** GET /api/v1/booking/payment-terms answers `{ content }`, HTML sanitized by the server. */
const paymentTermsResponse = z.object({ content: z.string() });

export function paymentTermsQuery(eventId: number, authhash: string) {
  return queryOptions({
    queryKey: ['booking', 'payment-terms', eventId, authhash],
    queryFn: ({ signal }) =>
      api.get('/api/v1/booking/payment-terms', {
        query: { event_id: eventId, authhash },
        schema: paymentTermsResponse,
        signal,
      }),
    staleTime: 5 * 60_000,
  });
}

export function usePaymentTerms(eventId: number | undefined, authhash: string) {
  return useQuery({ ...paymentTermsQuery(eventId ?? 0, authhash), enabled: eventId !== undefined });
}
