import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS_TEXT } from './common-passwords.ts';
import { COMMON_PASSWORD_MESSAGE, newPasswordProblem } from './passwords.ts';

describe('new password rules', () => {
  it('holds the 3,000 most common passwords, most common first', () => {
    const list = COMMON_PASSWORDS_TEXT.split('\n');
    expect(list).toHaveLength(3000);
    expect(new Set(list).size).toBe(3000);
    expect(list.slice(0, 3)).toEqual(['123456', 'password', '12345678']);
  });

  it.each(['password', 'PASSWORD', 'Password', '12345678', 'iloveyou', 'baseball', 'sunshine'])(
    'refuses the common password %s for a parent',
    (password) => {
      expect(newPasswordProblem(password, 'student')).toBe(COMMON_PASSWORD_MESSAGE);
    },
  );

  it('applies the length rule first, per role', () => {
    expect(newPasswordProblem('short', 'student')).toBe('Password must be at least 8 characters.');
    expect(newPasswordProblem('eight chr', 'companyadmin')).toBe('Password must be at least 12 characters.');
    expect(newPasswordProblem('x'.repeat(257), 'student')).toBe('Password must be at most 256 characters.');
  });

  it('accepts an uncommon password of the right length', () => {
    expect(newPasswordProblem('tangerine kayak 42', 'student')).toBeNull();
    expect(newPasswordProblem('tangerine kayak 42', 'companystaff')).toBeNull();
  });
});
