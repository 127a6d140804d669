import { z } from 'zod';

/**
 * Registration forms for staff (SPEC registration-forms: settings, anomalies, embed). The form
 * itself is an engine resource (`registration-forms`); these are the shapes of what is not.
 */

/** The standard questions a form may ask per child, in the order the public page asks them. */
export const standardQuestions = [
  { value: 'medical_notes', label: 'Medical notes' },
  { value: 'allergies', label: 'Allergies' },
  { value: 'emergency_contact', label: 'Emergency contact' },
  { value: 'school', label: 'School' },
  { value: 'heard_about_us', label: 'How did you hear about us?' },
] as const;
export type StandardQuestion = (typeof standardQuestions)[number]['value'];

/** At most this many custom questions per form. */
export const MAX_CUSTOM_QUESTIONS = 5;

export const registrationFormMessages = {
  keyTaken: 'Another registration form already uses this key.',
  keyShape: 'Use lowercase letters, digits and hyphens only (e.g. term-1-classes).',
  ageOrder: 'The maximum age must not be below the minimum age.',
  tooManyCustom: `Ask at most ${MAX_CUSTOM_QUESTIONS} custom questions (one per line).`,
  requiredNotAsked: 'A required question must also be asked.',
  waiverNotForClasses: 'Please choose a waiver for classes (or for everything).',
  paymentTermsNotForClasses: 'Please choose payment terms for class enrolments.',
  originShape:
    'Enter a website origin like https://www.example.com.au (scheme, host and port only; http only for localhost).',
  originTaken: 'This website is already listed.',
} as const;

export { EMBED_RESIZE_MESSAGE } from './wire.ts';

/** Anomalies (SPEC registration-forms anomalies): submissions that need a staff decision. */
export const anomalyKinds = [
  'age_outside_range',
  'possible_duplicate_child',
  'family_signed_up_twice',
  'payment_failed',
  'class_full_waitlisted',
] as const;
export type AnomalyKind = (typeof anomalyKinds)[number];

export const anomalyKindLabels: Record<AnomalyKind, string> = {
  age_outside_range: 'Age outside the class range',
  possible_duplicate_child: 'Possible duplicate child',
  family_signed_up_twice: 'Family signed up twice',
  payment_failed: 'Payment failed',
  class_full_waitlisted: 'Class full: waitlisted',
};

/** The one action staff take on each kind of anomaly. */
export const anomalyActions = {
  accept: { label: 'Accept', done: 'Accepted: the enrolment stays.' },
  not_same_child: { label: 'Not the same child', done: 'Marked as a different child.' },
  dismiss: { label: 'Dismiss', done: 'Dismissed.' },
  offer_place: { label: 'Offer a place', done: 'A place was offered to the family.' },
} as const;
export type AnomalyAction = keyof typeof anomalyActions;

export const anomalyMessages = {
  alreadyResolved: 'This anomaly was already resolved.',
} as const;

export const anomalyListQuery = z.object({
  status: z.enum(['open', 'resolved', 'all']).default('open'),
  kind: z.enum(anomalyKinds).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(25),
});
/** What the admin screen asks (numbers as it sends them; the server coerces the query string). */
export type AnomalyListQuery = Partial<z.output<typeof anomalyListQuery>>;

export const anomalyRow = z.object({
  id: z.number(),
  kind: z.enum(anomalyKinds),
  kind_label: z.string(),
  status: z.enum(['open', 'resolved']),
  family: z.string(),
  child: z.string().nullable(),
  class_name: z.string().nullable(),
  detail: z.string(),
  created_at: z.string(),
  /** The one action on an open anomaly (null once resolved). */
  action: z
    .object({ name: z.enum(['accept', 'not_same_child', 'dismiss', 'offer_place']), label: z.string() })
    .nullable(),
  resolution: z.string().nullable(),
  resolved_by: z.string().nullable(),
  resolved_at: z.string().nullable(),
});
export type AnomalyRow = z.infer<typeof anomalyRow>;

export const anomalyListResponse = z.object({
  data: z.array(anomalyRow),
  total: z.number(),
  open: z.number(),
});
export type AnomalyListResponse = z.infer<typeof anomalyListResponse>;

export const anomalyCountResponse = z.object({ open: z.number() });
export type AnomalyCountResponse = z.infer<typeof anomalyCountResponse>;

export const anomalyResolveResponse = z.object({ success: z.boolean(), message: z.string() });
export type AnomalyResolveResponse = z.infer<typeof anomalyResolveResponse>;
