import type { StudentChild } from '@tumble/contracts/students';
import { formatDate } from '../../admin/format';

/**
 * Display rules of the parent's account pages beyond admin/format's money and DD/MM/YYYY dates.
 */

const weekdayFormat = new Intl.DateTimeFormat('en-AU', { weekday: 'short', timeZone: 'UTC' });

/** '2027-01-05' → 'Tue 05/01/2027'. Read as a UTC day so no time zone moves it to another day. */
export function formatDayWithWeekday(date: string): string {
  const time = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(time) ? date : `${weekdayFormat.format(time)} ${formatDate(date)}`;
}

export const insuranceLabels: Record<StudentChild['insurance_type'], string> = {
  '': 'None',
  daily_insurance: 'Daily insurance',
  full_insurance: 'Full insurance',
};

/** 'partially_refunded' → 'Partially refunded'. */
export function statusText(status: string): string {
  const words = status.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
