import { describe, expect, it } from 'vitest';
import { ageOn } from './children.service.ts';

describe('ageOn: a child age in years and months on a day', () => {
  it.each([
    ['2020-05-10', '2026-05-10', 6, 0],
    ['2020-05-10', '2026-05-09', 5, 11],
    ['2020-05-10', '2026-06-09', 6, 0],
    ['2020-05-10', '2026-06-10', 6, 1],
    // Born on the 31st: a month is complete on the last day of a shorter month.
    ['2020-01-31', '2026-02-28', 6, 1],
    ['2020-01-31', '2026-02-27', 6, 0],
    ['2020-02-29', '2026-02-28', 6, 0],
    ['2025-12-01', '2026-01-01', 0, 1],
    // A date before the birth reads as a newborn, never a negative age.
    ['2026-03-01', '2026-01-01', 0, 0],
  ])('born %s, on %s: %i years %i months', (dob, date, years, months) => {
    expect(ageOn(dob, date)).toEqual({ years, months });
  });
});
