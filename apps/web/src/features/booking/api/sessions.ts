import { queryOptions, useQuery } from '@tanstack/react-query';
import { type SessionsResponse, sessionsResponse } from '@tumble/contracts/booking';
import { api, VALIDATE_RESPONSES } from '../../../api/client';

/** GET /api/v1/booking/sessions?e&authhash: each date's sessions with their status and places left. */
export function fetchSessions(e: string, authhash: string, signal?: AbortSignal): Promise<SessionsResponse> {
  return api.get('/api/v1/booking/sessions', {
    query: { e, authhash },
    schema: VALIDATE_RESPONSES ? sessionsResponse : undefined,
    signal,
  });
}

export function sessionsQuery(e: string, authhash: string) {
  return queryOptions({
    queryKey: ['booking', 'sessions', e, authhash],
    queryFn: ({ signal }) => fetchSessions(e, authhash, signal),
    // Places change as other parents book; a fresh look each time the calendar opens.
    staleTime: 0,
  });
}

export function useSessions(e: string, authhash: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...sessionsQuery(e, authhash), enabled: options.enabled ?? true });
}
