import { childrenErrors } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it } from 'vitest';
import { chargesData } from './booking-test-kit';
import {
  availableFullProducts,
  checkoutBody,
  emptyChild,
  initialChildren,
  toCheckoutChild,
} from './checkout-form';

describe('date of birth', () => {
  it('an unreadable typed date makes the contracts rule say the dob is invalid', () => {
    const row = { ...emptyChild(), first_name: 'Mia', last_name: 'Lee', dobText: '31/02/2019' };
    expect(childrenErrors([toCheckoutChild(row, false)], false)).toEqual([messages.newChildDobInvalid(1)]);
  });
});

describe('children rows', () => {
  it('start with the existing children in order, then new ones', () => {
    const kids = [7, 9].map((id) => ({ id, first_name: 'A', last_name: 'B' }));
    expect(initialChildren(3, kids).map((row) => row.choice)).toEqual(['7', '9', 'new']);
  });

  it('send insurance only when days are booked, and ids only for full insurance', () => {
    const row = { ...emptyChild('7'), insurance_type: 'daily_insurance' as const, insurance_ids: [3] };
    expect(toCheckoutChild(row, true)).toMatchObject({
      id: 7,
      insurance_type: 'daily_insurance',
      insurance_ids: [],
    });
    expect(toCheckoutChild(row, false)).toMatchObject({
      id: 7,
      insurance_type: undefined,
      insurance_ids: [],
    });
    const full = { ...row, insurance_type: 'full_insurance' as const };
    expect(toCheckoutChild(full, true).insurance_ids).toEqual([3]);
  });

  it('offer a child only the full products still available to them', () => {
    const insurances = {
      daily: null,
      full: [
        { id: 3, name: 'Season', price: 2500 },
        { id: 4, name: 'Year', price: 4000 },
      ],
      children: { '7': { insurance_ids: [4] }, '8': { insurance_ids: [] } },
    };
    expect(availableFullProducts(emptyChild('7'), insurances).map((p) => p.id)).toEqual([4]);
    expect(availableFullProducts(emptyChild('8'), insurances)).toEqual([]);
    expect(availableFullProducts(emptyChild(), insurances).map((p) => p.id)).toEqual([3, 4]);
  });
});

describe('checkoutBody', () => {
  it('takes the amounts in cents from the charges summary, discounts as positive amounts', () => {
    const pricing = chargesData(4500, {
      coupon: { label: 'Coupon WELCOME10', description: '10% off', value: -450, formatted: '-$4.50' },
      insurance: { label: 'Insurance', description: '', value: 300, formatted: '$3.00' },
      surcharge: { label: 'Card surcharge', description: '', value: 70, formatted: '$0.70' },
    });
    pricing.additional_information.coupon_code = 'WELCOME10';

    const body = checkoutBody({
      eventId: 1,
      quantity: 1,
      booked: ['1|11|2026-01-07'],
      waiting: [],
      children: [toCheckoutChild(emptyChild('7'), false)],
      pricing,
    });

    expect(body).toMatchObject({
      event_id: 1,
      booking_fee: 250,
      amount: 4500,
      surcharge: 70,
      insurance: 300,
      discount_amount: 450,
      discount_reason: 'Coupon WELCOME10',
      coupon_code: 'WELCOME10',
      nsw_coupon_code: '',
      accept_terms: true,
    });
  });
});
