import type { CalendarYear, Region } from './school-terms.ts';

/**
 * Public holidays, 2026 and 2027: the national ones (every state and territory) and each state's
 * own. Weekend days are kept (Easter Saturday) because a weekend class closes too. Part-day
 * holidays (Christmas Eve and New Year's Eve evenings), regional ones (Hobart Regatta, Royal Hobart
 * Show, show days outside Brisbane) and bank holidays are left out: they do not close a venue
 * state-wide. Victoria's Friday before the AFL Grand Final is left out too: the government sets it
 * each year once the AFL fixes the Grand Final.
 *
 * 2026 national holidays and the 2026 holidays of NSW, QLD, WA and the ACT were checked against
 * state government pages or lists quoting them; the 2027 dates follow each state's rule in its
 * public holidays act (e.g. King's Birthday: second Monday in June) and were not confirmed here.
 */
export interface Holiday {
  date: string;
  name: string;
}

// Source: Australian Government, https://www.australia.gov.au/public-holidays
// A holiday on a weekend gets an additional weekday where every state gives one (Boxing Day 2026,
// Christmas and Boxing Day 2027; South Australia calls its 26 December holiday Proclamation Day).
export const nationalHolidays: Record<CalendarYear, readonly Holiday[]> = {
  2026: [
    { date: '2026-01-01', name: 'New Year’s Day' },
    { date: '2026-01-26', name: 'Australia Day' },
    { date: '2026-04-03', name: 'Good Friday' },
    { date: '2026-04-06', name: 'Easter Monday' },
    { date: '2026-04-25', name: 'Anzac Day' },
    { date: '2026-12-25', name: 'Christmas Day' },
    { date: '2026-12-26', name: 'Boxing Day' },
    { date: '2026-12-28', name: 'Boxing Day (additional day)' },
  ],
  2027: [
    { date: '2027-01-01', name: 'New Year’s Day' },
    { date: '2027-01-26', name: 'Australia Day' },
    { date: '2027-03-26', name: 'Good Friday' },
    { date: '2027-03-29', name: 'Easter Monday' },
    { date: '2027-04-25', name: 'Anzac Day' },
    { date: '2027-12-25', name: 'Christmas Day' },
    { date: '2027-12-26', name: 'Boxing Day' },
    { date: '2027-12-27', name: 'Christmas Day (additional day)' },
    { date: '2027-12-28', name: 'Boxing Day (additional day)' },
  ],
};

export const stateHolidays: Record<Region, Record<CalendarYear, readonly Holiday[]>> = {
  // Source: NSW Government, https://www.nsw.gov.au/about-nsw/public-holidays
  NSW: {
    2026: [
      { date: '2026-04-04', name: 'Easter Saturday' },
      { date: '2026-04-05', name: 'Easter Sunday' },
      { date: '2026-06-08', name: 'King’s Birthday' },
      { date: '2026-10-05', name: 'Labour Day' },
    ],
    2027: [
      { date: '2027-03-27', name: 'Easter Saturday' },
      { date: '2027-03-28', name: 'Easter Sunday' },
      { date: '2027-06-14', name: 'King’s Birthday' },
      { date: '2027-10-04', name: 'Labour Day' },
    ],
  },
  // Source: Business Victoria, https://business.vic.gov.au/business-information/public-holidays/victorian-public-holidays-2026
  VIC: {
    2026: [
      { date: '2026-03-09', name: 'Labour Day' },
      { date: '2026-04-04', name: 'Easter Saturday' },
      { date: '2026-04-05', name: 'Easter Sunday' },
      { date: '2026-06-08', name: 'King’s Birthday' },
      { date: '2026-11-03', name: 'Melbourne Cup' },
    ],
    2027: [
      { date: '2027-03-08', name: 'Labour Day' },
      { date: '2027-03-27', name: 'Easter Saturday' },
      { date: '2027-03-28', name: 'Easter Sunday' },
      { date: '2027-06-14', name: 'King’s Birthday' },
      { date: '2027-11-02', name: 'Melbourne Cup' },
    ],
  },
  // Source: Queensland Government, https://www.qld.gov.au/recreation/travel/holidays/public
  // The Royal Queensland Show holiday is Brisbane's; other regions have their own show day.
  QLD: {
    2026: [
      { date: '2026-04-04', name: 'Easter Saturday' },
      { date: '2026-04-05', name: 'Easter Sunday' },
      { date: '2026-05-04', name: 'Labour Day' },
      { date: '2026-08-12', name: 'Royal Queensland Show (Brisbane)' },
      { date: '2026-10-05', name: 'King’s Birthday' },
    ],
    2027: [
      { date: '2027-03-27', name: 'Easter Saturday' },
      { date: '2027-03-28', name: 'Easter Sunday' },
      { date: '2027-05-03', name: 'Labour Day' },
      { date: '2027-08-11', name: 'Royal Queensland Show (Brisbane)' },
      { date: '2027-10-04', name: 'King’s Birthday' },
    ],
  },
  // Source: SafeWork SA, https://www.safework.sa.gov.au/resources/public-holidays
  SA: {
    2026: [
      { date: '2026-03-09', name: 'Adelaide Cup Day' },
      { date: '2026-04-04', name: 'Easter Saturday' },
      { date: '2026-04-05', name: 'Easter Sunday' },
      { date: '2026-06-08', name: 'King’s Birthday' },
      { date: '2026-10-05', name: 'Labour Day' },
    ],
    2027: [
      { date: '2027-03-08', name: 'Adelaide Cup Day' },
      { date: '2027-03-27', name: 'Easter Saturday' },
      { date: '2027-03-28', name: 'Easter Sunday' },
      { date: '2027-04-26', name: 'Anzac Day (additional day)' },
      { date: '2027-06-14', name: 'King’s Birthday' },
      { date: '2027-10-04', name: 'Labour Day' },
    ],
  },
  // Source: Government of Western Australia, https://www.wa.gov.au/service/employment/workplace-arrangements/public-holidays-western-australia
  WA: {
    2026: [
      { date: '2026-03-02', name: 'Labour Day' },
      { date: '2026-04-05', name: 'Easter Sunday' },
      { date: '2026-04-27', name: 'Anzac Day (additional day)' },
      { date: '2026-06-01', name: 'Western Australia Day' },
      { date: '2026-09-28', name: 'King’s Birthday' },
    ],
    2027: [
      { date: '2027-03-01', name: 'Labour Day' },
      { date: '2027-03-28', name: 'Easter Sunday' },
      { date: '2027-04-26', name: 'Anzac Day (additional day)' },
      { date: '2027-06-07', name: 'Western Australia Day' },
      { date: '2027-09-27', name: 'King’s Birthday' },
    ],
  },
  // Source: WorkSafe Tasmania, https://worksafe.tas.gov.au/topics/laws-and-compliance/public-holidays
  TAS: {
    2026: [
      { date: '2026-03-09', name: 'Eight Hours Day' },
      { date: '2026-06-08', name: 'King’s Birthday' },
    ],
    2027: [
      { date: '2027-03-08', name: 'Eight Hours Day' },
      { date: '2027-06-14', name: 'King’s Birthday' },
    ],
  },
  // Source: ACT Government, https://www.act.gov.au/living-in-the-act/public-holidays-school-terms-and-daylight-saving
  ACT: {
    2026: [
      { date: '2026-03-09', name: 'Canberra Day' },
      { date: '2026-04-04', name: 'Easter Saturday' },
      { date: '2026-04-05', name: 'Easter Sunday' },
      { date: '2026-04-27', name: 'Anzac Day (additional day)' },
      { date: '2026-06-01', name: 'Reconciliation Day' },
      { date: '2026-06-08', name: 'King’s Birthday' },
      { date: '2026-10-05', name: 'Labour Day' },
    ],
    2027: [
      { date: '2027-03-08', name: 'Canberra Day' },
      { date: '2027-03-27', name: 'Easter Saturday' },
      { date: '2027-03-28', name: 'Easter Sunday' },
      { date: '2027-04-26', name: 'Anzac Day (additional day)' },
      { date: '2027-05-31', name: 'Reconciliation Day' },
      { date: '2027-06-14', name: 'King’s Birthday' },
      { date: '2027-10-04', name: 'Labour Day' },
    ],
  },
  // Source: Northern Territory Government, https://nt.gov.au/nt-public-holidays
  NT: {
    2026: [
      { date: '2026-04-04', name: 'Easter Saturday' },
      { date: '2026-04-05', name: 'Easter Sunday' },
      { date: '2026-05-04', name: 'May Day' },
      { date: '2026-06-08', name: 'King’s Birthday' },
      { date: '2026-08-03', name: 'Picnic Day' },
    ],
    2027: [
      { date: '2027-03-27', name: 'Easter Saturday' },
      { date: '2027-03-28', name: 'Easter Sunday' },
      { date: '2027-04-26', name: 'Anzac Day (additional day)' },
      { date: '2027-05-03', name: 'May Day' },
      { date: '2027-06-14', name: 'King’s Birthday' },
      { date: '2027-08-02', name: 'Picnic Day' },
    ],
  },
};
