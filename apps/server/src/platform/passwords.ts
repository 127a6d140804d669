import type { Role } from '@tumble/contracts/auth';
import { parentPassword, staffPassword } from '@tumble/contracts/auth';
import { COMMON_PASSWORDS_TEXT } from './common-passwords.ts';

export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose another.';

const common = new Set(COMMON_PASSWORDS_TEXT.split('\n'));

/**
 * Why a new password cannot be used, or null: the length rule of the role (the forms' own schema)
 * and the common-password list, compared without case ("Password1" is as guessable as "password1").
 */
export function newPasswordProblem(password: string, role: Role): string | null {
  const policy = role === 'student' ? parentPassword : staffPassword;
  const length = policy.safeParse(password);
  if (!length.success) return length.error.issues[0]!.message;
  if (common.has(password.toLowerCase()) || common.has(password)) return COMMON_PASSWORD_MESSAGE;
  return null;
}
