import { DOB_IN_FUTURE } from '@tumble/contracts/waiver';

/**
 * The no-future date of birth picker's rules (SPEC.md point 9): shown as DD/MM/YYYY, sent as
 * YYYY-MM-DD, from 21 years back up to today.
 */

/** Today as YYYY-MM-DD in the visitor's zone. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** SPEC.md point 9: the no-future picker allows dates up to 21 years back. */
export function dobLimits(today = localToday()): { min: string; max: string } {
  const [year, month, day] = today.split('-');
  // 29 February 21 years back may not exist; the 28th is close enough for a picker's limit.
  const minDay = month === '02' && day === '29' ? '28' : day;
  return { min: `${Number(year) - 21}-${month}-${minDay}`, max: today };
}

/** DD/MM/YYYY to YYYY-MM-DD when it is a real day (no 30/02), in range or not; else null. */
function realDay(text: string): string | null {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!match) return null;
  const [, d, m, y] = match;
  const iso = `${y}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** DD/MM/YYYY (as the picker shows it) to YYYY-MM-DD; null unless a real date in range. */
export function parseDob(text: string, limits = dobLimits()): string | null {
  const iso = realDay(text);
  return iso && iso >= limits.min && iso <= limits.max ? iso : null;
}

export { DOB_IN_FUTURE };

/** Why typed text is not a date of birth we accept: a future day is said as such (issue 21 point 9). */
export function dobTextError(text: string, limits = dobLimits()): string {
  const iso = realDay(text);
  return iso && iso > limits.max ? DOB_IN_FUTURE : 'Enter a past date as DD/MM/YYYY.';
}
