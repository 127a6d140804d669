import { describe, expect, it } from 'vitest';
import { formatMoney, share } from '../../platform/money.ts';
import {
  discountOn,
  type EventPriceInput,
  MissingPriceError,
  priceEventBooking,
  pricePartyBooking,
  surchargeOn,
  unitPrice,
} from './pricing.ts';

const base: EventPriceInput = {
  booked: [
    { sessionId: 1, date: '2030-01-06' },
    { sessionId: 1, date: '2030-01-07' },
  ],
  quantity: 1,
  tickets: [{ sessionId: 1, price: 4500 }],
  tiers: [],
  bookingFee: 0,
  dailyInsurancePrice: 300,
  insurance: [],
  coupon: null,
  nswVoucher: null,
  surcharge: null,
  currency: 'AUD',
};
const values = (input: Partial<EventPriceInput>) =>
  Object.fromEntries(priceEventBooking({ ...base, ...input }).lines.map((l) => [l.key, l.value]));

describe('money', () => {
  it.each([
    [0, '$0.00'],
    [5, '$0.05'],
    [12345, '$123.45'],
    [123456789, '$1,234,567.89'],
    [-250, '-$2.50'],
  ])('formats %i as %s', (cents, text) => expect(formatMoney(cents, 'AUD')).toBe(text));

  it("writes each company's currency (issue 21 point 21)", () => {
    expect(formatMoney(4500, 'USD')).toBe('$45.00');
    expect(formatMoney(4500, 'EUR')).toBe('€45.00');
    expect(formatMoney(-250, 'GBP')).toBe('-£2.50');
    expect(formatMoney(123456, 'NZD')).toBe('$1,234.56');
  });

  it('formats the price lines in the currency given', () => {
    const lines = priceEventBooking({ ...base, currency: 'EUR' }).lines;
    expect(lines.find((l) => l.key === 'total')?.formatted).toBe('€90.00');
    const party = pricePartyBooking({
      basePrice: 10000,
      includedGuests: 10,
      pricePerExtraGuest: 0,
      deposit: 0,
      guests: 10,
      coupon: null,
      nswVoucher: null,
      surcharge: null,
      currency: 'GBP',
    });
    expect(party.lines.find((l) => l.key === 'total')?.formatted).toBe('£100.00');
  });

  it('rounds shares half up', () => {
    expect(share(1005, 10, 100)).toBe(101); // 100.5 → 101
    expect(share(1004, 10, 100)).toBe(100); // 100.4 → 100
    expect(share(9999, 150, 10_000)).toBe(150); // 149.985 → 150
  });
});

describe('unitPrice', () => {
  const days = (n: number, sessionId = 1) =>
    Array.from({ length: n }, (_, i) => ({ sessionId, date: `2030-01-${String(i + 1).padStart(2, '0')}` }));

  it('uses the session ticket, else the event-wide ticket', () => {
    const tickets = [
      { sessionId: null, price: 5000 },
      { sessionId: 2, price: 7000 },
    ];
    expect(unitPrice({ sessionId: 2, date: 'x' }, [], tickets, [])).toBe(7000);
    expect(unitPrice({ sessionId: 3, date: 'x' }, [], tickets, [])).toBe(5000);
  });

  it('refuses a session without any price', () => {
    expect(() => unitPrice({ sessionId: 9, date: 'x' }, [], [{ sessionId: 1, price: 1 }], [])).toThrow(
      MissingPriceError,
    );
  });

  it('lowers the price from a tier’s number of days on, never raises it', () => {
    const tickets = [{ sessionId: 1, price: 7500 }];
    const tiers = [
      { sessionId: 1, minDays: 5, price: 6500 },
      { sessionId: 1, minDays: 10, price: 6000 },
      { sessionId: null, minDays: 2, price: 9000 },
    ];
    expect(unitPrice({ sessionId: 1, date: 'x' }, days(4), tickets, tiers)).toBe(7500);
    expect(unitPrice({ sessionId: 1, date: 'x' }, days(5), tickets, tiers)).toBe(6500);
    expect(unitPrice({ sessionId: 1, date: 'x' }, days(10), tickets, tiers)).toBe(6000);
  });

  it('counts only its own session’s days for a session tier', () => {
    const tiers = [{ sessionId: 1, minDays: 3, price: 4000 }];
    const booked = [...days(2, 1), ...days(3, 2)];
    expect(unitPrice({ sessionId: 1, date: 'x' }, booked, base.tickets, tiers)).toBe(4500);
  });
});

describe('priceEventBooking', () => {
  it('charges every booked session-day per place', () => {
    expect(values({ quantity: 2 })).toEqual({ subtotal: 18000, total: 18000 });
  });

  it('adds the booking fee once, and none when nothing is booked (waitlist only)', () => {
    expect(values({ bookingFee: 250 })).toEqual({ subtotal: 9000, booking_fee: 250, total: 9250 });
    expect(values({ booked: [], bookingFee: 250 })).toEqual({ subtotal: 0, total: 0 });
  });

  it('prices daily insurance per booked day per child, and full insurance by product', () => {
    const insurance = [
      { type: 'daily_insurance' as const, fullPrices: [] },
      { type: 'full_insurance' as const, fullPrices: [2500, 1000] },
      { type: 'none' as const, fullPrices: [] },
    ];
    expect(values({ quantity: 3, insurance })).toMatchObject({ insurance: 300 * 2 + 3500 });
  });

  it('applies a percent coupon to the sessions only, rounded to the cent', () => {
    const result = values({
      bookingFee: 250,
      coupon: { code: 'TEN', discountType: 'percent', amount: 10 },
      tickets: [{ sessionId: 1, price: 4555 }],
    });
    expect(result).toEqual({ subtotal: 9110, booking_fee: 250, coupon: -911, total: 8449 });
  });

  it('caps a fixed coupon and a voucher at the sessions’ price', () => {
    expect(discountOn(3000, { discountType: 'fixed', amount: 5000 })).toBe(3000);
    expect(values({ nswVoucher: { code: '12345678', valuePerChild: 5000, children: 2 } })).toEqual({
      subtotal: 9000,
      nsw_voucher: -9000,
      total: 0,
    });
  });

  it('adds a percent surcharge on what is paid, after discounts', () => {
    const surcharge = { label: 'Card surcharge', kind: 'percent' as const, amount: 150 };
    expect(values({ surcharge, coupon: { code: 'X', discountType: 'fixed', amount: 1000 } })).toEqual({
      subtotal: 9000,
      coupon: -1000,
      surcharge: 120,
      total: 8120,
    });
    expect(surchargeOn(0, surcharge)).toBe(0);
  });

  it('describes each line with its formatted amount', () => {
    const result = priceEventBooking({ ...base, bookingFee: 250 });
    expect(result.lines.map((l) => [l.key, l.label, l.formatted])).toEqual([
      ['subtotal', 'Sessions', '$90.00'],
      ['booking_fee', 'Booking fee', '$2.50'],
      ['total', 'Total', '$92.50'],
    ]);
    expect(result.unitPrices).toEqual([4500, 4500]);
  });
});

describe('pricePartyBooking', () => {
  const party = {
    basePrice: 39500,
    includedGuests: 10,
    pricePerExtraGuest: 2500,
    deposit: 10000,
    guests: 12,
    coupon: null,
    nswVoucher: null,
    surcharge: null,
    currency: 'AUD',
  };
  const keyed = (input: Partial<typeof party> & Record<string, unknown>) =>
    Object.fromEntries(pricePartyBooking({ ...party, ...input }).lines.map((l) => [l.key, l.value]));

  it('adds extra guests beyond those included and takes the deposit now', () => {
    expect(keyed({})).toEqual({
      subtotal: 44500,
      total: 44500,
      deposit: 10000,
      balance: 34500,
      amount_due: 10000,
    });
    expect(keyed({ guests: 8 })).toMatchObject({ subtotal: 39500 });
  });

  it('takes the whole price when there is no deposit, or when the deposit is more than the price', () => {
    expect(keyed({ deposit: 0 })).toEqual({
      subtotal: 44500,
      total: 44500,
      deposit: 44500,
      amount_due: 44500,
    });
    expect(keyed({ deposit: 90000 })).toMatchObject({ deposit: 44500, amount_due: 44500 });
  });

  it('discounts the party price and surcharges only what is charged now', () => {
    const result = pricePartyBooking({
      ...party,
      coupon: { code: 'TEN', discountType: 'percent', amount: 10 },
      surcharge: { label: 'Card surcharge', kind: 'percent', amount: 150 },
    });
    expect(result).toMatchObject({
      total: 40050,
      deposit: 10000,
      balance: 30050,
      surcharge: 150,
      amountDue: 10150,
    });
  });
});
