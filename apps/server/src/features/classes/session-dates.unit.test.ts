import { describe, expect, it } from 'vitest';
import { zonedInstant } from '../../platform/time.ts';
import { overlaps, restrictedOn, sessionDates, slotText } from './session-dates.ts';

describe('session dates', () => {
  // Term 2 2027, NSW: Tuesday 20 April to Friday 25 June.
  const term = { startDate: '2027-04-20', endDate: '2027-06-25' };

  it.each([
    // weekday, first, last, count
    [2, '2027-04-20', '2027-06-22', 10],
    [1, '2027-04-26', '2027-06-21', 9],
    [5, '2027-04-23', '2027-06-25', 10],
    [7, '2027-04-25', '2027-06-20', 9],
  ])('ISO weekday %i meets from %s to %s (%i sessions)', (weekday, first, last, count) => {
    const dates = sessionDates(term, weekday);
    expect(dates[0]).toBe(first);
    expect(dates.at(-1)).toBe(last);
    expect(dates).toHaveLength(count);
    expect(new Set(dates.map((d) => new Date(`${d}T00:00:00Z`).getUTCDay() || 7))).toEqual(
      new Set([weekday]),
    );
  });

  it('skips facility closures (a day or a range) but keeps billing-only days', () => {
    const dates = sessionDates(term, 1, [
      { startDate: '2027-04-26', endDate: '2027-04-26', kind: 'closed' }, // Anzac Day observed
      { startDate: '2027-05-10', endDate: '2027-05-18', kind: 'closed' },
      { startDate: '2027-06-14', endDate: '2027-06-14', kind: 'billing_only' }, // King's Birthday
    ]);
    expect(dates).not.toContain('2027-04-26');
    expect(dates).not.toContain('2027-05-10');
    expect(dates).not.toContain('2027-05-17');
    expect(dates).toContain('2027-05-03');
    expect(dates).toContain('2027-05-24');
    expect(dates).toContain('2027-06-14');
    expect(dates).toHaveLength(6);
  });

  it('skips restricted dates, a yearly one in any year', () => {
    const restricted = [
      { date: '2027-05-04', recurringYearly: false },
      { date: '2019-06-01', recurringYearly: true },
      { date: '2026-05-11', recurringYearly: false },
    ];
    expect(restrictedOn('2027-06-01', restricted)).toBe(true);
    expect(restrictedOn('2027-05-11', restricted)).toBe(false);
    const dates = sessionDates(term, 2, [], restricted);
    expect(dates).not.toContain('2027-05-04');
    expect(dates).not.toContain('2027-06-01');
    expect(dates).toContain('2027-05-11');
    expect(dates).toHaveLength(8);
  });

  it('gives nothing for an impossible term or weekday, and one date for a one-day term', () => {
    expect(sessionDates({ startDate: '2027-06-25', endDate: '2027-04-20' }, 2)).toEqual([]);
    expect(sessionDates(term, 0)).toEqual([]);
    expect(sessionDates(term, 8)).toEqual([]);
    expect(sessionDates({ startDate: '2027-04-20', endDate: '2027-04-20' }, 2)).toEqual(['2027-04-20']);
    expect(sessionDates({ startDate: '2027-04-20', endDate: '2027-04-20' }, 3)).toEqual([]);
  });

  it('keeps the wall-clock time across the April and October daylight-saving changes in Sydney', () => {
    // Daylight time ends on Sunday 4 April 2027 and starts on Sunday 3 October 2027.
    const april = sessionDates({ startDate: '2027-03-29', endDate: '2027-04-12' }, 1);
    expect(april).toEqual(['2027-03-29', '2027-04-05', '2027-04-12']);
    expect(april.map((d) => zonedInstant(d, '16:00', 'Australia/Sydney').toISOString())).toEqual([
      '2027-03-29T05:00:00.000Z',
      '2027-04-05T06:00:00.000Z',
      '2027-04-12T06:00:00.000Z',
    ]);
    const october = sessionDates({ startDate: '2027-09-27', endDate: '2027-10-04' }, 1);
    expect(october.map((d) => zonedInstant(d, '16:00', 'Australia/Sydney').toISOString())).toEqual([
      '2027-09-27T06:00:00.000Z',
      '2027-10-04T05:00:00.000Z',
    ]);
  });

  it.each([
    ['16:00', 60, '16:30', 45, true],
    ['16:00', 60, '17:00', 45, false],
    ['16:00', 60, '15:00', 60, false],
    ['16:00', 60, '15:30', 31, true],
    ['09:00', 30, '09:00', 30, true],
  ])('%s for %i min and %s for %i min overlap: %s', (aTime, aMin, bTime, bMin, expected) => {
    const a = { date: '2027-05-04', startTime: aTime, durationMinutes: aMin };
    const b = { date: '2027-05-04', startTime: `${bTime}:00`, durationMinutes: bMin };
    expect(overlaps(a, b)).toBe(expected);
    expect(overlaps(b, a)).toBe(expected);
    expect(overlaps(a, { ...b, date: '2027-05-05' })).toBe(false);
  });

  it('names a slot as DD/MM/YYYY and its times', () => {
    expect(slotText({ date: '2027-05-04', startTime: '16:00:00', durationMinutes: 45 })).toBe(
      '04/05/2027 16:00–16:45',
    );
  });
});
