import { describe, expect, it } from 'vitest';
import { type CheckoutChild, childrenErrors } from './booking.ts';
import { messages } from './messages.ts';
import { partyStudentError } from './party.ts';

const newChild = (dob: string): CheckoutChild => ({
  id: undefined,
  first_name: 'Mia',
  last_name: 'Lee',
  dob,
  consent: 0,
  insurance_type: 'daily_insurance',
  insurance_ids: [],
});
const existing = (id: number, insurance_type?: CheckoutChild['insurance_type']): CheckoutChild => ({
  id,
  first_name: '',
  last_name: '',
  dob: '',
  consent: 0,
  insurance_type,
  insurance_ids: [],
});

describe('childrenErrors', () => {
  it('refuses a new child born in the future or on a day that does not exist (issue 21 point 9)', () => {
    expect(childrenErrors([newChild('2999-01-01')], true)).toEqual([messages.newChildDobInvalid(1)]);
    expect(childrenErrors([newChild('2019-02-30')], true)).toEqual([messages.newChildDobInvalid(1)]);
    expect(childrenErrors([newChild('2019-02-28')], true)).toEqual([]);
  });

  it('asks no insurance when the company offers none (issue 21 point 6)', () => {
    expect(childrenErrors([existing(7)], true)).toEqual([messages.selectInsurance]);
    expect(childrenErrors([existing(7)], true, { insuranceOffered: false })).toEqual([]);
  });

  it('books a child who holds every full-cover product where no daily product is offered', () => {
    expect(childrenErrors([existing(7)], true, { fullyCovered: [7] })).toEqual([]);
    // Another child still has to choose.
    expect(childrenErrors([existing(7), existing(8)], true, { fullyCovered: [7] })).toEqual([
      messages.selectInsurance,
    ]);
  });
});

describe('partyStudentError', () => {
  it('refuses a birthday child born in the future with a clear message (issue 21 point 9)', () => {
    expect(partyStudentError({ first_name: 'Mia', last_name: 'Lee', dob: '2999-01-01' })).toBe(
      'The date of birth cannot be in the future.',
    );
    expect(partyStudentError({ first_name: 'Mia', last_name: 'Lee', dob: '2019-05-04' })).toBeNull();
  });
});
