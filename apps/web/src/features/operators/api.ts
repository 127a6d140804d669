import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CustomerAction,
  customerDetail,
  customersResponse,
  supportResponse,
} from '@tumble/contracts/operators';
import { aclKeys } from '../../api/acl';
import { api } from '../../api/client';

/** The installation operator's calls (features/operators on the server; decision 018). */
export const operatorKeys = {
  all: ['operators'] as const,
  customers: () => ['operators', 'customers'] as const,
  customer: (id: number) => ['operators', 'customers', id] as const,
};

export function useCustomers() {
  return useQuery({
    queryKey: operatorKeys.customers(),
    queryFn: ({ signal }) => api.get('/api/v1/operators/customers', { schema: customersResponse, signal }),
  });
}

export function useCustomer(id: number) {
  return useQuery({
    queryKey: operatorKeys.customer(id),
    queryFn: ({ signal }) => api.get(`/api/v1/operators/customers/${id}`, { schema: customerDetail, signal }),
  });
}

/** Approve, decline, suspend (with a reason) or reactivate; answers the company as it now is. */
export function useCustomerAction(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { action: CustomerAction; reason?: string }) =>
      api.post(
        `/api/v1/operators/customers/${id}/${input.action}`,
        input.reason ? { reason: input.reason } : {},
        { schema: customerDetail },
      ),
    onSuccess: (company) => {
      queryClient.setQueryData(operatorKeys.customer(id), company);
      void queryClient.invalidateQueries({ queryKey: operatorKeys.customers(), exact: true });
    },
  });
}

/** "Open as support": afterwards the session acts inside the company, so every cached page is stale. */
export function useOpenAsSupport(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) =>
      api.post(`/api/v1/operators/customers/${id}/support`, { reason }, { schema: supportResponse }),
    onSuccess: () => queryClient.resetQueries(),
  });
}

/** "End" on the support banner. */
export function useEndSupport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/v1/operators/support/end'),
    onSuccess: async () => {
      await queryClient.resetQueries();
      await queryClient.invalidateQueries({ queryKey: aclKeys.all });
    },
  });
}
