import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../api/client';

const insuranceProduct = z.object({ id: z.number(), name: z.string(), price: z.number() });
export type InsuranceProduct = z.infer<typeof insuranceProduct>;

/**
 * GET /api/v1/students/events/insurances?event_id: the daily product (if any), the full products,
 * and per existing child the full products still available to buy. Not in @tumble/contracts yet.
 */
export const eventInsurances = z.object({
  daily: insuranceProduct.nullable(),
  full: z.array(insuranceProduct),
  children: z.record(z.string(), z.object({ insurance_ids: z.array(z.number()) })),
});
export type EventInsurances = z.infer<typeof eventInsurances>;

export function insurancesQuery(eventId: number) {
  return queryOptions({
    queryKey: ['students', 'events', 'insurances', eventId],
    queryFn: ({ signal }) =>
      api.get('/api/v1/students/events/insurances', {
        query: { event_id: eventId },
        schema: eventInsurances,
        signal,
      }),
    staleTime: 60_000,
  });
}

export function useEventInsurances(eventId: number | undefined) {
  return useQuery({ ...insurancesQuery(eventId ?? 0), enabled: eventId !== undefined });
}
