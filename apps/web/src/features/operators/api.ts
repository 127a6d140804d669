import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CustomerAction,
  customerDetail,
  customersResponse,
  supportResponse,
} from '@tumble/contracts/operators';
import { useNavigate } from 'react-router';
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

/**
 * "Open as support": the session then acts inside the company, so every cached page (the user
 * meta first) is stale. It goes to the company's dashboard before the caches reset: the reset
 * reloads the user meta, which unmounts the page that asked.
 */
export function useOpenAsSupport(id: number) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (reason: string) =>
      api.post(`/api/v1/operators/customers/${id}/support`, { reason }, { schema: supportResponse }),
    onSuccess: async () => {
      await navigate('/admin/dashboard');
      await queryClient.resetQueries();
    },
  });
}

/** "End" on the support banner: back to the company's page on Customers, as the operator again. */
export function useEndSupport(companyId: number | null) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api.post('/api/v1/operators/support/end'),
    onSuccess: async () => {
      await navigate(companyId ? `/admin/customers/${companyId}` : '/admin');
      await queryClient.resetQueries();
    },
  });
}
