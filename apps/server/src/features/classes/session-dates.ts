import { addDays, datesBetween, displayDate, isoWeekday } from '../../platform/time.ts';

/**
 * The pure rules of class sessions: which dates a weekly class meets in a term, and when two
 * sessions overlap. Dates are the company's local calendar dates ('YYYY-MM-DD') and times its
 * wall-clock times ('HH:MM'), so 4pm stays 4pm across a daylight-saving change: the instant is
 * only worked out when shown (platform/time.ts zonedInstant).
 */

export interface Closure {
  startDate: string;
  endDate: string;
  /** `closed`: no session; `billing_only`: the session runs (only billing treats the day apart). */
  kind: 'closed' | 'billing_only';
}

export interface RestrictedDate {
  date: string;
  /** The same day every year (Christmas Day). */
  recurringYearly: boolean;
}

/** Whether `date` falls inside a facility closure of the term. */
export function closedOn(date: string, closures: readonly Closure[]): boolean {
  return closures.some((c) => c.kind === 'closed' && c.startDate <= date && date <= c.endDate);
}

/** Whether `date` is one of the company's restricted dates (a yearly one matches month and day). */
export function restrictedOn(date: string, restricted: readonly RestrictedDate[]): boolean {
  return restricted.some((r) => (r.recurringYearly ? r.date.slice(5) === date.slice(5) : r.date === date));
}

/**
 * Every date from `start` to `end` (both included) on ISO weekday `weekday` (1 Monday … 7 Sunday),
 * without the term's facility closures and the company's restricted dates.
 */
export function sessionDates(
  term: { startDate: string; endDate: string },
  weekday: number,
  closures: readonly Closure[] = [],
  restricted: readonly RestrictedDate[] = [],
): string[] {
  if (term.endDate < term.startDate || weekday < 1 || weekday > 7) return [];
  const first = datesBetween(term.startDate, addDays(term.startDate, 6)).find(
    (d) => Number(isoWeekday(d)) === weekday,
  );
  const out: string[] = [];
  for (let d = first; d && d <= term.endDate; d = addDays(d, 7)) {
    if (!closedOn(d, closures) && !restrictedOn(d, restricted)) out.push(d);
  }
  return out;
}

/** Minutes since midnight of 'HH:MM' or 'HH:MM:SS'. */
export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/** 'HH:MM' of minutes since midnight. */
export function timeOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export interface Slot {
  date: string;
  startTime: string;
  durationMinutes: number;
}

/** Two sessions overlap when they share a date and each starts before the other ends. */
export function overlaps(a: Slot, b: Slot): boolean {
  if (a.date !== b.date) return false;
  const [aStart, bStart] = [minutesOf(a.startTime), minutesOf(b.startTime)];
  return aStart < bStart + b.durationMinutes && bStart < aStart + a.durationMinutes;
}

/** '14/04/2027 16:00–17:00', how a clash names the other session's time. */
export function slotText(slot: Slot): string {
  const start = minutesOf(slot.startTime);
  return `${displayDate(slot.date)} ${timeOf(start)}–${timeOf(start + slot.durationMinutes)}`;
}
