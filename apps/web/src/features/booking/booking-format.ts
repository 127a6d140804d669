/**
 * Pure display rules of the booking pages: dates, the Monday-to-Sunday calendar, the age range,
 * the venue map link and money. Dates are the API's `YYYY-MM-DD` strings, handled as UTC days so
 * the visitor's time zone never shifts a session to another day.
 */

import { formatDate } from '@tumble/contracts/display';

// Shared with the server-drawn first HTML of the public pages.
export { ageRangeText, formatDate } from '@tumble/contracts/display';

const DAY_MS = 86_400_000;
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

function toTime(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

function fromTime(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return fromTime(toTime(date) + days * DAY_MS);
}

/** 0 = Monday … 6 = Sunday (SPEC.md point 9: weeks run Monday to Sunday). */
export function weekdayIndex(date: string): number {
  return (new Date(toTime(date)).getUTCDay() + 6) % 7;
}

export function isDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(toTime(value));
}

/** 'Mon 12/01' style label for a calendar cell. */
export function formatDayShort(date: string): string {
  const [, month, day] = date.split('-');
  return `${WEEKDAYS[weekdayIndex(date)]} ${day}/${month}`;
}

/** 'Monday 12/01/2026' for summaries. */
export function formatDayLong(date: string): string {
  const names = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
  return `${names[weekdayIndex(date)]} ${formatDate(date)}`;
}

/**
 * Weeks of seven dates, Monday first, covering every given date (the event's start and end and
 * any date that has sessions). Empty when no valid date is given.
 */
export function calendarWeeks(dates: readonly string[]): string[][] {
  const valid = dates.filter(isDate).sort();
  const first = valid[0];
  const last = valid[valid.length - 1];
  if (!first || !last) return [];
  const start = addDays(first, -weekdayIndex(first));
  const end = addDays(last, 6 - weekdayIndex(last));
  const weeks: string[][] = [];
  // A holiday program lasts weeks, not years; the cap keeps a data mistake from freezing the page.
  for (let monday = start; monday <= end && weeks.length < 60; monday = addDays(monday, 7)) {
    weeks.push(Array.from({ length: 7 }, (_, i) => addDays(monday, i)));
  }
  return weeks;
}

interface VenueLike {
  name: string;
  address: string | null;
  suburb: string | null;
  postcode: string | null;
}

/** SPEC.md point 2: a map link from venue name, address, suburb, postcode plus Australia. */
export function venueMapLink(venue: VenueLike): string {
  const parts = [venue.name, venue.address, venue.suburb, venue.postcode, 'Australia']
    .map((part) => part?.trim())
    .filter(Boolean);
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(parts.join(', '))}`;
}

/** Cents as money with two decimals (SPEC.md point 9), in the company's currency. */
export function formatMoney(cents: number, currency = 'AUD'): string {
  try {
    return new Intl.NumberFormat('en-AU', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `$${(cents / 100).toFixed(2)}`;
  }
}

/** '09:00'–'12:00' as '9:00am–12:00pm'. */
export function formatTimeRange(start: string, end: string): string {
  return `${formatTime(start)}–${formatTime(end)}`;
}

export function formatTime(time: string): string {
  const match = /^(\d{1,2}):(\d{2})/.exec(time);
  if (!match) return time;
  const hours = Number(match[1]);
  const suffix = hours >= 12 ? 'pm' : 'am';
  const twelve = hours % 12 === 0 ? 12 : hours % 12;
  return `${twelve}:${match[2]}${suffix}`;
}
