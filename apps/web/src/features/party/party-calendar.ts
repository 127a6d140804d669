import type { CalendarDays } from '@tumble/contracts/party';
import dayjs from 'dayjs';

/**
 * How a day of the party calendar shows (SPEC.md point 5): `available` can be picked; `reserved`
 * has slots but all are taken (shown, never picked); `locked` has no party slots at all (absent
 * from the calendar: not a party day, restricted, or past).
 */
export type PartyDayState = 'available' | 'reserved' | 'locked';

export function partyDayState(date: string, days: CalendarDays | undefined): PartyDayState {
  const day = days?.[date];
  if (!day) return 'locked';
  return day.available > 0 ? 'available' : 'reserved';
}

const STATE_LABEL: Record<PartyDayState, string> = {
  available: 'available',
  reserved: 'reserved, fully booked',
  locked: 'not available',
};

/** '14 March 2026, reserved, fully booked': what a screen reader says for a day. */
export function partyDayLabel(date: string, state: PartyDayState): string {
  return `${dayjs(date).format('D MMMM YYYY')}, ${STATE_LABEL[state]}`;
}

/** Tomorrow as YYYY-MM-DD: parties are booked from tomorrow on, so earlier months are not shown. */
export function tomorrow(now = new Date()): string {
  return dayjs(now).add(1, 'day').format('YYYY-MM-DD');
}

/** The first day of the month of a date, as the calendar's displayed month. */
export function monthOf(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

/** 'Saturday 14/03/2026' (SPEC.md point 9: dates show as DD/MM/YYYY). */
export function formatPartyDate(date: string): string {
  return dayjs(date).format('dddd DD/MM/YYYY');
}

/** '10:00' as '10:00am'; with a duration, '10:00am–12:00pm'. */
export function formatPartyTime(time: string, durationMinutes?: number): string {
  const start = dayjs(`2000-01-01T${time}`);
  if (!start.isValid()) return time;
  const from = start.format('h:mma');
  return durationMinutes ? `${from}–${start.add(durationMinutes, 'minute').format('h:mma')}` : from;
}

/** Guests run from 1 to the slot's capacity (SPEC.md point 5). */
export function guestOptions(capacity: number | undefined): string[] {
  const most = Math.max(1, Math.floor(capacity ?? 1));
  return Array.from({ length: most }, (_, i) => String(i + 1));
}
