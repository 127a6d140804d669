import type { RegistrationFormResponse } from '@tumble/contracts/registration';

/** GET /api/v1/registration/form of the tests' form: "Term classes", one term, trials offered. */
export function registrationFormData(): RegistrationFormResponse {
  return {
    form: {
      key: 'term-classes',
      name: 'Term classes',
      intro: '<p>Find a class.</p>',
      questions: [{ key: 'medical_notes', label: 'Medical notes', kind: 'medical_notes', required: true }],
      trials_offered: true,
      has_waiver: false,
      payment_terms: '<p>Payment is due at enrolment.</p>',
      public_waitlist: true,
    },
    terms: [{ id: 1, name: 'Term 1', start_date: '2027-02-01', end_date: '2027-04-09' }],
    company: { name: 'Bounce Gymnastics', logo: null, currency: 'AUD' },
    hold_minutes: 30,
  };
}
