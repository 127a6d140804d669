import { formatMoney, share } from '../../platform/money.ts';
import { type Discount, discountOn, type Surcharge, surchargeLine } from '../pricing/pricing.ts';

/**
 * The price of a class enrolment purchase (issue 14). Pure: the checkout, the price preview and the
 * tests compute it here from data the services load. All amounts in cents.
 *
 * - A full enrolment pays for the chargeable sessions left from its start: scheduled sessions not
 *   on a `billing_only` closure (a `closed` day has no session at all). A `per_session` class costs
 *   its price per chargeable session; a `term` class its term price pro-rata (sessions left over
 *   sessions in the term, rounded to the cent).
 * - A trial costs the class type's trial price (nothing when it has none).
 * - Sibling discount: the second and later child of the family in one term (children already
 *   enrolled count first). Multi-class discount: a child's second and later class in one term
 *   (classes already enrolled count first). Both off the place's fee; never more than the fee.
 * - Then the coupon or promotional code off what is left, then an NSW voucher against one
 *   child's term fee (never more than that fee; not for a child who used one this voucher period).
 */

export interface PricedClass {
  termClassId: number;
  termId: number;
  /** What the parent calls it ("Kinder Gym Tuesday 4:00pm"). */
  name: string;
  pricingModel: 'per_session' | 'term';
  /** Cents per session or for the whole term. */
  price: number;
  trialPrice: number | null;
  /** Dates of the class's scheduled sessions in the term (cancelled ones left out). */
  sessionDates: string[];
  /** The term's `billing_only` closures: sessions run those days but are never charged. */
  billingOnly: { startDate: string; endDate: string }[];
}

export interface PlaceRequest {
  /** One key per child of the family (`id:12`, `new:0`). */
  childKey: string;
  childName: string;
  termClassId: number;
  kind: 'enrolled' | 'trial';
  /** Full enrolments: the first date charged (today or the term's start); trials: the session's date. */
  from: string;
}

export interface EnrolmentPriceInput {
  places: PlaceRequest[];
  classes: PricedClass[];
  /** The family's full enrolments already active (or held) in these terms. */
  existing: { childKey: string; termId: number; termClassId: number }[];
  siblingDiscountPercent: number;
  multiClassDiscountPercent: number;
  coupon: (Discount & { code: string; source?: 'coupon' | 'promotional' }) | null;
  voucher: { code: string; value: number } | null;
  /** Children who already used an NSW voucher in the voucher period of these classes. */
  voucherUsedBy: string[];
  surcharge: Surcharge | null;
  currency: string;
}

export interface EnrolmentPriceLine {
  key: string;
  label: string;
  description: string;
  value: number;
  formatted: string;
}

export interface EnrolmentPrice {
  lines: EnrolmentPriceLine[];
  /** What is charged now. */
  total: number;
  /** Each place's amount after its discounts (coupon shared pro rata, surcharge not included). */
  placeAmounts: number[];
  /** The child the NSW voucher went against; null when none was used. */
  voucherChildKey: string | null;
  /** Why the typed voucher cannot be used here, when it cannot. */
  voucherError: string | null;
}

export const voucherMessages = {
  usedThisPeriod: 'This child has already used an NSW voucher this voucher period.',
  termEnrolmentOnly: 'An NSW voucher can only be used against a term enrolment.',
} as const;

const inRange = (date: string, range: { startDate: string; endDate: string }) =>
  date >= range.startDate && date <= range.endDate;

/** The sessions of a class that are charged: scheduled and not on a billing-only closure. */
export function chargeableDates(cls: Pick<PricedClass, 'sessionDates' | 'billingOnly'>, from = ''): string[] {
  return cls.sessionDates.filter((d) => d >= from && !cls.billingOnly.some((r) => inRange(d, r)));
}

/** The fee of a full enrolment from `from`, and the sessions it pays for. */
export function enrolmentFee(cls: PricedClass, from: string): { fee: number; sessions: number } {
  const left = chargeableDates(cls, from).length;
  if (cls.pricingModel === 'per_session') return { fee: cls.price * left, sessions: left };
  const inTerm = chargeableDates(cls).length;
  return { fee: inTerm === 0 ? 0 : share(cls.price, left, inTerm), sessions: left };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function priceEnrolment(input: EnrolmentPriceInput): EnrolmentPrice {
  const money = (value: number) => formatMoney(value, input.currency);
  const line = (key: string, label: string, description: string, value: number): EnrolmentPriceLine => ({
    key,
    label,
    description,
    value,
    formatted: money(value),
  });
  const classOf = new Map(input.classes.map((c) => [c.termClassId, c]));
  const lines: EnrolmentPriceLine[] = [];

  // The fee of each place.
  const fees = input.places.map((place, i) => {
    const cls = classOf.get(place.termClassId);
    if (!cls) throw new Error(`No class ${place.termClassId} to price`);
    if (place.kind === 'trial') {
      const fee = cls.trialPrice ?? 0;
      lines.push(line(`place_${i}`, `${cls.name} trial`, place.childName, fee));
      return fee;
    }
    const { fee, sessions } = enrolmentFee(cls, place.from);
    lines.push(line(`place_${i}`, `${cls.name} × ${plural(sessions, 'session')}`, place.childName, fee));
    return fee;
  });

  // Sibling and multi-class discounts, term by term: who and what is already enrolled counts first.
  const childrenInTerm = new Map<number, string[]>();
  const classesOfChild = new Map<string, number>();
  for (const e of input.existing) {
    const family = childrenInTerm.get(e.termId) ?? [];
    if (!family.includes(e.childKey)) family.push(e.childKey);
    childrenInTerm.set(e.termId, family);
    const key = `${e.termId}|${e.childKey}`;
    classesOfChild.set(key, (classesOfChild.get(key) ?? 0) + 1);
  }
  let sibling = 0;
  let multi = 0;
  const amounts = fees.map((fee, i) => {
    const place = input.places[i]!;
    if (place.kind !== 'enrolled') return fee;
    const termId = classOf.get(place.termClassId)!.termId;
    const family = childrenInTerm.get(termId) ?? [];
    if (!family.includes(place.childKey)) family.push(place.childKey);
    childrenInTerm.set(termId, family);
    const key = `${termId}|${place.childKey}`;
    const classesBefore = classesOfChild.get(key) ?? 0;
    classesOfChild.set(key, classesBefore + 1);
    const siblingOff =
      family.indexOf(place.childKey) >= 1 ? share(fee, input.siblingDiscountPercent, 100) : 0;
    const multiOff = classesBefore >= 1 ? share(fee, input.multiClassDiscountPercent, 100) : 0;
    const off = Math.min(fee, siblingOff + multiOff);
    // When both apply and together exceed the fee, the sibling discount is kept whole.
    sibling += Math.min(siblingOff, off);
    multi += off - Math.min(siblingOff, off);
    return fee - off;
  });
  if (sibling > 0)
    lines.push(
      line(
        'sibling_discount',
        `Sibling discount ${input.siblingDiscountPercent}%`,
        'Second and later child',
        -sibling,
      ),
    );
  if (multi > 0)
    lines.push(
      line(
        'multi_class_discount',
        `Multi-class discount ${input.multiClassDiscountPercent}%`,
        'Second and later class',
        -multi,
      ),
    );

  // The coupon off what is left, shared over the places pro rata (the first takes the rounding).
  const afterDiscounts = amounts.reduce((a, b) => a + b, 0);
  const coupon = input.coupon ? discountOn(afterDiscounts, input.coupon) : 0;
  if (coupon > 0) {
    const label = input.coupon!.source === 'promotional' ? 'Promotional code' : 'Coupon';
    lines.push(line('coupon', label, input.coupon!.code, -coupon));
    const shares = amounts.map((a) => (afterDiscounts === 0 ? 0 : Math.floor((coupon * a) / afterDiscounts)));
    shares[0]! += coupon - shares.reduce((a, b) => a + b, 0);
    shares.forEach((s, i) => {
      amounts[i] = amounts[i]! - s;
    });
  }

  // The NSW voucher against the largest term fee of a child who has not used one this period.
  let voucherChildKey: string | null = null;
  let voucherError: string | null = null;
  if (input.voucher) {
    const enrolled = input.places.map((p, i) => ({ p, i })).filter(({ p }) => p.kind === 'enrolled');
    const eligible = enrolled.filter(({ p }) => !input.voucherUsedBy.includes(p.childKey));
    if (enrolled.length === 0) voucherError = voucherMessages.termEnrolmentOnly;
    else if (eligible.length === 0) voucherError = voucherMessages.usedThisPeriod;
    else {
      const best = eligible.reduce((a, b) => (amounts[b.i]! > amounts[a.i]! ? b : a));
      const value = Math.min(input.voucher.value, amounts[best.i]!);
      voucherChildKey = best.p.childKey;
      if (value > 0) {
        amounts[best.i] = amounts[best.i]! - value;
        lines.push(line('nsw_voucher', 'NSW voucher', `${input.voucher.code} · ${best.p.childName}`, -value));
      }
    }
  }

  const beforeSurcharge = amounts.reduce((a, b) => a + b, 0);
  const surcharge = surchargeLine(beforeSurcharge, input.surcharge);
  if (surcharge) lines.push(line('surcharge', surcharge.label, surcharge.description, surcharge.amount));
  const total = beforeSurcharge + (surcharge?.amount ?? 0);
  lines.push(line('total', 'Total', 'To pay now', total));
  return { lines, total, placeAmounts: amounts, voucherChildKey, voucherError };
}

/**
 * The NSW voucher period a date falls in: a calendar half-year (`2027-H1`), the scheme's rounds.
 * One voucher per child per period.
 */
export function voucherPeriodOf(date: string): string {
  return `${date.slice(0, 4)}-H${Number(date.slice(5, 7)) <= 6 ? 1 : 2}`;
}
