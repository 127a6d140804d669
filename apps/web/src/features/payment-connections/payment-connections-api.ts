import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type PaymentConnectionProvider,
  paymentConnectionsStatus,
  paymentConnectResponse,
  squareLocationsResponse,
} from '@tumble/contracts/payment-connections';
import { api } from '../../api/client';

const path = '/api/v1/admin/integrations/payments';
const statusKey = ['admin', 'payment-connections'] as const;

/** GET the company's Stripe and Square connections and its payment method. */
export function usePaymentConnections() {
  return useQuery({
    queryKey: statusKey,
    queryFn: ({ signal }) => api.get(path, { schema: paymentConnectionsStatus, signal }),
  });
}

/** POST …/:provider/connect: the provider's sign-in page to send the browser to. */
export function useConnectProvider() {
  return useMutation({
    mutationFn: (provider: PaymentConnectionProvider) =>
      api.post(`${path}/${provider}/connect`, {}, { schema: paymentConnectResponse }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

export function useDisconnectProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: PaymentConnectionProvider) =>
      api.post(`${path}/${provider}/disconnect`, {}, { schema: paymentConnectionsStatus }),
    onSuccess: (status) => queryClient.setQueryData(statusKey, status),
  });
}

/** GET the Square merchant's locations that take cards (only once connected). */
export function useSquareLocations(enabled: boolean) {
  return useQuery({
    queryKey: [...statusKey, 'square-locations'],
    enabled,
    queryFn: ({ signal }) => api.get(`${path}/square/locations`, { schema: squareLocationsResponse, signal }),
  });
}

export function useChooseSquareLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (locationId: string) =>
      api.post(`${path}/square/location`, { location_id: locationId }, { schema: paymentConnectionsStatus }),
    onSuccess: (status) => queryClient.setQueryData(statusKey, status),
  });
}
