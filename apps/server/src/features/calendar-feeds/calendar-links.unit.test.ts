import { describe, expect, it } from 'vitest';
import { calendarFile, googleCalendarLink, googleSubscribeLink } from '../../platform/mail/ics.ts';
import { addToCalendarText, familyFeedPage, timeAfter } from './calendar-links.ts';

describe('calendar links', () => {
  const lesson = {
    date: '2026-12-01',
    startTime: '16:00',
    endTime: '16:45',
    summary: 'Kinder Gym: Ivy',
    location: 'Main floor',
    description: 'Bring a drink bottle',
  };

  it("builds Google's add-event link with UTC times and every field", () => {
    const url = new URL(googleCalendarLink(lesson, 'Australia/Sydney'));
    expect(`${url.origin}${url.pathname}`).toBe('https://calendar.google.com/calendar/render');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      action: 'TEMPLATE',
      text: 'Kinder Gym: Ivy',
      // Sydney is UTC+11 in December.
      dates: '20261201T050000Z/20261201T054500Z',
      details: 'Bring a drink bottle',
      location: 'Main floor',
    });
  });

  it('ends an event that runs past midnight on the next day', () => {
    const url = new URL(
      googleCalendarLink({ ...lesson, startTime: '23:30', endTime: '00:30' }, 'Australia/Sydney'),
    );
    expect(url.searchParams.get('dates')).toBe('20261201T123000Z/20261201T133000Z');
  });

  it('subscribes Google Calendar to a feed by its webcal address', () => {
    expect(googleSubscribeLink('https://app.example.com/feeds/abc.ics')).toBe(
      `https://calendar.google.com/calendar/r?cid=${encodeURIComponent('webcal://app.example.com/feeds/abc.ics')}`,
    );
  });

  it('writes one line per occasion and the family feed page', () => {
    const text = addToCalendarText([lesson], 'Australia/Sydney', familyFeedPage('https://app.example.com'));
    const lines = text.split('\n');
    expect(lines[0]).toBe('Add to Google Calendar:');
    expect(lines[1]).toMatch(
      /^Kinder Gym: Ivy, 01\/12\/2026 16:00: https:\/\/calendar\.google\.com\/calendar\/render\?/,
    );
    expect(lines[2]).toBe(
      'All your classes, events and parties in your calendar: https://app.example.com/admin/students/calendar',
    );
    expect(addToCalendarText([], 'Australia/Sydney')).toBe('');
  });

  it('adds minutes to a wall-clock time', () => {
    expect(timeAfter('16:00:00', 45)).toBe('16:45');
    expect(timeAfter('23:30', 90)).toBe('01:00');
  });

  it('feeds carry the calendar name, revision, last change and status; mail files stay as they were', () => {
    const feed = calendarFile({
      company: 'Tumble',
      product: 'Calendar feed',
      timeZone: 'Australia/Sydney',
      name: 'Tumble timetable',
      now: new Date('2026-11-24T01:00:00Z'),
      events: [
        {
          uid: 'class-session-1@app',
          ...lesson,
          sequence: 7,
          lastModified: new Date('2026-11-20T03:04:05Z'),
          status: 'cancelled',
        },
      ],
    });
    expect(feed.split('\r\n')).toEqual(
      expect.arrayContaining([
        'X-WR-CALNAME:Tumble timetable',
        'X-WR-TIMEZONE:Australia/Sydney',
        'SEQUENCE:7',
        'LAST-MODIFIED:20261120T030405Z',
        'STATUS:CANCELLED',
        'DESCRIPTION:Bring a drink bottle',
      ]),
    );
    const mail = calendarFile({
      company: 'Tumble',
      product: 'Enrolments',
      timeZone: 'Australia/Sydney',
      events: [{ uid: 'x', date: '2026-12-01', startTime: '16:00', endTime: '16:45', summary: 'A' }],
    });
    expect(mail).not.toMatch(/X-WR-CALNAME|SEQUENCE|STATUS|LAST-MODIFIED/);
  });
});
