import { describe, expect, it } from 'vitest';
import { api } from '../api/client';
import { payloadOf, toInputValue } from './fields/form-values';
import {
  centsToDollars,
  displayValue,
  dollarsToCents,
  formatDate,
  formatLocalDate,
  formatMoney,
  parseDisplayDate,
  shortList,
} from './format';

describe('money', () => {
  it.each([
    [1250, 12.5],
    [0, 0],
    [5, 0.05],
    [100_000_000, 1_000_000],
  ])('%i cents are %d dollars to edit', (cents, dollars) => {
    expect(centsToDollars(cents)).toBe(dollars);
  });

  it('has no dollars for no cents', () => {
    expect(centsToDollars(null)).toBe('');
    expect(centsToDollars(undefined)).toBe('');
  });

  it.each([
    [12.5, 1250],
    ['12.50', 1250],
    ['$1,234.56', 123456],
    [0.29, 29],
    [0.57, 57],
    [1.005, 101],
    [19.99, 1999],
    [0, 0],
  ])('%s dollars are saved as %i cents', (dollars, cents) => {
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  it('saves an empty amount as null', () => {
    expect(dollarsToCents('')).toBeNull();
    expect(dollarsToCents(null)).toBeNull();
    expect(dollarsToCents('abc')).toBeNull();
  });

  it.each([
    [1250, '$12.50'],
    [0, '$0.00'],
    [5, '$0.05'],
    [123456, '$1,234.56'],
    [-500, '-$5.00'],
  ])('shows %i cents as %s', (cents, text) => {
    expect(formatMoney(cents)).toBe(text);
  });

  it("shows amounts in the signed-in company's currency (issue 21 point 21)", () => {
    expect(formatMoney(1250, 'EUR')).toBe('€12.50');
    api.setToken('tok');
    api.setUserMeta({ role: 'companyadmin', companyId: 7, currency: 'GBP' });
    expect(formatMoney(-500)).toBe('-£5.00');
  });

  it('round-trips a form: cents in, dollars edited, cents out', () => {
    const fields = [
      { name: 'fee', type: 'money' as const, label: 'Fee', required: false, readOnly: false, value: 4550 },
    ];
    expect(toInputValue(fields[0]!, 4550)).toBe(45.5);
    expect(payloadOf(fields, { fee: 45.5 })).toEqual({ fee: 4550 });
    expect(payloadOf(fields, { fee: '' })).toEqual({ fee: null });
  });
});

describe('dates', () => {
  it('shows YYYY-MM-DD as DD/MM/YYYY', () => {
    expect(formatDate('2025-12-24')).toBe('24/12/2025');
    expect(formatDate('2026-01-05T00:00:00.000Z')).toBe('05/01/2026');
    expect(formatDate(null)).toBe('');
  });

  it.each([
    ['24/12/2025', '2025-12-24'],
    ['1/2/2026', '2026-02-01'],
    ['01/02/26', '2026-02-01'],
    ['2026-02-01', '2026-02-01'],
    ['31/02/2025', null],
    ['12/24/2025', null],
    ['hello', null],
  ])('reads a typed %s as %s', (typed, iso) => {
    expect(parseDisplayDate(typed)).toBe(iso);
  });
});

describe('shortList (multi-select shows up to 3 names)', () => {
  it('names up to three', () => {
    expect(shortList(['Monday', 'Tuesday', 'Wednesday'])).toBe('Monday, Tuesday, Wednesday');
  });

  it('counts the rest', () => {
    expect(shortList(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])).toBe('Mon, Tue, Wed +2 more');
  });
});

describe('displayValue', () => {
  const base = { required: false, readOnly: false };
  it('shows booleans as Yes/No and references by their title', () => {
    expect(displayValue({ ...base, name: 'p', type: 'boolean', label: 'P' }, true, undefined)).toBe('Yes');
    expect(displayValue({ ...base, name: 'p', type: 'boolean', label: 'P' }, false, undefined)).toBe('No');
    expect(
      displayValue({ ...base, name: 'venue_id', type: 'reference', label: 'Venue' }, 3, {
        venue_id: 'Main gym',
      }),
    ).toBe('Main gym');
  });

  it('shows select values by their option label', () => {
    const field = {
      ...base,
      name: 'kind',
      type: 'select' as const,
      label: 'Kind',
      options: [{ value: 'daily', label: 'Daily' }],
    };
    expect(displayValue(field, 'daily', undefined)).toBe('Daily');
  });
});

describe('formatLocalDate', () => {
  it("shows a moment as the reader's own calendar day", () => {
    // Built from local parts, so the expectation holds in any test time zone.
    const lateEvening = new Date(2026, 10, 21, 23, 30);
    expect(formatLocalDate(lateEvening.toISOString())).toBe('21/11/2026');
    expect(formatLocalDate(null)).toBe('');
    expect(formatLocalDate('not a date')).toBe('not a date');
  });
});
