import { nationalHolidays, stateHolidays } from './public-holidays.ts';
import { type CalendarYear, calendarYears, type Region, regions, schoolTerms } from './school-terms.ts';

/** One school term of the built-in calendar, ready to become a company's term with its closures. */
export interface CalendarTerm {
  region: Region;
  year: CalendarYear;
  /** 1 to 4. */
  term: number;
  name: string;
  startDate: string;
  endDate: string;
  /** false: the dates are the expected pattern, not checked against the department's page. */
  confirmed: boolean;
  /** The national and the state's public holidays inside the term, by date. */
  closures: { startDate: string; endDate: string; reason: string }[];
}

export const isRegion = (value: unknown): value is Region => regions.includes(value as Region);
export const isCalendarYear = (value: unknown): value is CalendarYear =>
  calendarYears.includes(value as CalendarYear);

/** Term `term` (1–4) of `year` in `region`; the name is what staff see ("Term 1 2027"). */
export function calendarTerm(region: Region, year: CalendarYear, term: number): CalendarTerm {
  const dates = schoolTerms[region][year].terms[term - 1];
  if (!dates) throw new Error(`no term ${term} in the calendar`);
  const holidays = [...nationalHolidays[year], ...stateHolidays[region][year]]
    .filter((h) => h.date >= dates.start && h.date <= dates.end)
    .sort((a, b) => a.date.localeCompare(b.date));
  return {
    region,
    year,
    term,
    name: `Term ${term} ${year}`,
    startDate: dates.start,
    endDate: dates.end,
    confirmed: schoolTerms[region][year].confirmed,
    closures: holidays.map((h) => ({ startDate: h.date, endDate: h.date, reason: h.name })),
  };
}

/** Every term the calendar offers: each region, year and term. */
export function calendarTerms(): CalendarTerm[] {
  return regions.flatMap((region) =>
    calendarYears.flatMap((year) => [1, 2, 3, 4].map((term) => calendarTerm(region, year, term))),
  );
}
