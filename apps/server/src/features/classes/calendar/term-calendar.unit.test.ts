import { describe, expect, it } from 'vitest';
import { nationalHolidays, stateHolidays } from './public-holidays.ts';
import { calendarYears, regions, schoolTerms } from './school-terms.ts';
import { calendarTerm } from './term-calendar.ts';

const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
const realDate = (date: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(date) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);

describe('the built-in school calendar', () => {
  it('gives every state and territory four terms a year, in order, not overlapping, on school days', () => {
    for (const region of regions)
      for (const year of calendarYears) {
        const { terms } = schoolTerms[region][year];
        expect(terms, `${region} ${year}`).toHaveLength(4);
        let previousEnd = `${year - 1}-12-31`;
        for (const [i, term] of terms.entries()) {
          const label = `${region} ${year} term ${i + 1}`;
          expect(realDate(term.start) && realDate(term.end), label).toBe(true);
          expect(term.start.startsWith(String(year)) && term.end.startsWith(String(year)), label).toBe(true);
          expect(term.start > previousEnd, `${label} starts after the previous term ends`).toBe(true);
          expect(term.end >= term.start, label).toBe(true);
          // Terms start and end on a weekday: a Saturday or Sunday means a typing mistake.
          expect([0, 6], `${label} starts ${term.start}`).not.toContain(weekday(term.start));
          expect([0, 6], `${label} ends ${term.end}`).not.toContain(weekday(term.end));
          previousEnd = term.end;
        }
      }
  });

  it('keeps each year’s holidays inside that year, as real dates, without repeating a day', () => {
    for (const year of calendarYears) {
      const lists = [nationalHolidays[year], ...regions.map((r) => stateHolidays[r][year])];
      for (const list of lists) {
        for (const h of list) {
          expect(realDate(h.date), h.date).toBe(true);
          expect(h.date.startsWith(String(year)), `${h.name} ${h.date}`).toBe(true);
          expect(h.name.length).toBeGreaterThan(0);
        }
      }
      for (const region of regions) {
        const days = [...nationalHolidays[year], ...stateHolidays[region][year]].map((h) => h.date);
        expect(new Set(days).size, `${region} ${year}`).toBe(days.length);
      }
    }
  });

  it('has Good Friday and Easter Monday 2027 (26 and 29 March) as national holidays', () => {
    expect(nationalHolidays[2027]).toEqual(
      expect.arrayContaining([
        { date: '2027-03-26', name: 'Good Friday' },
        { date: '2027-03-29', name: 'Easter Monday' },
      ]),
    );
  });

  it('fills NSW Term 1 2027 with its dates and its public holidays as closures', () => {
    const term = calendarTerm('NSW', 2027, 1);
    expect(term).toMatchObject({ name: 'Term 1 2027', region: 'NSW' });
    expect(term.closures.map((c) => c.reason)).toEqual([
      'Good Friday',
      'Easter Saturday',
      'Easter Sunday',
      'Easter Monday',
    ]);
    expect(term.closures[0]).toEqual({
      startDate: '2027-03-26',
      endDate: '2027-03-26',
      reason: 'Good Friday',
    });
    for (const c of term.closures)
      expect(c.startDate >= term.startDate && c.endDate <= term.endDate).toBe(true);
  });

  it('takes only the state’s own holidays: Canberra Day closes an ACT term, not a NSW one', () => {
    expect(calendarTerm('ACT', 2026, 1).closures.map((c) => c.reason)).toContain('Canberra Day');
    expect(calendarTerm('NSW', 2026, 1).closures.map((c) => c.reason)).not.toContain('Canberra Day');
  });
});
