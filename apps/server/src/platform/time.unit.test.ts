import { describe, expect, it } from 'vitest';
import { displayDate, displayInstant, zonedInstant } from './time.ts';

describe('time', () => {
  it('shows a calendar date as DD/MM/YYYY', () => {
    expect(displayDate('2026-02-03')).toBe('03/02/2026');
  });

  it("shows an instant in the company's zone", () => {
    expect(displayInstant(new Date('2026-11-21T04:05:00Z'), 'Australia/Sydney')).toBe('21 Nov 2026, 3:05 pm');
    expect(displayInstant(new Date('2026-11-21T04:05:00Z'), 'Australia/Perth')).toBe('21 Nov 2026, 12:05 pm');
  });

  it('finds the instant of a wall-clock time across a daylight-saving change, the same when asked again', () => {
    // Sydney moves to daylight time on 4 October 2026: 09:00 is UTC+10 before, UTC+11 after.
    expect(zonedInstant('2026-10-03', '09:00', 'Australia/Sydney').toISOString()).toBe(
      '2026-10-02T23:00:00.000Z',
    );
    expect(zonedInstant('2026-10-05', '09:00', 'Australia/Sydney').toISOString()).toBe(
      '2026-10-04T22:00:00.000Z',
    );
    expect(zonedInstant('2026-10-05', '09:00', 'Australia/Sydney').toISOString()).toBe(
      '2026-10-04T22:00:00.000Z',
    );
  });
});
