import { zonedInstant } from '../time.ts';

/**
 * The one iCalendar (RFC 5545) builder: class sessions and private lessons are both sent as a
 * calendar file attached to their confirmation mail. Times are the company's wall clock given in
 * UTC, so every calendar shows them right whatever its own zone.
 */

/** One event: a class session or a private lesson, in the company's local date and times. */
export type CalendarEvent = {
  /** Stable across re-sends, so a calendar updates the event instead of adding a second one. */
  uid: string;
  date: string;
  startTime: string;
  endTime: string;
  summary: string;
  location?: string | null;
};

/** A calendar file as mail data: `queueMail` attaches `ics` under the name `icsFilename`. */
export type CalendarMailData = { ics: string; icsFilename: string };

/** TEXT value: escape backslash, semicolon, comma and new lines (RFC 5545 3.3.11). */
export function icsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** An instant as an iCalendar UTC date-time: 20270202T050000Z. */
export function icsInstant(at: Date): string {
  return `${at.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
}

const encoder = new TextEncoder();

/**
 * Folds a content line at 75 octets (RFC 5545 3.1): each continuation starts with one space, which
 * counts towards its 75. Splits between characters, never inside a UTF-8 sequence.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > 75) {
      parts.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n');
}

/** The calendar file: VERSION, PRODID, METHOD:PUBLISH and one VEVENT per event; CRLF line ends. */
export function calendarFile(options: {
  /** Who publishes it (the company's name) and what (e.g. 'Enrolments'), for PRODID. */
  company: string;
  product: string;
  timeZone: string;
  events: CalendarEvent[];
  now?: Date;
}): string {
  const stamp = icsInstant(options.now ?? new Date());
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${icsText(options.company)}//${icsText(options.product)}//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ];
  for (const event of options.events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${icsInstant(zonedInstant(event.date, event.startTime, options.timeZone))}`,
      `DTEND:${icsInstant(zonedInstant(event.date, event.endTime, options.timeZone))}`,
      `SUMMARY:${icsText(event.summary)}`,
      ...(event.location ? [`LOCATION:${icsText(event.location)}`] : []),
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

/** The mail data of a calendar file with its attachment's name. */
export function calendarMailData(filename: string, content: string): CalendarMailData {
  return { ics: content, icsFilename: filename };
}
