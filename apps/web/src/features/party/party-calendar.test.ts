import { describe, expect, it } from 'vitest';
import {
  formatPartyDate,
  formatPartyTime,
  guestOptions,
  monthOf,
  partyDayLabel,
  partyDayState,
  tomorrow,
} from './party-calendar';

describe('party calendar days', () => {
  const days = { '2026-03-07': { available: 2 }, '2026-03-08': { available: 0 } };

  it('are available with free slots, reserved with none left, locked when absent', () => {
    expect(partyDayState('2026-03-07', days)).toBe('available');
    expect(partyDayState('2026-03-08', days)).toBe('reserved');
    expect(partyDayState('2026-03-09', days)).toBe('locked');
    expect(partyDayState('2026-03-07', undefined)).toBe('locked');
  });

  it('say their state to screen readers', () => {
    expect(partyDayLabel('2026-03-08', 'reserved')).toBe('8 March 2026, reserved, fully booked');
  });

  it('start tomorrow, in the month of tomorrow', () => {
    expect(tomorrow(new Date(2026, 1, 28, 23, 59))).toBe('2026-03-01');
    expect(monthOf('2026-03-17')).toBe('2026-03-01');
  });
});

describe('party display', () => {
  it('shows dates as DD/MM/YYYY with the weekday and times with their end', () => {
    expect(formatPartyDate('2026-03-07')).toBe('Saturday 07/03/2026');
    expect(formatPartyTime('10:00', 120)).toBe('10:00am–12:00pm');
    expect(formatPartyTime('14:30')).toBe('2:30pm');
  });

  it('offers 1 up to the capacity of the slot as guests', () => {
    expect(guestOptions(3)).toEqual(['1', '2', '3']);
    expect(guestOptions(undefined)).toEqual(['1']);
    expect(guestOptions(0)).toEqual(['1']);
  });
});
