import { describe, expect, it } from 'vitest';
import { decideCancellation } from './cancellation.ts';

describe('what a cancellation gives back', () => {
  const now = new Date('2030-03-01T00:00:00Z');
  const hoursAhead = (h: number) => new Date(now.getTime() + h * 3_600_000);
  const policy = { noticeHours: 48, percentBack: 50, destination: 'refund' as const };

  it('gives the policy’s share, rounded half up to the cent, with enough notice', () => {
    expect(decideCancellation(policy, { startsAt: hoursAhead(48), now, paid: 4501 })).toEqual({
      outcome: 'refund',
      back: 2251,
      late: false,
    });
    expect(
      decideCancellation(
        { ...policy, percentBack: 100, destination: 'credit' },
        { startsAt: hoursAhead(100), now, paid: 9000 },
      ),
    ).toEqual({ outcome: 'credit', back: 9000, late: false });
  });

  it('gives nothing later than the notice, nothing of nothing, and nothing at 0%', () => {
    expect(decideCancellation(policy, { startsAt: hoursAhead(47.99), now, paid: 4500 })).toEqual({
      outcome: 'nothing',
      back: 0,
      late: true,
    });
    expect(decideCancellation(policy, { startsAt: hoursAhead(72), now, paid: 0 }).outcome).toBe('nothing');
    expect(
      decideCancellation({ ...policy, percentBack: 0 }, { startsAt: hoursAhead(72), now, paid: 4500 }).back,
    ).toBe(0);
  });
});
