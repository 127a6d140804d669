import { describe, expect, it } from 'vitest';
import { DOB_IN_FUTURE, dobLimits, dobTextError, localToday, parseDob } from './date-of-birth';

describe('date of birth', () => {
  const limits = dobLimits('2026-01-10');

  it('allows today back to 21 years ago, never the future', () => {
    expect(limits).toEqual({ min: '2005-01-10', max: '2026-01-10' });
    expect(dobLimits('2028-02-29').min).toBe('2007-02-28');
  });

  it('reads DD/MM/YYYY and refuses impossible, future or too old dates', () => {
    expect(parseDob('03/04/2019', limits)).toBe('2019-04-03');
    expect(parseDob('3/4/2019', limits)).toBe('2019-04-03');
    expect(parseDob('31/02/2019', limits)).toBeNull();
    expect(parseDob('11/01/2026', limits)).toBeNull();
    expect(parseDob('09/01/2005', limits)).toBeNull();
    expect(parseDob('2019-04-03', limits)).toBeNull();
  });

  it('says a typed future date of birth is in the future (issue 21 point 9)', () => {
    expect(dobTextError('11/01/2026', limits)).toBe(DOB_IN_FUTURE);
    expect(dobTextError('31/02/2019', limits)).toBe('Enter a past date as DD/MM/YYYY.');
    expect(dobTextError('nonsense', limits)).toBe('Enter a past date as DD/MM/YYYY.');
  });

  it("takes today from the visitor's clock", () => {
    expect(localToday(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });
});
