import { useQuery } from '@tanstack/react-query';
import { type FamilyPayments, familyPaymentsResponse } from '@tumble/contracts/statement';
import { api } from '../../../api/client';
import { studentKeys } from './keys';

/** GET /api/v1/students/payments: every payment of the family (card and staff-recorded) with its refunds and PDF receipt. */
export function fetchMyPayments(signal?: AbortSignal): Promise<FamilyPayments> {
  return api.get('/api/v1/students/payments', { schema: familyPaymentsResponse, signal });
}

export function useMyPayments() {
  return useQuery({ queryKey: studentKeys.payments, queryFn: ({ signal }) => fetchMyPayments(signal) });
}
