import { useQuery } from '@tanstack/react-query';
import { type CheckoutResponse, checkoutResponse } from '@tumble/contracts/booking';
import { type InvoiceCheckoutRequest, invoicePaymentResponse } from '@tumble/contracts/payments';
import { api } from '../../api/client';

/**
 * GET /api/v1/students/invoice-payment?invoice=<id>: the parent's invoice and the ways to pay it.
 * While a card payment is being confirmed (`waiting`), it asks again every two seconds.
 */
export function useInvoicePayment(invoiceId: number, waiting: boolean) {
  return useQuery({
    queryKey: ['students', 'invoice-payment', invoiceId],
    queryFn: ({ signal }) =>
      api.get('/api/v1/students/invoice-payment', {
        query: { invoice: invoiceId },
        schema: invoicePaymentResponse,
        signal,
      }),
    staleTime: 0,
    refetchInterval: (query) => (waiting && query.state.data?.pending_payment ? 2000 : false),
  });
}

/** POST /api/v1/students/invoice-payment/checkout: opens the card payment of the chosen way to pay. */
export function postInvoiceCheckout(body: InvoiceCheckoutRequest): Promise<CheckoutResponse> {
  return api.post('/api/v1/students/invoice-payment/checkout', body, { schema: checkoutResponse });
}
