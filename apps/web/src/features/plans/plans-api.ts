import { useQuery } from '@tanstack/react-query';
import { subscriptionResponse } from '@tumble/contracts/platform';
import { z } from 'zod';
import { api } from '../../api/client';

export const planKeys = {
  subscription: ['admin', 'subscription'] as const,
  limits: ['admin', 'plan-limits'] as const,
};

export function useSubscription() {
  return useQuery({
    queryKey: planKeys.subscription,
    queryFn: ({ signal }) => api.get('/api/v1/admin/subscription', { schema: subscriptionResponse, signal }),
  });
}

const limitsResponse = z.object({ over_limit: z.string().nullable() });

/** The dashboard's notice for a company over a limit of its plan. */
export function usePlanLimits() {
  return useQuery({
    queryKey: planKeys.limits,
    queryFn: ({ signal }) => api.get('/api/v1/admin/plan-limits', { schema: limitsResponse, signal }),
  });
}
