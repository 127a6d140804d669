import { useMutation, useQuery } from '@tanstack/react-query';
import { billingRun, billingRunPreview } from '@tumble/contracts/billing-run';
import { api } from '../../api/client';

/** GET /api/v1/admin/terms/:id/billing: every family's invoice-to-be, the totals and the last run. */
export function useBillingPreview(termId: number) {
  return useQuery({
    queryKey: ['admin', 'billing-run', 'preview', termId],
    queryFn: ({ signal }) =>
      api.get(`/api/v1/admin/terms/${termId}/billing`, { schema: billingRunPreview, signal }),
  });
}

/** POST /api/v1/admin/terms/:id/billing-runs: starts issuing; answers at once with the run. */
export function useStartBillingRun(termId: number) {
  return useMutation({
    mutationFn: () => api.post(`/api/v1/admin/terms/${termId}/billing-runs`, {}, { schema: billingRun }),
  });
}

/** GET /api/v1/admin/billing-runs/:id, polled every second while the run is running. */
export function useBillingRun(id: number | null) {
  return useQuery({
    queryKey: ['admin', 'billing-run', 'run', id],
    queryFn: ({ signal }) => api.get(`/api/v1/admin/billing-runs/${id}`, { schema: billingRun, signal }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1000 : false),
  });
}
