import { describe, expect, it } from 'vitest';
import {
  clockTime,
  nextSession,
  type OfferedClass,
  upcomingSessions,
  wallClock,
} from './class-finder.service.ts';

const cls = {
  sessions: [
    { id: 1, date: '2027-02-02', startTime: '16:00:00', durationMinutes: 60 },
    { id: 2, date: '2027-02-09', startTime: '16:00:00', durationMinutes: 60 },
  ],
} as OfferedClass;

describe('the class finder’s clock', () => {
  it('reads the company’s wall clock', () => {
    // 05:30 UTC is 4:30pm in Sydney in summer.
    expect(wallClock('Australia/Sydney', new Date('2027-02-02T05:30:00Z'))).toEqual({
      date: '2027-02-02',
      time: '16:30',
    });
  });

  it('starts an enrolment at the next session ahead: never one that has started today', () => {
    expect(nextSession(cls, { date: '2027-02-02', time: '15:59' })?.id).toBe(1);
    expect(nextSession(cls, { date: '2027-02-02', time: '16:00' })?.id).toBe(2);
    expect(upcomingSessions(cls, { date: '2027-02-10', time: '09:00' })).toEqual([]);
  });

  it('says times as parents do', () => {
    expect(clockTime('16:00:00')).toBe('4:00pm');
    expect(clockTime('09:30:00')).toBe('9:30am');
    expect(clockTime('12:15:00')).toBe('12:15pm');
    expect(clockTime('00:05:00')).toBe('12:05am');
  });
});
