import type { ChargesResponse, CheckoutChild, EventCheckoutRequest } from '@tumble/contracts/booking';
import type { ParentChild } from '../../api/children';
import type { EventInsurances, InsuranceProduct } from './api/insurances';

export type InsuranceChoice = '' | 'daily_insurance' | 'full_insurance';

/** One child row of the checkout form: an existing child (its id) or a new one. */
export interface ChildForm {
  /** 'new', or the id of an existing child. */
  choice: string;
  first_name: string;
  last_name: string;
  /** YYYY-MM-DD, or '' while not picked. */
  dob: string;
  /** What the parent typed when it is not a date we accept; makes the row's dob invalid. */
  dobText: string;
  consent: boolean;
  insurance_type: InsuranceChoice;
  insurance_ids: number[];
}

export const NEW_CHILD = 'new';

export function emptyChild(choice = NEW_CHILD): ChildForm {
  return {
    choice,
    first_name: '',
    last_name: '',
    dob: '',
    dobText: '',
    consent: false,
    insurance_type: '',
    insurance_ids: [],
  };
}

/**
 * The row for a choice of child. An existing child starts from the family's usual insurance
 * (My Children) when this event offers that kind; otherwise the parent chooses.
 */
export function childRow(
  choice: string,
  existing: readonly ParentChild[],
  insurances: EventInsurances | null,
): ChildForm {
  const usual = existing.find((child) => String(child.id) === choice)?.insurance_type;
  const offered =
    (usual === 'daily_insurance' && insurances?.daily) ||
    (usual === 'full_insurance' && insurances && insurances.full.length > 0);
  return { ...emptyChild(choice), insurance_type: offered ? usual : '' };
}

/** Row i starts with the parent's i-th existing child, if there is one. */
export function initialChildren(
  quantity: number,
  existing: readonly ParentChild[],
  insurances: EventInsurances | null = null,
): ChildForm[] {
  return Array.from({ length: quantity }, (_, i) => {
    const child = existing[i];
    return childRow(child === undefined ? NEW_CHILD : String(child.id), existing, insurances);
  });
}

/** The full products a row's child can still buy: all of them for a new child. */
export function availableFullProducts(row: ChildForm, insurances: EventInsurances): InsuranceProduct[] {
  if (row.choice === NEW_CHILD) return insurances.full;
  const remaining = insurances.children[row.choice]?.insurance_ids;
  if (!remaining) return insurances.full;
  return insurances.full.filter((product) => remaining.includes(product.id));
}

/** Whether this company sells any insurance at all (none: the parent is asked nothing). */
export function insuranceOffered(insurances: EventInsurances | null): insurances is EventInsurances {
  return insurances !== null && (insurances.daily !== null || insurances.full.length > 0);
}

/**
 * The `childrenErrors` insurance options, as the server applies them: nothing is asked when no
 * insurance is sold, nor for a child who holds every full-cover product where no daily one is sold.
 */
export function insuranceRule(insurances: EventInsurances | null): {
  insuranceOffered: boolean;
  fullyCovered: number[];
} {
  const fullyCovered =
    insurances && !insurances.daily && insurances.full.length > 0
      ? Object.entries(insurances.children)
          .filter(([, child]) => child.insurance_ids.length === 0)
          .map(([id]) => Number(id))
      : [];
  return { insuranceOffered: insuranceOffered(insurances), fullyCovered };
}

/** A row as the checkout payload and `childrenErrors` of @tumble/contracts/booking expect it. */
export function toCheckoutChild(row: ChildForm, withInsurance: boolean): CheckoutChild {
  const insurance: Pick<CheckoutChild, 'insurance_type' | 'insurance_ids'> = withInsurance
    ? {
        insurance_type: row.insurance_type || undefined,
        insurance_ids: row.insurance_type === 'full_insurance' ? row.insurance_ids : [],
      }
    : { insurance_type: undefined, insurance_ids: [] };
  if (row.choice !== NEW_CHILD) {
    return { id: Number(row.choice), first_name: '', last_name: '', dob: '', consent: 0, ...insurance };
  }
  return {
    id: undefined,
    first_name: row.first_name.trim(),
    last_name: row.last_name.trim(),
    dob: row.dobText || row.dob,
    consent: row.consent ? 1 : 0,
    ...insurance,
  };
}

interface CheckoutBodyInput {
  eventId: number;
  quantity: number;
  booked: string[];
  waiting: string[];
  children: CheckoutChild[];
  pricing: ChargesResponse | null;
}

/**
 * The payload of POST /api/v1/booking/checkout. Amounts are the last charges summary's, in cents;
 * the server recomputes them and refuses a mismatch, so they are a check, never the price.
 */
export function checkoutBody(input: CheckoutBodyInput): EventCheckoutRequest {
  const details = input.pricing?.pricing_details ?? {};
  const cents = (key: string) => Math.round(Math.abs(details[key]?.value ?? 0));
  const info = input.pricing?.additional_information;
  const discount = details.coupon ?? details.nsw_voucher;
  return {
    event_id: input.eventId,
    quantity: input.quantity,
    booked: input.booked,
    waiting: input.waiting,
    children: input.children,
    booking_fee: cents('booking_fee'),
    amount: cents('total'),
    surcharge: cents('surcharge'),
    insurance: cents('insurance'),
    discount_amount: cents('coupon') + cents('nsw_voucher'),
    discount_reason: discount ? discount.label : '',
    coupon_code: info?.coupon_code ?? '',
    nsw_coupon_code: info?.nsw_coupon_code ?? '',
    accept_terms: true,
  };
}
