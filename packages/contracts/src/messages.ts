/**
 * User-facing strings from SPEC.md point 8, character for character (including its spelling).
 * Both the server and the SPA import them so the wording cannot drift.
 */
export const messages = {
  loginFailedHeading: 'Sorry!',
  loginFailed: 'We could not sign you in with the supplied username and password. Please try again.',
  noSessions: 'Currently, there are no available sessions for booking. Please back later.',
  noEventData: 'No event data available.',
  somethingWrongCalendar: 'Something wrong!',
  formLoadFailed: 'Something went wrong. Could not load requested data.',
  communicationError:
    'Communication Error: An error occured while communicating with the server. Please try again.',
  selectAtLeastOne: 'Please select at least one record.',
  selectOne: 'Please select one record.',
  onlyOneRecord: 'You can perform this action on only one record.',
  confirmAction: (action: string) => `Are you sure to ${action}?`,
  confirmSelectedAction: 'Are you sure you want to perform the selected action?',
  checkoutFailed: 'Something went wrong!',
  checkoutInvalid: 'Something Wrong!',
  childrenUnique: 'Each existing child must be unique.',
  newChildIncomplete: (position: number) =>
    `New child at position ${position} must have both first name, last name and date of birth.`,
  newChildDobInvalid: (position: number) => `New child at position ${position} has a date of birth invalid.`,
  selectInsurance: 'Please select a insurance.',
  acceptTerms: 'You need to accept our Terms and Conditions before placing this booking',
  partyChildRequired: "Child's information is required!",
  alreadyPurchasedInsurance: 'Already purchased insurance',
  waiverFound:
    'Waiver Form Successfully Submitted! We located your previously signed Waiver and therefore, you do not have to sign it again.',
  waiverFailed: 'Waiver Form Submission Failed! We encountered a technical issue and please try again.',
  resetLinkInvalid: 'The password reset link you have clicked is invalid. Please contact the provider.',
  resetLinkTimedOut: 'Your password reset link has timed out',
  activationInvalid: 'The activation link you have clicked is invalid.',
  activationTimedOut: 'Your activation link has timed out.',
  activationConfirmed:
    'You have confirmed your email address. We will notify you when your account is active.',
  forgotPasswordFailed: 'We could not send forgot password request. Please try again.',
  resetPasswordFailed: 'We could not send reset password request. Please try again.',
  updateGuestLoadFailed: 'Failed to load form definition action',
  userMetaFailed: 'User Meta Request failed.',
  sessionExpired: 'Your session has expired. Please login again.',
  logoutConfirm: 'Are you sure you want to log out?',
  bookingSuccessful: 'Booking Successful!',
  invitationConfirmed: 'Invitation Confirmed!',
} as const;
