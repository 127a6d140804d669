import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ChargesResponse,
  type CheckoutResponse,
  chargesResponse,
  checkoutResponse,
} from '@tumble/contracts/booking';
import {
  myUniformOrdersResponse,
  type StaffUniformOrderRequest,
  staffUniformOrdersResponse,
  type UniformCheckoutRequest,
} from '@tumble/contracts/uniform-orders';
import { z } from 'zod';
import { api, type Query } from '../../api/client';

const keys = {
  all: ['uniform-orders'] as const,
  mine: ['uniform-orders', 'mine'] as const,
  staff: ['uniform-orders', 'staff'] as const,
};

const done = z.object({ message: z.string() });

/** GET /api/v1/students/uniform-orders: the parent's children, what can be ordered, their orders. */
export function useMyUniformOrders() {
  return useQuery({
    queryKey: keys.mine,
    queryFn: ({ signal }) =>
      api.get('/api/v1/students/uniform-orders', { schema: myUniformOrdersResponse, signal }),
  });
}

/** GET /api/v1/students/uniform-orders/charges: the order's price (card or invoice). */
export function useUniformCharges(params: {
  sizeId: number | null;
  quantity: number;
  pay: 'card' | 'invoice';
}) {
  const query: Query = { size_id: params.sizeId ?? 0, quantity: params.quantity, pay: params.pay };
  return useQuery({
    queryKey: ['uniform-orders', 'charges', query],
    queryFn: ({ signal }): Promise<ChargesResponse> =>
      api.get('/api/v1/students/uniform-orders/charges', { query, schema: chargesResponse, signal }),
    enabled: params.sizeId !== null,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export function postUniformCheckout(body: UniformCheckoutRequest): Promise<CheckoutResponse> {
  return api.post('/api/v1/students/uniform-orders/checkout', body, { schema: checkoutResponse });
}

/** GET /api/v1/admin/uniform-orders: every order, the catalogue and the families. */
export function useStaffUniformOrders() {
  return useQuery({
    queryKey: keys.staff,
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/uniform-orders', { schema: staffUniformOrdersResponse, signal }),
  });
}

/** POST /api/v1/admin/uniform-orders: an order at the front desk. */
export function useCreateDeskOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffUniformOrderRequest) =>
      api.post('/api/v1/admin/uniform-orders', body, { schema: z.object({ id: z.number() }) }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

/** POST /api/v1/admin/uniform-orders/:id/collect or /cancel. */
export function useOrderAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'collect' | 'cancel' }) =>
      api.post(`/api/v1/admin/uniform-orders/${id}/${action}`, {}, { schema: done }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}
