import { formatMoney, share } from '../../platform/money.ts';

/**
 * The one pricing module (Event booking issue). Pure: the checkout, the price summary call and the
 * tests all compute a booking's price here, from data the services load. All amounts in cents.
 */

export interface SessionDay {
  sessionId: number;
  date: string;
}

export interface Ticket {
  sessionId: number | null;
  price: number;
}

export interface PriceTier {
  sessionId: number | null;
  minDays: number;
  price: number;
}

export interface ChildInsurance {
  type: 'daily_insurance' | 'full_insurance' | 'none';
  /** Prices of the chosen full-insurance products. */
  fullPrices: number[];
}

export interface Discount {
  discountType: 'percent' | 'fixed';
  /** Whole percent, or cents. */
  amount: number;
}

export interface Surcharge {
  label: string;
  kind: 'percent' | 'fixed';
  /** Basis points (150 = 1.5%), or cents. */
  amount: number;
}

export interface EventPriceInput {
  /** Session-days booked (waitlisted ones are not charged and not listed here). */
  booked: SessionDay[];
  /** Places per session-day: one per child. */
  quantity: number;
  tickets: Ticket[];
  tiers: PriceTier[];
  bookingFee: number;
  /** Price of daily insurance per booked day per child, when the company offers it. */
  dailyInsurancePrice: number | null;
  /** One entry per child when dates are booked; may be empty before children are chosen. */
  insurance: ChildInsurance[];
  coupon: (Discount & { code: string; source?: 'coupon' | 'promotional' }) | null;
  nswVoucher: { code: string; valuePerChild: number; children: number } | null;
  surcharge: Surcharge | null;
  /** The company's currency (ISO 4217), for the lines' formatted amounts. */
  currency: string;
}

export type PricingKey =
  | 'subtotal'
  | 'booking_fee'
  | 'insurance'
  | 'coupon'
  | 'nsw_voucher'
  | 'surcharge'
  | 'deposit'
  | 'balance'
  | 'amount_due'
  | 'total';

export interface PricingLine {
  key: PricingKey;
  label: string;
  description: string;
  value: number;
  formatted: string;
}

export interface PriceResult {
  lines: PricingLine[];
  total: number;
  /** Price per place for each booked session-day, in the order given. */
  unitPrices: number[];
}

export class MissingPriceError extends Error {
  constructor(readonly sessionId: number) {
    super(`No ticket price for session ${sessionId}`);
    this.name = 'MissingPriceError';
  }
}

/**
 * The price of one place on a session-day: the session's ticket (or the event-wide one), lowered
 * by the best tier the booking reaches. A session-specific tier counts that session's booked days;
 * an event-wide tier counts all booked days.
 */
export function unitPrice(
  day: SessionDay,
  booked: SessionDay[],
  tickets: Ticket[],
  tiers: PriceTier[],
): number {
  const ticket =
    tickets.find((t) => t.sessionId === day.sessionId) ?? tickets.find((t) => t.sessionId === null);
  if (!ticket) throw new MissingPriceError(day.sessionId);
  const daysOf = (sessionId: number | null) =>
    sessionId === null ? booked.length : booked.filter((b) => b.sessionId === sessionId).length;
  const reached = tiers.filter(
    (t) => (t.sessionId === null || t.sessionId === day.sessionId) && daysOf(t.sessionId) >= t.minDays,
  );
  return Math.min(ticket.price, ...reached.map((t) => t.price));
}

export function discountOn(base: number, discount: Discount): number {
  const value =
    discount.discountType === 'percent' ? share(base, Math.min(discount.amount, 100), 100) : discount.amount;
  return Math.max(0, Math.min(value, base));
}

export function surchargeOn(base: number, surcharge: Surcharge): number {
  if (base <= 0) return 0;
  return surcharge.kind === 'percent' ? share(base, surcharge.amount, 10_000) : surcharge.amount;
}

/**
 * The card surcharge on `base` with the words of its price line, the same for every kind of sale;
 * null when there is none.
 */
export function surchargeLine(
  base: number,
  surcharge: Surcharge | null | undefined,
): { amount: number; label: string; description: string } | null {
  const amount = surcharge ? surchargeOn(base, surcharge) : 0;
  if (!surcharge || amount <= 0) return null;
  const description = surcharge.kind === 'percent' ? `${surcharge.amount / 100}%` : 'Per payment';
  return { amount, label: surcharge.label, description };
}

/** A line maker whose amounts are written in the company's currency. */
const linesIn =
  (currency: string) =>
  (key: PricingKey, label: string, description: string, value: number): PricingLine => ({
    key,
    label,
    description,
    value,
    formatted: formatMoney(value, currency),
  });

const plurals: Record<string, string> = { child: 'children' };
const plural = (n: number, word: string) => `${n} ${n === 1 ? word : (plurals[word] ?? `${word}s`)}`;

export function priceEventBooking(input: EventPriceInput): PriceResult {
  const line = linesIn(input.currency);
  const unitPrices = input.booked.map((day) => unitPrice(day, input.booked, input.tickets, input.tiers));
  const subtotal = unitPrices.reduce((sum, price) => sum + price * input.quantity, 0);
  const days = input.booked.length;
  const lines: PricingLine[] = [
    line(
      'subtotal',
      'Sessions',
      `${plural(days, 'session day')} × ${plural(input.quantity, 'place')}`,
      subtotal,
    ),
  ];
  // Nothing booked (waitlist only): nothing is charged, not even the booking fee.
  const bookingFee = days > 0 ? input.bookingFee : 0;
  if (bookingFee > 0) lines.push(line('booking_fee', 'Booking fee', 'Once per booking', bookingFee));

  let insurance = 0;
  if (days > 0) {
    for (const child of input.insurance) {
      if (child.type === 'daily_insurance' && input.dailyInsurancePrice !== null)
        insurance += input.dailyInsurancePrice * days;
      if (child.type === 'full_insurance') insurance += child.fullPrices.reduce((a, b) => a + b, 0);
    }
  }
  if (insurance > 0)
    lines.push(
      line(
        'insurance',
        'Insurance',
        `${plural(input.insurance.filter((c) => c.type !== 'none').length, 'child')}`,
        insurance,
      ),
    );

  // Discounts apply to the sessions only, never to fees or insurance.
  const coupon = input.coupon ? discountOn(subtotal, input.coupon) : 0;
  if (coupon > 0) lines.push(line('coupon', couponLabel(input.coupon!), input.coupon!.code, -coupon));
  const nsw = input.nswVoucher
    ? Math.min(input.nswVoucher.valuePerChild * input.nswVoucher.children, subtotal - coupon)
    : 0;
  if (nsw > 0) lines.push(line('nsw_voucher', 'NSW voucher', input.nswVoucher!.code, -nsw));

  const beforeSurcharge = subtotal + bookingFee + insurance - coupon - nsw;
  const surcharge = surchargeLine(beforeSurcharge, input.surcharge);
  if (surcharge) lines.push(line('surcharge', surcharge.label, surcharge.description, surcharge.amount));

  const total = beforeSurcharge + (surcharge?.amount ?? 0);
  lines.push(line('total', 'Total', 'To pay now', total));
  return { lines, total, unitPrices };
}

export interface PartyPriceInput {
  basePrice: number;
  includedGuests: number;
  pricePerExtraGuest: number;
  /** Taken at booking; 0: the whole price is taken at booking. */
  deposit: number;
  guests: number;
  coupon: (Discount & { code: string; source?: 'coupon' | 'promotional' }) | null;
  /** One voucher for the birthday child. */
  nswVoucher: { code: string; value: number } | null;
  surcharge: Surcharge | null;
  /** The company's currency (ISO 4217), for the lines' formatted amounts. */
  currency: string;
}

export interface PartyPriceResult {
  lines: PricingLine[];
  /** The party's price after discounts. */
  total: number;
  /** Paid at booking (before surcharge), and left for staff to collect. */
  deposit: number;
  balance: number;
  surcharge: number;
  /** What the card is charged now: deposit plus surcharge. */
  amountDue: number;
}

/**
 * A party: the base price includes some guests, each extra guest costs more; discounts apply to
 * the party's price; the card surcharge applies to what is charged now (the deposit).
 */
export function pricePartyBooking(input: PartyPriceInput): PartyPriceResult {
  const line = linesIn(input.currency);
  const extraGuests = Math.max(0, input.guests - input.includedGuests);
  const subtotal = input.basePrice + extraGuests * input.pricePerExtraGuest;
  const lines: PricingLine[] = [
    line(
      'subtotal',
      'Party',
      extraGuests > 0
        ? `${plural(input.includedGuests, 'guest')} included + ${plural(extraGuests, 'extra guest')}`
        : `Up to ${plural(input.includedGuests, 'guest')}`,
      subtotal,
    ),
  ];
  const coupon = input.coupon ? discountOn(subtotal, input.coupon) : 0;
  if (coupon > 0) lines.push(line('coupon', couponLabel(input.coupon!), input.coupon!.code, -coupon));
  const nsw = input.nswVoucher ? Math.min(input.nswVoucher.value, subtotal - coupon) : 0;
  if (nsw > 0) lines.push(line('nsw_voucher', 'NSW voucher', input.nswVoucher!.code, -nsw));
  const total = subtotal - coupon - nsw;
  lines.push(line('total', 'Total', 'Party price', total));
  const deposit = input.deposit > 0 ? Math.min(input.deposit, total) : total;
  const balance = total - deposit;
  lines.push(
    line('deposit', 'Deposit', balance > 0 ? 'Paid now to secure the date' : 'Paid in full now', deposit),
  );
  if (balance > 0) lines.push(line('balance', 'Balance', 'Paid to the venue before the party', balance));
  const surchargeOnDeposit = surchargeLine(deposit, input.surcharge);
  if (surchargeOnDeposit)
    lines.push(
      line('surcharge', surchargeOnDeposit.label, surchargeOnDeposit.description, surchargeOnDeposit.amount),
    );
  const surcharge = surchargeOnDeposit?.amount ?? 0;
  lines.push(line('amount_due', 'To pay now', 'Charged to your card', deposit + surcharge));
  return { lines, total, deposit, balance, surcharge, amountDue: deposit + surcharge };
}

/** The summary line of the coupon field's code: a promotional code says so. */
const couponLabel = (coupon: { source?: 'coupon' | 'promotional' }) =>
  coupon.source === 'promotional' ? 'Promotional code' : 'Coupon';
