import { describe, expect, it } from 'vitest';
import {
  chargeableDates,
  type EnrolmentPriceInput,
  enrolmentFee,
  type PricedClass,
  priceEnrolment,
  voucherMessages,
  voucherPeriodOf,
} from './enrolment-pricing.ts';

// Ten Tuesdays; 2027-02-16 is a billing-only day (the session runs, it is not charged).
const tuesdays = [
  '2027-02-02',
  '2027-02-09',
  '2027-02-16',
  '2027-02-23',
  '2027-03-02',
  '2027-03-09',
  '2027-03-16',
  '2027-03-23',
  '2027-03-30',
  '2027-04-06',
];
const kinder: PricedClass = {
  termClassId: 1,
  termId: 10,
  name: 'Kinder Gym Tuesday 4:00pm',
  pricingModel: 'per_session',
  price: 2000,
  trialPrice: 1500,
  sessionDates: tuesdays,
  billingOnly: [{ startDate: '2027-02-16', endDate: '2027-02-16' }],
};
const ninja: PricedClass = {
  termClassId: 2,
  termId: 10,
  name: 'Ninja Kids Thursday 5:00pm',
  pricingModel: 'term',
  price: 18_000,
  trialPrice: null,
  sessionDates: tuesdays,
  billingOnly: [{ startDate: '2027-02-16', endDate: '2027-02-16' }],
};

const base = (over: Partial<EnrolmentPriceInput>): EnrolmentPriceInput => ({
  places: [],
  classes: [kinder, ninja],
  existing: [],
  siblingDiscountPercent: 0,
  multiClassDiscountPercent: 0,
  coupon: null,
  voucher: null,
  voucherUsedBy: [],
  surcharge: null,
  currency: 'AUD',
  ...over,
});
const ava = { childKey: 'id:1', childName: 'Ava' };
const ben = { childKey: 'new:0', childName: 'Ben' };
const lineValue = (lines: { key: string; value: number }[], key: string) =>
  lines.find((l) => l.key === key)?.value;

describe('class fees', () => {
  it('never charges a billing-only day', () => {
    expect(chargeableDates(kinder)).toHaveLength(9);
    expect(chargeableDates(kinder, '2027-03-01')).toEqual(tuesdays.slice(4));
  });

  it('charges a per-session class for the chargeable sessions left', () => {
    expect(enrolmentFee(kinder, '2027-02-10')).toEqual({ fee: 7 * 2000, sessions: 7 });
  });

  it('charges a term class pro rata, rounded to the cent', () => {
    // 7 of 9 chargeable sessions of $180.00 = $140.00; 1 of 9 = $20.00; 8 of 9 = $160.00
    expect(enrolmentFee(ninja, '2027-02-10').fee).toBe(14_000);
    expect(enrolmentFee(ninja, '2027-04-01').fee).toBe(2000);
    expect(enrolmentFee({ ...ninja, price: 10_000 }, '2027-02-03').fee).toBe(8889);
    expect(enrolmentFee(ninja, '2027-01-01').fee).toBe(18_000);
  });

  it('explains each line and prices a trial at the trial price (nothing when it has none)', () => {
    const price = priceEnrolment(
      base({
        places: [
          { ...ava, termClassId: 1, kind: 'enrolled', from: '2027-03-01' },
          { ...ava, termClassId: 1, kind: 'trial', from: '2027-02-02' },
          { ...ben, termClassId: 2, kind: 'trial', from: '2027-02-02' },
        ],
      }),
    );
    expect(price.lines.map((l) => [l.label, l.description, l.formatted])).toEqual([
      ['Kinder Gym Tuesday 4:00pm × 6 sessions', 'Ava', '$120.00'],
      ['Kinder Gym Tuesday 4:00pm trial', 'Ava', '$15.00'],
      ['Ninja Kids Thursday 5:00pm trial', 'Ben', '$0.00'],
      ['Total', 'To pay now', '$135.00'],
    ]);
    expect(price.total).toBe(13_500);
  });
});

describe('family discounts', () => {
  it('takes the sibling discount off the second child and the multi-class discount off the second class', () => {
    const price = priceEnrolment(
      base({
        siblingDiscountPercent: 10,
        multiClassDiscountPercent: 5,
        places: [
          { ...ava, termClassId: 1, kind: 'enrolled', from: '2027-01-01' }, // $180, first child, first class
          { ...ava, termClassId: 2, kind: 'enrolled', from: '2027-01-01' }, // $180, second class: -$9
          { ...ben, termClassId: 1, kind: 'enrolled', from: '2027-01-01' }, // $180, second child: -$18
        ],
      }),
    );
    expect(lineValue(price.lines, 'sibling_discount')).toBe(-1800);
    expect(price.lines.find((l) => l.key === 'sibling_discount')?.label).toBe('Sibling discount 10%');
    expect(lineValue(price.lines, 'multi_class_discount')).toBe(-900);
    expect(price.placeAmounts).toEqual([18_000, 17_100, 16_200]);
    expect(price.total).toBe(51_300);
  });

  it('counts the family’s existing enrolments in the term first', () => {
    const price = priceEnrolment(
      base({
        siblingDiscountPercent: 10,
        multiClassDiscountPercent: 5,
        existing: [{ childKey: 'id:1', termId: 10, termClassId: 2 }],
        places: [
          { ...ben, termClassId: 1, kind: 'enrolled', from: '2027-01-01' }, // second child
          { ...ava, termClassId: 1, kind: 'enrolled', from: '2027-01-01' }, // Ava's second class
        ],
      }),
    );
    expect(price.placeAmounts).toEqual([16_200, 17_100]);
  });

  it('gives no family discount to trials or to enrolments in another term', () => {
    const price = priceEnrolment(
      base({
        siblingDiscountPercent: 10,
        existing: [{ childKey: 'id:1', termId: 99, termClassId: 50 }],
        places: [
          { ...ava, termClassId: 1, kind: 'trial', from: '2027-02-02' },
          { ...ben, termClassId: 1, kind: 'enrolled', from: '2027-01-01' },
        ],
      }),
    );
    expect(lineValue(price.lines, 'sibling_discount')).toBeUndefined();
  });
});

describe('codes and vouchers', () => {
  it('takes a coupon off the fees after family discounts and shares it over the places', () => {
    const price = priceEnrolment(
      base({
        coupon: { code: 'TERM10', discountType: 'percent', amount: 10 },
        places: [
          { ...ava, termClassId: 1, kind: 'enrolled', from: '2027-03-01' }, // $120
          { ...ben, termClassId: 1, kind: 'trial', from: '2027-02-02' }, // $15
        ],
      }),
    );
    expect(lineValue(price.lines, 'coupon')).toBe(-1350);
    expect(price.placeAmounts).toEqual([10_800, 1350]);
    expect(price.total).toBe(12_150);
  });

  it('uses an NSW voucher against one child’s term fee, never more than that fee', () => {
    const small = priceEnrolment(
      base({
        voucher: { code: '12345678', value: 10_000 },
        places: [{ ...ava, termClassId: 1, kind: 'enrolled', from: '2027-04-01' }], // $20
      }),
    );
    expect(lineValue(small.lines, 'nsw_voucher')).toBe(-2000);
    expect(small.total).toBe(0);
    expect(small.voucherChildKey).toBe('id:1');

    const two = priceEnrolment(
      base({
        voucher: { code: '12345678', value: 5000 },
        places: [
          { ...ava, termClassId: 1, kind: 'enrolled', from: '2027-03-01' }, // $120
          { ...ben, termClassId: 2, kind: 'enrolled', from: '2027-01-01' }, // $180
        ],
      }),
    );
    // One voucher, one child: the larger fee, and only its value.
    expect(lineValue(two.lines, 'nsw_voucher')).toBe(-5000);
    expect(two.voucherChildKey).toBe('new:0');
    expect(two.total).toBe(25_000);
  });

  it('refuses a voucher for a child who used one this period, and for trials only', () => {
    const used = priceEnrolment(
      base({
        voucher: { code: '12345678', value: 5000 },
        voucherUsedBy: ['id:1'],
        places: [{ ...ava, termClassId: 1, kind: 'enrolled', from: '2027-03-01' }],
      }),
    );
    expect(used.voucherError).toBe(voucherMessages.usedThisPeriod);
    expect(lineValue(used.lines, 'nsw_voucher')).toBeUndefined();
    const trial = priceEnrolment(
      base({
        voucher: { code: '12345678', value: 5000 },
        places: [{ ...ava, termClassId: 1, kind: 'trial', from: '2027-02-02' }],
      }),
    );
    expect(trial.voucherError).toBe(voucherMessages.termEnrolmentOnly);
  });

  it('adds the card surcharge on what is charged', () => {
    const price = priceEnrolment(
      base({
        surcharge: { label: 'Card fee', kind: 'percent', amount: 150 },
        places: [{ ...ava, termClassId: 1, kind: 'enrolled', from: '2027-03-01' }],
      }),
    );
    expect(lineValue(price.lines, 'surcharge')).toBe(180);
    expect(price.total).toBe(12_180);
  });

  it('names the voucher period by calendar half-year', () => {
    expect(voucherPeriodOf('2027-06-30')).toBe('2027-H1');
    expect(voucherPeriodOf('2027-07-01')).toBe('2027-H2');
  });
});
