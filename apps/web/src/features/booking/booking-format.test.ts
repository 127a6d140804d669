import { describe, expect, it } from 'vitest';
import {
  ageRangeText,
  calendarWeeks,
  formatDate,
  formatMoney,
  formatTimeRange,
  venueMapLink,
  weekdayIndex,
} from './booking-format';

describe('ageRangeText (SPEC.md point 5)', () => {
  it.each([
    [0, 100, null],
    [0, 150, null],
    [5, 12, 'Ages 5–12'],
    [7, 100, 'Ages 7+'],
    [0, 12, 'Ages up to 12'],
    [1, 99, 'Ages 1–99'],
  ])('age_start %i, age_end %i → %s', (start, end, expected) => {
    expect(ageRangeText(start, end)).toBe(expected);
  });
});

describe('calendarWeeks', () => {
  it('covers the dates with whole weeks that start on Monday and end on Sunday', () => {
    // Wednesday 7 January to Tuesday 20 January 2026.
    const weeks = calendarWeeks(['2026-01-07', '2026-01-20']);

    expect(weeks.map((week) => week[0])).toEqual(['2026-01-05', '2026-01-12', '2026-01-19']);
    for (const week of weeks) {
      expect(week).toHaveLength(7);
      expect(weekdayIndex(week[0]!)).toBe(0);
      expect(new Date(`${week[0]}T00:00:00Z`).getUTCDay()).toBe(1);
      expect(new Date(`${week[6]}T00:00:00Z`).getUTCDay()).toBe(0);
    }
    expect(weeks.at(-1)?.[6]).toBe('2026-01-25');
  });

  it('starts a Monday event on that Monday and a Sunday event six days before', () => {
    expect(calendarWeeks(['2026-01-05'])[0]?.[0]).toBe('2026-01-05');
    expect(calendarWeeks(['2026-01-11'])).toEqual([
      ['2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09', '2026-01-10', '2026-01-11'],
    ]);
  });

  it('spans a month and year boundary and ignores invalid dates', () => {
    const weeks = calendarWeeks(['2025-12-31', 'nonsense', '2026-01-02']);
    expect(weeks).toHaveLength(1);
    expect(weeks[0]?.[0]).toBe('2025-12-29');
    expect(calendarWeeks([])).toEqual([]);
  });
});

describe('display helpers', () => {
  it('shows dates as DD/MM/YYYY', () => {
    expect(formatDate('2026-01-07')).toBe('07/01/2026');
  });

  it('builds the map link from venue name, address, suburb, postcode and Australia', () => {
    expect(
      venueMapLink({
        name: 'Bounce Centre',
        address: '12 Church St',
        suburb: 'Parramatta',
        postcode: '2150',
      }),
    ).toBe(
      `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent('Bounce Centre, 12 Church St, Parramatta, 2150, Australia')}`,
    );
    expect(venueMapLink({ name: 'Hall & Co', address: null, suburb: null, postcode: null })).toBe(
      'https://www.google.com/maps/search/?api=1&query=Hall%20%26%20Co%2C%20Australia',
    );
  });

  it('formats cents with two decimals and times as am/pm', () => {
    expect(formatMoney(4500)).toBe('$45.00');
    expect(formatMoney(7)).toBe('$0.07');
    expect(formatTimeRange('09:00', '15:30')).toBe('9:00am–3:30pm');
    expect(formatTimeRange('00:15', '12:00')).toBe('12:15am–12:00pm');
  });
});
