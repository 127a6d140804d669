import { queryOptions, useQuery } from '@tanstack/react-query';
import { type SlotCapacityResponse, slotCapacityResponse } from '@tumble/contracts/party';
import { api } from '../../../api/client';

export type PartySlot = SlotCapacityResponse['slots'][number];

/** GET /api/v1/birthday-party/booking/slot-capacity?authhash&date: the free slots and their most guests. */
export function slotCapacityQuery(authhash: string, date: string) {
  return queryOptions({
    queryKey: ['party', 'slot-capacity', authhash, date],
    queryFn: ({ signal }) =>
      api.get('/api/v1/birthday-party/booking/slot-capacity', {
        query: { authhash, date },
        schema: slotCapacityResponse,
        signal,
      }),
    // Other parents book slots: a fresh look whenever a date is chosen again.
    staleTime: 0,
  });
}

export function useSlotCapacity(authhash: string, date: string | null) {
  return useQuery({ ...slotCapacityQuery(authhash, date ?? ''), enabled: date !== null });
}
