/**
 * User-facing strings the specs look for, copied character for character from SPEC.md (points 2, 4
 * and 8). Kept apart from the app's own `messages` so a changed wording in the app fails the run.
 */
export const specText = {
  loginFailedHeading: 'Sorry!',
  loginFailed: 'We could not sign you in with the supplied username and password. Please try again.',
  activationConfirmed:
    'You have confirmed your email address. We will notify you when your account is active.',
  sessionExpired: 'Your session has expired. Please login again.',
  logoutConfirm: 'Are you sure you want to log out?',
  resetLinkInvalid: 'The password reset link you have clicked is invalid. Please contact the provider.',
  activationInvalid: 'The activation link you have clicked is invalid.',
} as const;
