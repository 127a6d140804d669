import { useQuery } from '@tanstack/react-query';
import { type MyPayments, myPaymentsResponse } from '@tumble/contracts/students';
import { api } from '../../../api/client';
import { studentKeys } from './keys';

/** GET /api/v1/students/payments: paid and refunded payments, each with a PDF receipt. */
export function fetchMyPayments(signal?: AbortSignal): Promise<MyPayments> {
  return api.get('/api/v1/students/payments', { schema: myPaymentsResponse, signal });
}

export function useMyPayments() {
  return useQuery({ queryKey: studentKeys.payments, queryFn: ({ signal }) => fetchMyPayments(signal) });
}
