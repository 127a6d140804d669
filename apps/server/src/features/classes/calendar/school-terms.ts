/**
 * The school terms of every Australian state and territory's government schools, 2026 and 2027,
 * as the days students attend (a state-wide first day for staff only is left out). Each region's
 * source is named above its data; `confirmed` says whether the dates were checked against that
 * source (or a school quoting it) when this file was written. Unconfirmed years are the
 * department's expected pattern and must be checked before they are relied on: staff can edit a
 * term made from them, and the preview says so.
 */

export const regions = ['NSW', 'VIC', 'QLD', 'SA', 'WA', 'TAS', 'ACT', 'NT'] as const;
export type Region = (typeof regions)[number];

export const regionNames: Record<Region, string> = {
  NSW: 'New South Wales',
  VIC: 'Victoria',
  QLD: 'Queensland',
  SA: 'South Australia',
  WA: 'Western Australia',
  TAS: 'Tasmania',
  ACT: 'Australian Capital Territory',
  NT: 'Northern Territory',
};

export const calendarYears = [2026, 2027] as const;
export type CalendarYear = (typeof calendarYears)[number];

/** One term: first and last day, YYYY-MM-DD. */
export interface TermDates {
  start: string;
  end: string;
}

export interface SchoolYear {
  /** Term 1 to Term 4, in order. */
  terms: readonly [TermDates, TermDates, TermDates, TermDates];
  confirmed: boolean;
}

export const schoolTerms: Record<Region, Record<CalendarYear, SchoolYear>> = {
  // Source: NSW Department of Education, https://education.nsw.gov.au/schooling/calendars/future-and-past-nsw-term-and-vacation-dates
  // (Eastern division; the Western division's Term 1 starts a week later).
  // 2026: Term 1's start follows from the department's 2025–26 summer vacation (Eastern division
  // ends Monday 26 January 2026); the other 2026 dates and all of 2027 could not be confirmed here.
  NSW: {
    2026: {
      terms: [
        { start: '2026-01-27', end: '2026-04-02' },
        { start: '2026-04-20', end: '2026-07-03' },
        { start: '2026-07-20', end: '2026-09-25' },
        { start: '2026-10-12', end: '2026-12-17' },
      ],
      confirmed: false,
    },
    2027: {
      terms: [
        { start: '2027-01-28', end: '2027-04-09' },
        { start: '2027-04-26', end: '2027-07-02' },
        { start: '2027-07-19', end: '2027-09-24' },
        { start: '2027-10-11', end: '2027-12-17' },
      ],
      confirmed: false,
    },
  },
  // Source: Victorian Department of Education, https://www.vic.gov.au/school-term-dates-and-holidays-victoria
  // (2026 and 2027 read there). Term 1 starts with a student-free day; students start a day later.
  VIC: {
    2026: {
      terms: [
        { start: '2026-01-27', end: '2026-04-02' },
        { start: '2026-04-20', end: '2026-06-26' },
        { start: '2026-07-13', end: '2026-09-18' },
        { start: '2026-10-05', end: '2026-12-18' },
      ],
      confirmed: true,
    },
    2027: {
      terms: [
        { start: '2027-01-27', end: '2027-03-25' },
        { start: '2027-04-12', end: '2027-06-25' },
        { start: '2027-07-12', end: '2027-09-17' },
        { start: '2027-10-04', end: '2027-12-17' },
      ],
      confirmed: true,
    },
  },
  // Source: Queensland Department of Education, https://education.qld.gov.au/about-us/calendar/term-dates
  // (2026 read there) and https://education.qld.gov.au/about-us/calendar/future-dates (2027, not confirmed).
  QLD: {
    2026: {
      terms: [
        { start: '2026-01-27', end: '2026-04-02' },
        { start: '2026-04-20', end: '2026-06-26' },
        { start: '2026-07-13', end: '2026-09-18' },
        { start: '2026-10-06', end: '2026-12-11' },
      ],
      confirmed: true,
    },
    2027: {
      terms: [
        { start: '2027-01-27', end: '2027-03-25' },
        { start: '2027-04-12', end: '2027-06-18' },
        { start: '2027-07-05', end: '2027-09-10' },
        { start: '2027-09-27', end: '2027-12-03' },
      ],
      confirmed: false,
    },
  },
  // Source: SA Department for Education, https://www.education.sa.gov.au/parents-and-families/term-dates-south-australian-state-schools
  // Neither year could be confirmed here.
  SA: {
    2026: {
      terms: [
        { start: '2026-01-27', end: '2026-04-10' },
        { start: '2026-04-27', end: '2026-07-03' },
        { start: '2026-07-20', end: '2026-09-25' },
        { start: '2026-10-12', end: '2026-12-11' },
      ],
      confirmed: false,
    },
    2027: {
      terms: [
        { start: '2027-01-27', end: '2027-04-09' },
        { start: '2027-04-26', end: '2027-07-02' },
        { start: '2027-07-19', end: '2027-09-24' },
        { start: '2027-10-11', end: '2027-12-10' },
      ],
      confirmed: false,
    },
  },
  // Source: WA Department of Education, https://www.education.wa.edu.au/future-term-dates
  // 2026 as quoted by WA public schools from the department (Term 4 from the Monday, a
  // development day at some schools); 2027 could not be confirmed here.
  WA: {
    2026: {
      terms: [
        { start: '2026-02-02', end: '2026-04-02' },
        { start: '2026-04-20', end: '2026-07-03' },
        { start: '2026-07-20', end: '2026-09-25' },
        { start: '2026-10-12', end: '2026-12-17' },
      ],
      confirmed: true,
    },
    2027: {
      terms: [
        { start: '2027-02-01', end: '2027-04-01' },
        { start: '2027-04-19', end: '2027-07-02' },
        { start: '2027-07-19', end: '2027-09-24' },
        { start: '2027-10-11', end: '2027-12-16' },
      ],
      confirmed: false,
    },
  },
  // Source: Tasmanian Department for Education, Children and Young People,
  // https://www.decyp.tas.gov.au/about-us/term-dates-2024 (2026 and 2027 read there).
  TAS: {
    2026: {
      terms: [
        { start: '2026-02-05', end: '2026-04-17' },
        { start: '2026-05-04', end: '2026-07-10' },
        { start: '2026-07-27', end: '2026-10-02' },
        { start: '2026-10-19', end: '2026-12-18' },
      ],
      confirmed: true,
    },
    2027: {
      terms: [
        { start: '2027-02-04', end: '2027-04-09' },
        { start: '2027-04-26', end: '2027-07-02' },
        { start: '2027-07-19', end: '2027-09-24' },
        { start: '2027-10-11', end: '2027-12-16' },
      ],
      confirmed: true,
    },
  },
  // Source: ACT Education Directorate, https://www.act.gov.au/education-and-training/school-term-dates
  // 2026 as published by guides quoting the directorate (new students start 30 January; each later
  // term starts the day after a student-free Monday); 2027 could not be confirmed here.
  ACT: {
    2026: {
      terms: [
        { start: '2026-01-30', end: '2026-04-02' },
        { start: '2026-04-21', end: '2026-07-03' },
        { start: '2026-07-21', end: '2026-09-25' },
        { start: '2026-10-13', end: '2026-12-18' },
      ],
      confirmed: true,
    },
    2027: {
      terms: [
        { start: '2027-01-29', end: '2027-04-09' },
        { start: '2027-04-27', end: '2027-07-02' },
        { start: '2027-07-20', end: '2027-09-24' },
        { start: '2027-10-12', end: '2027-12-17' },
      ],
      confirmed: false,
    },
  },
  // Source: NT Department of Education, https://nt.gov.au/learning/primary-and-secondary-students/school-term-dates-in-nt
  // 2026 from a guide quoting the department, not the department's page; 2027 not confirmed.
  NT: {
    2026: {
      terms: [
        { start: '2026-01-29', end: '2026-04-02' },
        { start: '2026-04-14', end: '2026-06-19' },
        { start: '2026-07-14', end: '2026-09-18' },
        { start: '2026-10-06', end: '2026-12-10' },
      ],
      confirmed: false,
    },
    2027: {
      terms: [
        { start: '2027-01-28', end: '2027-04-01' },
        { start: '2027-04-13', end: '2027-06-18' },
        { start: '2027-07-13', end: '2027-09-17' },
        { start: '2027-10-05', end: '2027-12-09' },
      ],
      confirmed: false,
    },
  },
};
