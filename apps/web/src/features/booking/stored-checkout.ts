import { chargesResponse } from '@tumble/contracts/booking';
import { z } from 'zod';
import { loadStoredJson } from '../../components/stored-json';
import { CHECKOUT_STORAGE_KEY } from './checkout-storage';

/**
 * SPEC.md point 3: event checkout data kept in browser storage between the booking page and the
 * checkout page. `booked` and `waiting` hold `encodeCell` values (`event|session|date`);
 * `bookingFee` is in cents; `pricing` is the last charges summary (null when only waitlisted
 * sessions were chosen), and `errors` its coupon messages.
 */
export const storedCheckout = z.object({
  event_id: z.number().int().positive(),
  event_name: z.string(),
  quantity: z.number().int().min(1),
  booked: z.array(z.string()),
  waiting: z.array(z.string()),
  bookingFee: z.number(),
  pricing: chargesResponse.pick({ pricing_details: true, additional_information: true }).nullable(),
  errors: chargesResponse.shape.errors,
});
export type StoredCheckout = z.infer<typeof storedCheckout>;

/** The stored checkout data, or null when there is none or it is not in the expected shape. */
export function loadCheckout(): StoredCheckout | null {
  return loadStoredJson(CHECKOUT_STORAGE_KEY, storedCheckout);
}
