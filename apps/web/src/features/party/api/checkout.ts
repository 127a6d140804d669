import { type CheckoutResponse, checkoutResponse } from '@tumble/contracts/booking';
import type { PartyCheckoutRequest } from '@tumble/contracts/party';
import { api } from '../../../api/client';

/** POST /api/v1/birthday-party/booking/checkout?authhash: holds the slot and starts the deposit payment. */
export function postPartyCheckout(authhash: string, body: PartyCheckoutRequest): Promise<CheckoutResponse> {
  return api.post('/api/v1/birthday-party/booking/checkout', body, {
    query: { authhash },
    schema: checkoutResponse,
  });
}
