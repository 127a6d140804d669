import { encodeCell } from '@tumble/contracts/booking';
import { describe, expect, it } from 'vitest';
import { sessionsData } from './booking-test-kit';
import { cellKind, splitSelection } from './session-selection';

const days = sessionsData().days;
const day = (date: string, index: number) => days[date]![index]!;

describe('cellKind', () => {
  it('books a bookable cell with enough places, waitlists a full one, closes an expired one', () => {
    expect(cellKind(day('2026-01-07', 0), 1)).toBe('book');
    expect(cellKind(day('2026-01-08', 1), 1)).toBe('waitlist');
    expect(cellKind(day('2026-01-09', 0), 1)).toBe('closed');
  });

  it('waitlists a bookable cell with fewer places than the quantity', () => {
    expect(cellKind(day('2026-01-07', 1), 2)).toBe('book');
    expect(cellKind(day('2026-01-07', 1), 3)).toBe('waitlist');
  });
});

describe('splitSelection', () => {
  it('puts each selected cell into booked or waiting and drops closed or unknown cells', () => {
    const morning7 = encodeCell(1, 11, '2026-01-07');
    const full7 = encodeCell(1, 12, '2026-01-07');
    const full8 = encodeCell(1, 12, '2026-01-08');
    const expired9 = encodeCell(1, 11, '2026-01-09');
    const unknown = encodeCell(1, 99, '2026-01-07');

    expect(splitSelection([full8, morning7, full7, expired9, unknown, 'junk'], days, 1)).toEqual({
      booked: [morning7, full7],
      waiting: [full8],
    });
    expect(splitSelection([morning7, full7], days, 3)).toEqual({ booked: [morning7], waiting: [full7] });
  });
});
