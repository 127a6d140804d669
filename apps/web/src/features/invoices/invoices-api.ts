import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CreditNoteRequest,
  type InvoiceListQuery,
  invoiceActionResponse,
  invoiceDetail,
  invoiceList,
  type NewInvoice,
  newInvoiceDefaults,
} from '@tumble/contracts/invoices';
import { messages } from '@tumble/contracts/messages';
import { z } from 'zod';
import { ApiError, api } from '../../api/client';

/** Query keys of the staff invoice screens. */
export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (query: InvoiceListQuery) => ['invoices', 'list', query] as const,
  one: (id: number) => ['invoices', id] as const,
  defaults: ['invoices', 'new-defaults'] as const,
};

/** GET /api/v1/admin/invoices → { data, total }, newest first unless asked otherwise. */
export function useInvoices(query: InvoiceListQuery) {
  return useQuery({
    queryKey: invoiceKeys.list(query),
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/invoices', { query: { ...query }, schema: invoiceList, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/v1/admin/invoices/:id: the invoice with its lines, payments and credit notes. */
export function useInvoice(id: number) {
  return useQuery({
    queryKey: invoiceKeys.one(id),
    queryFn: ({ signal }) => api.get(`/api/v1/admin/invoices/${id}`, { schema: invoiceDetail, signal }),
  });
}

/** GET /api/v1/admin/invoices/new-defaults: today and the due date the billing profile gives. */
export function useNewInvoiceDefaults() {
  return useQuery({
    queryKey: invoiceKeys.defaults,
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/invoices/new-defaults', { schema: newInvoiceDefaults, signal }),
  });
}

/** POST /api/v1/admin/invoices: a one-off invoice (draft, or issued and emailed). */
export function createInvoice(body: NewInvoice) {
  return api.post('/api/v1/admin/invoices', body, { schema: invoiceActionResponse });
}

type InvoiceAction =
  | { kind: 'issue' }
  | { kind: 'email' }
  | { kind: 'credit-notes'; body: CreditNoteRequest }
  | { kind: 'void'; body: { reason: string } };

/** POST /api/v1/admin/invoices/:id/{issue,email,credit-notes,void}; the invoice reloads after. */
export function useInvoiceAction(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: InvoiceAction) =>
      api.post(`/api/v1/admin/invoices/${id}/${action.kind}`, 'body' in action ? action.body : {}, {
        schema: invoiceActionResponse,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
  });
}

const parentPage = z.object({
  data: z.array(z.object({ id: z.number(), full_name: z.string().nullish(), email: z.string().nullish() })),
});

/** Families to bill: the parents resource searched by name or email. */
export function useFamilySearch(q: string) {
  return useQuery({
    queryKey: ['invoices', 'families', q],
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/parents', {
        query: { perPage: 20, q: q || undefined },
        schema: parentPage,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** A family by id (the `?family=` a family's account page links with). */
export function useFamily(id: number | null) {
  return useQuery({
    queryKey: ['invoices', 'family', id],
    enabled: id !== null,
    queryFn: ({ signal }) =>
      api.get(`/api/v1/admin/parents/${id}`, {
        schema: z.object({ id: z.number(), full_name: z.string().nullish(), email: z.string().nullish() }),
        signal,
      }),
  });
}

/** What to tell staff when a call failed: the server's message (a 400's field message) or ours. */
export function failureText(error: unknown): string {
  return error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;
}
