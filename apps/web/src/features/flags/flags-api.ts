import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApplyFlagRequest, appliedFlagsResponse, flagOptionsResponse } from '@tumble/contracts/flags';
import { formResponse } from '@tumble/contracts/http';
import { api } from '../../api/client';

const keys = {
  applied: (of: { child_id?: number; parent_id?: number }) => ['admin', 'flagged', of] as const,
  options: ['admin', 'flagged', 'options'] as const,
};

/** The flags applied: all of them, or one child's (with its family's) or one family's. */
export function useAppliedFlags(of: { child_id?: number; parent_id?: number } = {}) {
  return useQuery({
    queryKey: keys.applied(of),
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/flagged', { schema: appliedFlagsResponse, query: of, signal }),
  });
}

export function useFlagOptions() {
  return useQuery({
    queryKey: keys.options,
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/flagged/options', { schema: flagOptionsResponse, signal }),
  });
}

export function applyFlag(body: ApplyFlagRequest) {
  return api.post('/api/v1/admin/flagged', body, { schema: formResponse });
}

export function useRemoveFlag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.request('DELETE', `/api/v1/admin/flagged/${id}`),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin', 'flagged'] }),
  });
}
