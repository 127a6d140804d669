import type { CellStatus } from '@tumble/contracts/booking';
import { addDays, datesBetween, isoWeekday, zonedInstant } from '../../platform/time.ts';

/**
 * Which session-days of an event exist and what state each is in (bookable, full, expired). Pure:
 * the booking page, checkout and tests share it.
 */
export interface AvailabilityEvent {
  startDate: string;
  endDate: string;
  cutOffDay: boolean;
  cutoffDaysBefore: number;
  cutoffTime: string | null;
}

export interface AvailabilitySession {
  id: number;
  name: string;
  startDate: string;
  endDate: string;
  startTime: string;
  endTime: string;
  daysOfWeek: string[];
  capacity: number;
}

export interface RestrictedDate {
  date: string;
  recurringYearly: boolean;
}

export interface Cell {
  sessionId: number;
  date: string;
  status: CellStatus;
  available: number;
}

export const hhmm = (time: string) => time.slice(0, 5);

/** True when the date is a restricted date (or the same day and month of a yearly one). */
export function isRestricted(date: string, restricted: RestrictedDate[]): boolean {
  return restricted.some((r) => r.date === date || (r.recurringYearly && r.date.slice(5) === date.slice(5)));
}

/** Does the session run on this date (within its dates and the event's, on one of its weekdays, not restricted)? */
export function runsOn(
  event: AvailabilityEvent,
  session: AvailabilitySession,
  date: string,
  restricted: RestrictedDate[],
): boolean {
  return (
    date >= session.startDate &&
    date <= session.endDate &&
    date >= event.startDate &&
    date <= event.endDate &&
    session.daysOfWeek.includes(isoWeekday(date)) &&
    !isRestricted(date, restricted)
  );
}

/**
 * When a session-day stops taking bookings: `cutoffDaysBefore` days before at `cutoffTime` when
 * the event closes days before (cut_off_day), otherwise when the session starts; in the company's zone.
 */
export function cutoffInstant(
  event: AvailabilityEvent,
  session: AvailabilitySession,
  date: string,
  timeZone: string,
): Date {
  if (event.cutOffDay)
    return zonedInstant(addDays(date, -event.cutoffDaysBefore), hhmm(event.cutoffTime ?? '00:00'), timeZone);
  return zonedInstant(date, hhmm(session.startTime), timeZone);
}

export const cellKey = (sessionId: number, date: string) => `${sessionId}|${date}`;

export function computeCells(input: {
  event: AvailabilityEvent;
  sessions: AvailabilitySession[];
  /** Places taken per `cellKey`. */
  taken: Map<string, number>;
  restricted: RestrictedDate[];
  timeZone: string;
  now: Date;
}): Cell[] {
  const cells: Cell[] = [];
  for (const date of datesBetween(input.event.startDate, input.event.endDate)) {
    for (const session of input.sessions) {
      if (!runsOn(input.event, session, date, input.restricted)) continue;
      const available = Math.max(0, session.capacity - (input.taken.get(cellKey(session.id, date)) ?? 0));
      const expired =
        input.now.getTime() >= cutoffInstant(input.event, session, date, input.timeZone).getTime();
      cells.push({
        sessionId: session.id,
        date,
        available,
        status: expired ? 'expired' : available > 0 ? 'bookable' : 'full',
      });
    }
  }
  return cells;
}
