import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AnomalyListQuery,
  anomalyListResponse,
  anomalyResolveResponse,
} from '@tumble/contracts/registration-forms';
import { api } from '../../api/client';

export const anomalyKeys = {
  all: ['admin', 'registration-anomalies'] as const,
  list: (query: AnomalyListQuery) => ['admin', 'registration-anomalies', 'list', query] as const,
};

/** GET /api/v1/admin/registration-anomalies: one page, open ones first. */
export function useAnomalies(query: AnomalyListQuery) {
  return useQuery({
    queryKey: anomalyKeys.list(query),
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/registration-anomalies', {
        query: { ...query },
        schema: anomalyListResponse,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** POST …/:id/resolve: takes the anomaly's one action; says what happened and reloads the lists. */
export function useResolveAnomaly() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.post(`/api/v1/admin/registration-anomalies/${id}/resolve`, {}, { schema: anomalyResolveResponse }),
    onSuccess: (response) =>
      notifications.show({ title: 'Anomaly resolved', message: response.message, color: 'teal' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: anomalyKeys.all }),
  });
}
