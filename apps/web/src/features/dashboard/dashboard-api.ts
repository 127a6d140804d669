import { useQuery } from '@tanstack/react-query';
import { dashboardResponse } from '@tumble/contracts/dashboard';
import { api } from '../../api/client';

export const dashboardKey = ['admin', 'dashboard'] as const;

/** GET /api/v1/admin/dashboard: every card in one read, fetched again on each visit. */
export function useDashboard(enabled = true) {
  return useQuery({
    enabled,
    queryKey: dashboardKey,
    queryFn: ({ signal }) => api.get('/api/v1/admin/dashboard', { schema: dashboardResponse, signal }),
    refetchOnMount: 'always',
  });
}
