import { chargesResponse } from '@tumble/contracts/booking';
import { z } from 'zod';
import { loadStoredJson, removeStoredJson, saveStoredJson } from '../../components/stored-json';

/** Browser storage key of the party checkout data (SPEC.md point 3). */
export const PARTY_CHECKOUT_STORAGE_KEY = 'tumble.checkout.party';

/**
 * SPEC.md point 3: party checkout data, kept between the booking page and the checkout. `time` is
 * the slot's start (HH:MM), `date` YYYY-MM-DD, `quantity` the guests, `pricing` the last charges
 * summary (the checkout prices again on load).
 */
export const storedPartyCheckout = z.object({
  slot_id: z.number().int().positive(),
  time: z.string(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  quantity: z.number().int().min(1),
  pricing: chargesResponse.pick({ pricing_details: true, additional_information: true }),
});
export type StoredPartyCheckout = z.infer<typeof storedPartyCheckout>;

export function savePartyCheckout(data: StoredPartyCheckout): void {
  saveStoredJson(PARTY_CHECKOUT_STORAGE_KEY, data);
}

export function loadPartyCheckout(): StoredPartyCheckout | null {
  return loadStoredJson(PARTY_CHECKOUT_STORAGE_KEY, storedPartyCheckout);
}

export function clearPartyCheckout(): void {
  removeStoredJson(PARTY_CHECKOUT_STORAGE_KEY);
}
