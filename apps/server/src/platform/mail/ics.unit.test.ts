import { describe, expect, it } from 'vitest';
import { calendarFile, calendarMailData, foldLine, icsText } from './ics.ts';
import { attachmentsOf } from './mail.service.ts';

const octets = (line: string) => new TextEncoder().encode(line).length;

describe('calendar files (RFC 5545)', () => {
  const now = new Date('2026-11-24T01:00:00Z');
  const file = (summary: string, date = '2026-12-01', location: string | null = 'Hall A') =>
    calendarFile({
      company: 'Tumble, Co',
      product: 'Private lessons',
      timeZone: 'Australia/Sydney',
      now,
      events: [{ uid: 'PL-7@tumble', date, startTime: '16:00', endTime: '16:30', summary, location }],
    });

  it('ends every line with CRLF and carries the required properties', () => {
    const text = file('Private lesson with Casey');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = text.split('\r\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Tumble\\, Co//Private lessons//EN',
        'METHOD:PUBLISH',
        'BEGIN:VEVENT',
        'UID:PL-7@tumble',
        'DTSTAMP:20261124T010000Z',
        'SUMMARY:Private lesson with Casey',
        'LOCATION:Hall A',
        'END:VEVENT',
        'END:VCALENDAR',
      ]),
    );
  });

  it('escapes backslash, semicolon, comma and new lines in text', () => {
    expect(icsText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
    expect(file('Casey; Ann, Bo\nBack\\slash')).toContain('SUMMARY:Casey\\; Ann\\, Bo\\nBack\\\\slash\r\n');
  });

  it('folds lines longer than 75 octets with a leading space, never inside a character', () => {
    const long = `SUMMARY:${'é'.repeat(60)}x`; // 8 + 120 + 1 octets
    const folded = foldLine(long);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(octets(part)).toBeLessThanOrEqual(75);
    for (const part of parts.slice(1)) expect(part.startsWith(' ')).toBe(true);
    // Unfolding (remove CRLF + one space) gives back the line.
    expect(folded.replace(/\r\n /g, '')).toBe(long);
    expect(foldLine('SHORT:line')).toBe('SHORT:line');
    const text = file(`Private lesson with ${'Casey '.repeat(20)}`);
    for (const line of text.split('\r\n')) expect(octets(line)).toBeLessThanOrEqual(75);
  });

  it('gives the company time in UTC on both sides of Sydney daylight saving', () => {
    // 1 Dec 2026 is daylight time in Sydney (UTC+11): 16:00 local is 05:00 UTC.
    const summer = file('Lesson', '2026-12-01');
    expect(summer).toContain('DTSTART:20261201T050000Z\r\n');
    expect(summer).toContain('DTEND:20261201T053000Z\r\n');
    // 1 Jul 2026 is standard time (UTC+10): 16:00 local is 06:00 UTC.
    expect(file('Lesson', '2026-07-01')).toContain('DTSTART:20260701T060000Z\r\n');
    // 5 Apr 2026 is the day daylight saving ends (03:00 back to 02:00): the afternoon is UTC+10.
    expect(file('Lesson', '2026-04-05')).toContain('DTSTART:20260405T060000Z\r\n');
  });

  it('leaves LOCATION out when there is none', () => {
    expect(file('Lesson', '2026-12-01', null)).not.toContain('LOCATION');
  });

  it('attaches the file under the name that came with the mail data', () => {
    const [attachment] = attachmentsOf({ name: 'Ann', ...calendarMailData('private-lesson.ics', 'X') });
    expect(attachment).toMatchObject({ filename: 'private-lesson.ics', content: 'X' });
    expect(attachmentsOf({ name: 'Ann' })).toEqual([]);
  });
});
