import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CancellationPreview,
  type CancellationResult,
  type CancellationTarget,
  cancellationPreview,
  cancellationResult,
} from '@tumble/contracts/cancellation';
import { api } from '../../api/client';

/** The target as query values (the preview is a GET). */
const asQuery = (target: CancellationTarget) =>
  Object.fromEntries(Object.entries(target).map(([key, value]) => [key, String(value)]));

/** GET /api/v1/students/cancellations/preview: what cancelling would give back (only while asked). */
export function useCancellationPreview(target: CancellationTarget | null) {
  return useQuery({
    queryKey: ['students', 'cancellation-preview', target],
    enabled: target !== null,
    // The answer depends on the clock and on other refunds: always asked afresh.
    gcTime: 0,
    queryFn: ({ signal }): Promise<CancellationPreview> =>
      api.get('/api/v1/students/cancellations/preview', {
        query: asQuery(target!),
        schema: cancellationPreview,
        signal,
      }),
  });
}

/** POST /api/v1/students/cancellations. */
export function useCancel() {
  return useMutation({
    mutationFn: (target: CancellationTarget): Promise<CancellationResult> =>
      api.post('/api/v1/students/cancellations', target, { schema: cancellationResult }),
  });
}

/**
 * After a cancellation every account list may change (bookings, classes, payments). Called when
 * the parent closes the outcome: refreshing at once would remove the very line whose dialog shows it.
 */
export function useRefreshAccount() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['students'] });
}
