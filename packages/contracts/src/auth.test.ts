import { describe, expect, it } from 'vitest';
import { companySignupRequest, loginRequest, resetPasswordRequest, studentSignupRequest } from './auth.ts';

const messagesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('loginRequest (SPEC.md point 5: email and password required)', () => {
  it('refuses an empty email and password with a message for each', () => {
    expect(messagesOf(loginRequest.safeParse({ username: '  ', password: '' }))).toEqual({
      username: 'Email address is required.',
      password: 'Password is required.',
    });
  });
  it('accepts both, trimming the email', () => {
    expect(loginRequest.parse({ username: ' a@b.test ', password: 'x' })).toEqual({
      username: 'a@b.test',
      password: 'x',
    });
  });
});

describe('resetPasswordRequest', () => {
  it('requires password and password2 and that they match', () => {
    expect(
      messagesOf(resetPasswordRequest.safeParse({ hashcode: 'h', password: '', password2: '' })),
    ).toEqual({
      password: 'Password is required.',
      password2: 'Please confirm the password.',
    });
    expect(
      messagesOf(resetPasswordRequest.safeParse({ hashcode: 'h', password: 'abc', password2: 'abd' })),
    ).toEqual({
      password2: 'The passwords do not match.',
    });
  });
});

describe('password policy', () => {
  it('asks staff for 12 characters and parents for 8, and allows long passphrases', () => {
    const staff = { company_name: 'Gym', full_name: 'A', email: 'a@b.test' };
    expect(companySignupRequest.safeParse({ ...staff, password: '12345678901' }).success).toBe(false);
    expect(companySignupRequest.safeParse({ ...staff, password: '123456789012' }).success).toBe(true);
    expect(companySignupRequest.safeParse({ ...staff, password: 'x'.repeat(200) }).success).toBe(true);
    const parent = { authhash: 'h', full_name: 'P', email: 'p@b.test', phone: '0400 000 000' };
    expect(studentSignupRequest.safeParse({ ...parent, password: '1234567' }).success).toBe(false);
    expect(studentSignupRequest.safeParse({ ...parent, password: '12345678' }).success).toBe(true);
  });
  it('refuses phone numbers with letters', () => {
    const parent = { authhash: 'h', full_name: 'P', email: 'p@b.test', password: '12345678' };
    expect(messagesOf(studentSignupRequest.safeParse({ ...parent, phone: '0400 abc' }))).toEqual({
      phone: 'Please enter a valid phone number.',
    });
  });
});
