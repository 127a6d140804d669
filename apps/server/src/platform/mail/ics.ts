import { addDays, zonedInstant } from '../time.ts';

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
  description?: string | null;
  /**
   * Revision of the event (RFC 5545 3.8.7.4): a calendar replaces its copy only when this grows,
   * so a moved session must carry a higher number than before. Omitted: 0.
   */
  sequence?: number;
  /** When the event last changed (LAST-MODIFIED); omitted when unknown. */
  lastModified?: Date | null;
  /** 'cancelled' keeps the event in subscribed calendars, struck through (STATUS:CANCELLED). */
  status?: 'confirmed' | 'cancelled';
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
  /** A subscribed calendar's display name (X-WR-CALNAME), e.g. 'Tumble Gym timetable'. */
  name?: string;
}): string {
  const stamp = icsInstant(options.now ?? new Date());
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${icsText(options.company)}//${icsText(options.product)}//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...(options.name ? [`X-WR-CALNAME:${icsText(options.name)}`, `X-WR-TIMEZONE:${options.timeZone}`] : []),
  ];
  for (const event of options.events) {
    const { start, end } = eventInstants(event, options.timeZone);
    lines.push(
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${icsInstant(start)}`,
      `DTEND:${icsInstant(end)}`,
      `SUMMARY:${icsText(event.summary)}`,
      ...(event.location ? [`LOCATION:${icsText(event.location)}`] : []),
      ...(event.description ? [`DESCRIPTION:${icsText(event.description)}`] : []),
      ...(event.sequence !== undefined ? [`SEQUENCE:${event.sequence}`] : []),
      ...(event.lastModified ? [`LAST-MODIFIED:${icsInstant(event.lastModified)}`] : []),
      ...(event.status ? [`STATUS:${event.status.toUpperCase()}`] : []),
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

/** An event's start and end instants; an end at or before its start is on the next day. */
function eventInstants(event: Omit<CalendarEvent, 'uid'>, timeZone: string): { start: Date; end: Date } {
  const start = zonedInstant(event.date, event.startTime, timeZone);
  let end = zonedInstant(event.date, event.endTime, timeZone);
  if (end <= start) end = zonedInstant(addDays(event.date, 1), event.endTime, timeZone);
  return { start, end };
}

/**
 * Google Calendar's "add event" link for one event (the `render?action=TEMPLATE` form Google
 * documents for "Add to calendar" buttons): times in UTC, so Google shows them in the reader's zone.
 */
export function googleCalendarLink(event: Omit<CalendarEvent, 'uid'>, timeZone: string): string {
  const { start, end } = eventInstants(event, timeZone);
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.summary,
    dates: `${icsInstant(start)}/${icsInstant(end)}`,
    details: event.description ?? '',
    location: event.location ?? '',
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/**
 * Google Calendar's "subscribe" link for a feed: Google takes the feed's webcal:// address as
 * `cid` (https feeds are fetched the same way).
 */
export function googleSubscribeLink(feedUrl: string): string {
  const webcal = feedUrl.replace(/^https?:\/\//, 'webcal://');
  return `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcal)}`;
}

/** The mail data of a calendar file with its attachment's name. */
export function calendarMailData(filename: string, content: string): CalendarMailData {
  return { ics: content, icsFilename: filename };
}
