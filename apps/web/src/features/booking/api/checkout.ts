import {
  type CheckoutResponse,
  checkoutResponse,
  type EventCheckoutRequest,
} from '@tumble/contracts/booking';
import { api } from '../../../api/client';

/** POST /api/v1/booking/checkout?authhash: holds the places and starts the payment. */
export function postEventCheckout(authhash: string, body: EventCheckoutRequest): Promise<CheckoutResponse> {
  return api.post('/api/v1/booking/checkout', body, { query: { authhash }, schema: checkoutResponse });
}
