import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type RolloverRequest, rolloverPlan, rolloverRun, termRollovers } from '@tumble/contracts/rollover';
import { api } from '../../api/client';

const termPath = (termId: number) => `/api/v1/admin/terms/${termId}/rollovers`;

/** GET …/terms/:id/rollovers: the later terms to roll into and the runs so far. */
export function useTermRollovers(termId: number) {
  return useQuery({
    queryKey: ['admin', 'rollovers', 'term', termId],
    queryFn: ({ signal }) => api.get(termPath(termId), { schema: termRollovers, signal }),
  });
}

/** POST …/rollovers/preview: the dry run (nothing written). */
export function useRolloverPreview(termId: number) {
  return useMutation({
    mutationFn: (request: RolloverRequest) =>
      api.post(`${termPath(termId)}/preview`, request, { schema: rolloverPlan }),
  });
}

/** POST …/rollovers: starts (or resumes) the run; answers at once with its progress. */
export function useCommitRollover(termId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: RolloverRequest) => api.post(termPath(termId), request, { schema: rolloverRun }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'rollovers'] }),
  });
}

/** GET /api/v1/admin/rollovers/:id, polled every second while the run is running. */
export function useRolloverRun(id: number | null) {
  return useQuery({
    queryKey: ['admin', 'rollovers', 'run', id],
    queryFn: ({ signal }) => api.get(`/api/v1/admin/rollovers/${id}`, { schema: rolloverRun, signal }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1000 : false),
  });
}

/** POST /api/v1/admin/rollovers/:id/undo. */
export function useUndoRollover(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(`/api/v1/admin/rollovers/${id}/undo`, {}, { schema: rolloverRun }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'rollovers'] }),
  });
}
