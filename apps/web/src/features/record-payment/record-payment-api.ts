import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type RecordPaymentInput,
  type RecordPaymentResponse,
  recordPaymentOptions,
  recordPaymentResponse,
} from '@tumble/contracts/payments';
import { api, type Query } from '../../api/client';

export interface OptionsFor {
  family?: number;
  invoice?: number;
  party_booking?: number;
}

/** GET /api/v1/admin/payments/record/options: the family's open invoices, parties owing and credit. */
export function useRecordOptions(params: OptionsFor) {
  const query: Query = {};
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query[key] = value;
  return useQuery({
    queryKey: ['admin', 'record-payment', 'options', query],
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/payments/record/options', { query, schema: recordPaymentOptions, signal }),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/v1/admin/payments/record; a 400's field messages come back in the ApiError's form response. */
export function useRecordPayment(onRecorded: (response: RecordPaymentResponse) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordPaymentInput) =>
      api.post('/api/v1/admin/payments/record', body, { schema: recordPaymentResponse }),
    onSuccess: (response) => {
      void client.invalidateQueries({ queryKey: ['admin', 'record-payment'] });
      onRecorded(response);
    },
  });
}
