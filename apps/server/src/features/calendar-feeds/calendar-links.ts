import { type CalendarEvent, googleCalendarLink } from '../../platform/mail/ics.ts';
import { displayDate } from '../../platform/time.ts';

/**
 * The `calendar` line of confirmation mails (booking, party, enrolment): an "Add to Google
 * Calendar" link per occasion and, when given, the page where the family subscribes to all of
 * theirs. Pure, so the features that queue those mails call it without reading feeds.
 */
export function addToCalendarText(
  occasions: Omit<CalendarEvent, 'uid'>[],
  timeZone: string,
  familyFeedPage?: string,
): string {
  const lines = occasions.map(
    (occasion) =>
      `${occasion.summary}, ${displayDate(occasion.date)} ${occasion.startTime.slice(0, 5)}: ${googleCalendarLink(occasion, timeZone)}`,
  );
  return [
    ...(lines.length > 0 ? ['Add to Google Calendar:', ...lines] : []),
    ...(familyFeedPage ? [`All your classes, events and parties in your calendar: ${familyFeedPage}`] : []),
  ].join('\n');
}

/** The wall-clock time (HH:MM) `minutes` after `time` (HH:MM or HH:MM:SS); past midnight it wraps. */
export function timeAfter(time: string, minutes: number): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const total = (h * 60 + m + minutes) % 1440;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** The parent's page with the family feed (apps/web features/calendar-feeds). */
export function familyFeedPage(publicUrl: string): string {
  return `${publicUrl}/admin/students/calendar`;
}
