import { describe, expect, it } from 'vitest';
import { checkProblem } from './coaches.service.ts';

describe('a coach may be rostered only with a verified, current Working With Children Check', () => {
  const cleared = {
    wwccNumber: 'WWC0123456E',
    wwccOutcome: 'cleared' as const,
    wwccVerifiedOn: '2026-01-10',
    wwccExpiresOn: '2030-01-10',
    archivedAt: null,
  };

  it('accepts a cleared check on its last valid day', () => {
    expect(checkProblem('Sam Coach', cleared, '2030-01-10')).toBeNull();
  });

  it('names each problem', () => {
    expect(checkProblem('Sam Coach', cleared, '2030-01-11')).toBe(
      "Sam Coach's Working With Children Check has expired.",
    );
    expect(checkProblem('Sam Coach', { ...cleared, wwccNumber: null }, '2027-01-01')).toBe(
      'Sam Coach has no Working With Children Check number.',
    );
    expect(checkProblem('Sam Coach', { ...cleared, wwccVerifiedOn: null }, '2027-01-01')).toBe(
      "Sam Coach's Working With Children Check has not been verified.",
    );
    expect(checkProblem('Sam Coach', { ...cleared, wwccOutcome: 'pending' }, '2027-01-01')).toBe(
      "Sam Coach's Working With Children Check has not been verified.",
    );
    expect(checkProblem('Sam Coach', { ...cleared, wwccOutcome: 'barred' }, '2027-01-01')).toBe(
      "Sam Coach's Working With Children Check is barred.",
    );
    expect(checkProblem('Sam Coach', { ...cleared, wwccExpiresOn: null }, '2027-01-01')).toBe(
      "Sam Coach's Working With Children Check has expired.",
    );
  });
});
