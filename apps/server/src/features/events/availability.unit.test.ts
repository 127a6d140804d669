import { describe, expect, it } from 'vitest';
import {
  type AvailabilityEvent,
  type AvailabilitySession,
  cellKey,
  computeCells,
  cutoffInstant,
  isRestricted,
} from './availability.ts';

const event: AvailabilityEvent = {
  startDate: '2030-01-07',
  endDate: '2030-01-13',
  cutOffDay: false,
  cutoffDaysBefore: 0,
  cutoffTime: null,
};
const session: AvailabilitySession = {
  id: 1,
  name: 'Morning',
  startDate: '2030-01-07',
  endDate: '2030-01-13',
  startTime: '09:00:00',
  endTime: '12:00:00',
  daysOfWeek: ['1', '2', '3', '4', '5'],
  capacity: 5,
};
const SYDNEY = 'Australia/Sydney';

describe('computeCells', () => {
  const cells = (overrides: Partial<Parameters<typeof computeCells>[0]> = {}) =>
    computeCells({
      event,
      sessions: [session],
      taken: new Map(),
      restricted: [],
      timeZone: SYDNEY,
      now: new Date('2029-12-01T00:00:00Z'),
      ...overrides,
    });

  it('offers the session on its weekdays only (2030-01-07 is a Monday)', () => {
    expect(cells().map((c) => c.date)).toEqual([
      '2030-01-07',
      '2030-01-08',
      '2030-01-09',
      '2030-01-10',
      '2030-01-11',
    ]);
  });

  it('counts places left and turns a day full at capacity', () => {
    const taken = new Map([
      [cellKey(1, '2030-01-07'), 4],
      [cellKey(1, '2030-01-08'), 5],
      [cellKey(1, '2030-01-09'), 9],
    ]);
    expect(
      cells({ taken })
        .slice(0, 3)
        .map((c) => [c.status, c.available]),
    ).toEqual([
      ['bookable', 1],
      ['full', 0],
      ['full', 0],
    ]);
  });

  it('leaves restricted dates out, including yearly ones', () => {
    expect(
      cells({
        restricted: [
          { date: '2030-01-08', recurringYearly: false },
          { date: '1999-01-10', recurringYearly: true },
        ],
      }).map((c) => c.date),
    ).toEqual(['2030-01-07', '2030-01-09', '2030-01-11']);
    expect(isRestricted('2031-12-25', [{ date: '2026-12-25', recurringYearly: true }])).toBe(true);
  });

  it('expires a day when its session starts, in the company time zone (Sydney is UTC+11 in January)', () => {
    // 09:00 in Sydney on 2030-01-07 is 22:00 UTC on 2030-01-06.
    expect(cells({ now: new Date('2030-01-06T21:59:00Z') })[0]!.status).toBe('bookable');
    expect(cells({ now: new Date('2030-01-06T22:00:00Z') })[0]!.status).toBe('expired');
  });

  it('with a cutoff day, expires N days before at the cutoff time', () => {
    const cutoff = { ...event, cutOffDay: true, cutoffDaysBefore: 2, cutoffTime: '17:00:00' };
    // 2030-01-09 closes 2030-01-07 17:00 Sydney = 06:00 UTC.
    const day = (now: string) =>
      computeCells({
        event: cutoff,
        sessions: [session],
        taken: new Map(),
        restricted: [],
        timeZone: SYDNEY,
        now: new Date(now),
      })[2]!;
    expect(day('2030-01-07T05:59:00Z')).toMatchObject({ date: '2030-01-09', status: 'bookable' });
    expect(day('2030-01-07T06:00:00Z')).toMatchObject({ date: '2030-01-09', status: 'expired' });
  });

  it('handles the daylight-saving change (Perth has none, Sydney does)', () => {
    const july = { ...event, startDate: '2030-07-01', endDate: '2030-07-01' };
    const s = { ...session, startDate: '2030-07-01', endDate: '2030-07-01' };
    expect(cutoffInstant(july, s, '2030-07-01', SYDNEY).toISOString()).toBe('2030-06-30T23:00:00.000Z');
    expect(cutoffInstant(july, s, '2030-07-01', 'Australia/Perth').toISOString()).toBe(
      '2030-07-01T01:00:00.000Z',
    );
  });
});
