import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ChargesResponse,
  type CheckoutResponse,
  chargesResponse,
  checkoutResponse,
} from '@tumble/contracts/booking';
import {
  availableLessonsResponse,
  myPrivateLessonsResponse,
  type PrivateLessonCheckoutRequest,
  type RefundChoice,
  staffPrivateLessonsResponse,
} from '@tumble/contracts/private-lessons';
import { z } from 'zod';
import { api, type Query } from '../../api/client';

const keys = {
  all: ['private-lessons'] as const,
  available: (coachId: number | null) => ['private-lessons', 'available', coachId] as const,
  mine: ['private-lessons', 'mine'] as const,
  staff: (filter: StaffFilter) => ['private-lessons', 'staff', filter] as const,
};

const done = z.object({ valid: z.literal(true), message: z.string() });

/** GET /api/v1/students/private-lessons/available: free lessons of the next eight weeks. */
export function useAvailableLessons(coachId: number | null) {
  return useQuery({
    queryKey: keys.available(coachId),
    queryFn: ({ signal }) =>
      api.get('/api/v1/students/private-lessons/available', {
        query: coachId === null ? {} : { coach_id: coachId },
        schema: availableLessonsResponse,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/v1/students/private-lessons/charges: the lesson's price with the coupon applied. */
export function useLessonCharges(params: { slotId: number; date: string; children: number; coupon: string }) {
  const query: Query = { slot_id: params.slotId, date: params.date, children: Math.max(1, params.children) };
  if (params.coupon) query.coupon_code = params.coupon;
  return useQuery({
    queryKey: ['private-lessons', 'charges', query],
    queryFn: ({ signal }): Promise<ChargesResponse> =>
      api.get('/api/v1/students/private-lessons/charges', { query, schema: chargesResponse, signal }),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export function useLessonPaymentTerms() {
  return useQuery({
    queryKey: ['private-lessons', 'payment-terms'],
    queryFn: ({ signal }) =>
      api.get('/api/v1/students/private-lessons/payment-terms', {
        schema: z.object({ payment_terms: z.string() }),
        signal,
      }),
  });
}

export function postLessonCheckout(body: PrivateLessonCheckoutRequest): Promise<CheckoutResponse> {
  return api.post('/api/v1/students/private-lessons/checkout', body, { schema: checkoutResponse });
}

/** GET /api/v1/students/private-lessons: the parent's upcoming and past lessons. */
export function useMyLessons() {
  return useQuery({
    queryKey: keys.mine,
    queryFn: ({ signal }) =>
      api.get('/api/v1/students/private-lessons', { schema: myPrivateLessonsResponse, signal }),
  });
}

/** POST /api/v1/students/private-lessons/:id/cancel (the company's cancellation policy applies). */
export function useCancelMyLesson() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.post(`/api/v1/students/private-lessons/${id}/cancel`, {}, { schema: done }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

export interface StaffFilter {
  coachId: number | null;
  from: string;
  to: string;
}

/** GET /api/v1/admin/private-lessons: bookings by coach and dates, with the coach-on-leave clash. */
export function useStaffLessons(filter: StaffFilter) {
  const query: Query = {};
  if (filter.coachId !== null) query.coach_id = filter.coachId;
  if (filter.from) query.from = filter.from;
  if (filter.to) query.to = filter.to;
  return useQuery({
    queryKey: keys.staff(filter),
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/private-lessons', { query, schema: staffPrivateLessonsResponse, signal }),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/v1/admin/private-lessons/:id/cancel with what happens to the money. */
export function useStaffCancelLesson() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, choice }: { id: number; choice: RefundChoice }) =>
      api.post(`/api/v1/admin/private-lessons/${id}/cancel`, { refund_choice: choice }, { schema: done }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}
