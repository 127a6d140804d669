/**
 * Calendar dates and wall-clock times in a company's time zone (ARCHITECTURE.md: "today" and
 * cutoffs are computed in the company's zone, never the server's). Dates are 'YYYY-MM-DD'.
 */

/**
 * One formatter per zone, made once: building an Intl.DateTimeFormat costs tens of microseconds,
 * and the availability of an event computes a cutoff for every session-day (docs/performance.md).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function partsIn(instant: Date, timeZone: string) {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(instant: Date, timeZone: string): number {
  const p = partsIn(instant, timeZone);
  return (
    Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) -
    Math.floor(instant.getTime() / 1000) * 1000
  );
}

/**
 * Instants already worked out, by zone, date and time: a pure function of its arguments, asked
 * for every session-day of an event on every availability request. Bounded by clearing when full.
 */
const instants = new Map<string, number>();
const INSTANTS_MAX = 50_000;

/** The instant when the wall clock in `timeZone` shows `date` at `time` ('HH:MM'). */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const key = `${timeZone}|${date}|${time}`;
  const known = instants.get(key);
  if (known !== undefined) return new Date(known);
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, h, mi);
  // Two passes settle the offset across a daylight-saving change.
  let instant = wall - offsetAt(new Date(wall), timeZone);
  instant = wall - offsetAt(new Date(instant), timeZone);
  if (instants.size >= INSTANTS_MAX) instants.clear();
  instants.set(key, instant);
  return new Date(instant);
}

/** Today's date in the zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const p = partsIn(now, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** ISO weekday, '1' (Monday) … '7' (Sunday). */
export function isoWeekday(date: string): string {
  return String(((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1);
}

/** Every date from `from` to `to`, both included. */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to && out.length < 3700; d = addDays(d, 1)) out.push(d);
  return out;
}

/** The Monday of the week a date falls in (weeks run Monday to Sunday). */
export function mondayOf(date: string): string {
  return addDays(date, 1 - Number(isoWeekday(date)));
}

/** A calendar date as Australians read it: 'YYYY-MM-DD' → 'DD/MM/YYYY' (SPEC.md point 9's picker format). */
export function displayDate(date: string): string {
  return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
}

/** An instant in the company's zone: '21 Nov 2026, 3:04 pm'. */
export function displayInstant(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-AU', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(at);
}
