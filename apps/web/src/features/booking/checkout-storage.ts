import { removeStoredJson, saveStoredJson } from '../../components/stored-json';
import type { StoredCheckout } from './stored-checkout';

export type { StoredCheckout };

/** Browser storage key of the event checkout data (SPEC.md point 3). */
export const CHECKOUT_STORAGE_KEY = 'tumble.checkout.event';

// Saving needs no schema; reading it back checks it with zod (stored-checkout.ts), which only the
// checkout page loads: the booking page's first load stays without zod (issue 19).

export function saveCheckout(data: StoredCheckout): void {
  saveStoredJson(CHECKOUT_STORAGE_KEY, data);
}

export function clearCheckout(): void {
  removeStoredJson(CHECKOUT_STORAGE_KEY);
}
