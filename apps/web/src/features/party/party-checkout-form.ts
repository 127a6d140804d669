import type { ChargesResponse } from '@tumble/contracts/booking';
import type { PartyCheckoutRequest } from '@tumble/contracts/party';
import type { DobValue } from '../../components/date-of-birth-input';
import type { StoredPartyCheckout } from './party-checkout-storage';

export const NEW_CHILD = 'new';

/** The birthday child of the checkout: an existing child (its id) or a new one. */
export interface PartyChildForm extends DobValue {
  /** 'new', or the id of an existing child. */
  choice: string;
  first_name: string;
  last_name: string;
}

/** The parent's first child when there is one, else a new child. */
export function initialPartyChild(existingIds: readonly number[]): PartyChildForm {
  const first = existingIds[0];
  return {
    choice: first === undefined ? NEW_CHILD : String(first),
    first_name: '',
    last_name: '',
    dob: '',
    dobText: '',
  };
}

/** The `student` of the checkout payload, as `partyStudentError` of @tumble/contracts/party checks it. */
export function toPartyStudent(child: PartyChildForm): NonNullable<PartyCheckoutRequest['student']> {
  if (child.choice !== NEW_CHILD) return { id: Number(child.choice), first_name: '', last_name: '', dob: '' };
  return {
    id: undefined,
    first_name: child.first_name.trim(),
    last_name: child.last_name.trim(),
    // A typed date that is not a real past date is sent as typed, so the rule refuses it.
    dob: child.dobText || child.dob,
  };
}

/**
 * The payload of POST /api/v1/birthday-party/booking/checkout. Amounts are the last charges
 * summary's, in cents; `amount` is what the card is charged now (deposit plus surcharge). The
 * server prices again and refuses a mismatch, so they are a check, never the price.
 */
export function partyCheckoutBody(
  stored: StoredPartyCheckout,
  child: PartyChildForm,
  pricing: ChargesResponse,
): PartyCheckoutRequest {
  const details = pricing.pricing_details;
  const cents = (key: string) => Math.round(Math.abs(details[key]?.value ?? 0));
  const discount = details.coupon ?? details.nsw_voucher;
  return {
    slot_id: stored.slot_id,
    date: stored.date,
    quantity: stored.quantity,
    amount: cents('amount_due'),
    surcharge: cents('surcharge'),
    deposit: cents('deposit'),
    discount_amount: cents('coupon') + cents('nsw_voucher'),
    discount_reason: discount ? discount.label : '',
    coupon_code: pricing.additional_information.coupon_code ?? '',
    nsw_coupon_code: pricing.additional_information.nsw_coupon_code ?? '',
    student: toPartyStudent(child),
    accept_terms: true,
  };
}
