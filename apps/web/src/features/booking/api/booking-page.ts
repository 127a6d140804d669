import { queryOptions, useQuery } from '@tanstack/react-query';
import { type BookingPageResponse, bookingPageResponse } from '@tumble/contracts/booking';
import { api, VALIDATE_RESPONSES } from '../../../api/client';
import { bootstrappedBookingPage } from '../../../components/server-shell';

/** GET /api/v1/booking?e&authhash: the event, its booking settings and the company's branding. */
export function fetchBookingPage(
  e: string,
  authhash: string,
  signal?: AbortSignal,
): Promise<BookingPageResponse> {
  return api.get('/api/v1/booking', {
    query: { e, authhash },
    schema: VALIDATE_RESPONSES ? bookingPageResponse : undefined,
    signal,
  });
}

export function bookingPageQuery(e: string, authhash: string) {
  return queryOptions({
    queryKey: ['booking', 'page', e, authhash],
    queryFn: ({ signal }) => fetchBookingPage(e, authhash, signal),
    staleTime: 60_000,
  });
}

export function useBookingPage(e: string, authhash: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...bookingPageQuery(e, authhash),
    enabled: options.enabled ?? true,
    // The server sent this answer inside the page's HTML (components/server-shell.tsx): no second fetch.
    initialData: () => bootstrappedBookingPage(e, authhash),
  });
}
