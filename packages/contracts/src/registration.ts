import { z } from 'zod';
import { chargesResponse, checkoutChild } from './booking.ts';
import { messages } from './messages.ts';

/**
 * The public registration page (issue 14): `/registration/?f=<form key>&authhash=…`. A parent picks
 * or adds children, finds a class for each by age, chooses a trial or a full enrolment, sees the
 * server's price, answers the form's questions, accepts the terms and pays.
 */

export const CHILDREN_MAX = 10;
export const CHOICES_MAX = 20;

export const registrationQuery = z.object({
  f: z.string().trim().max(100).default(''),
  authhash: z.string().max(200).default(''),
});

export const formQuestion = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(['medical_notes', 'allergies', 'emergency_contact', 'school', 'heard_about_us', 'custom']),
  required: z.boolean(),
});
export type FormQuestionView = z.infer<typeof formQuestion>;

/** GET /api/v1/registration/form: what the page shows before the class finder. */
export const registrationFormResponse = z.object({
  form: z.object({
    key: z.string(),
    name: z.string(),
    /** Sanitized HTML. */
    intro: z.string().nullable(),
    questions: z.array(formQuestion),
    trials_offered: z.boolean(),
    /** True when a waiver is signed after paying (`/registration/waiver/?id=<reference>`). */
    has_waiver: z.boolean(),
    /** Sanitized HTML. */
    payment_terms: z.string(),
    /** Whether a full class offers its waitlist (enrolment_settings.publicWaitlist). */
    public_waitlist: z.boolean(),
  }),
  terms: z.array(
    z.object({ id: z.number(), name: z.string(), start_date: z.string(), end_date: z.string() }),
  ),
  company: z.object({ name: z.string(), logo: z.string().nullable(), currency: z.string() }),
  hold_minutes: z.number(),
});
export type RegistrationFormResponse = z.infer<typeof registrationFormResponse>;

/** GET /api/v1/registration/classes: the class finder, for one child's date of birth when given. */
export const classFinderQuery = registrationQuery.extend({
  dob: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please give the date of birth as YYYY-MM-DD.')
    .optional(),
});

export const finderClass = z.object({
  id: z.number(),
  /** "Kinder Gym Tuesday 4:00pm". */
  name: z.string(),
  class_type: z.string(),
  term_id: z.number(),
  term_name: z.string(),
  /** "Tuesday". */
  day: z.string(),
  weekday: z.number(),
  start_time: z.string(),
  end_time: z.string(),
  venue: z.string().nullable(),
  coach: z.string().nullable(),
  level: z.string().nullable(),
  age_min_months: z.number().nullable(),
  age_max_months: z.number().nullable(),
  /** Live: free places for a full enrolment from `first_date`. */
  places_left: z.number(),
  /** The first session a full enrolment starts from (today or later); null when none is left. */
  first_date: z.string().nullable(),
  sessions_left: z.number(),
  /** The full enrolment's price from `first_date`, cents. */
  price: z.number(),
  pricing_model: z.enum(['per_session', 'term']),
  /** The next session with a free place, when the form offers trials and the class type allows them. */
  trial: z.object({ session_id: z.number(), date: z.string(), price: z.number() }).nullable(),
});
export type FinderClass = z.infer<typeof finderClass>;

export const classFinderResponse = z.object({ classes: z.array(finderClass) });
export type ClassFinderResponse = z.infer<typeof classFinderResponse>;

/** A child at the enrolment checkout: an existing one by id, or a new one (no insurance here). */
export const enrolmentChild = checkoutChild.pick({
  id: true,
  first_name: true,
  last_name: true,
  dob: true,
  consent: true,
});
export type EnrolmentChild = z.infer<typeof enrolmentChild>;

export const enrolmentChoice = z.object({
  /** Index into `children`. */
  child: z.coerce
    .number()
    .int()
    .min(0)
    .max(CHILDREN_MAX - 1),
  term_class_id: z.coerce.number().int().positive().max(2_147_483_647),
  kind: z.enum(['enrolled', 'trial']),
  /** The trial's session. */
  session_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export type EnrolmentChoice = z.infer<typeof enrolmentChoice>;

/** What both the price preview and the checkout take. */
export const enrolmentSelection = z.object({
  f: z.string().trim().min(1, 'Please choose a registration form.').max(100),
  children: z.array(enrolmentChild).min(1, 'Please add a child.').max(CHILDREN_MAX),
  choices: z.array(enrolmentChoice).min(1, 'Please choose a class.').max(CHOICES_MAX),
  /** The form's answers, one object per child (question key → answer). */
  answers: z
    .array(z.record(z.string().max(60), z.string().trim().max(2000)))
    .max(CHILDREN_MAX)
    .default([]),
  coupon_code: z.string().trim().max(40).optional().default(''),
  nsw_coupon_code: z.string().trim().max(40).optional().default(''),
  /** The secret of a held place being taken up (an offer, a trial's "enrol" link, a rollover). */
  hold_token: z.string().max(100).optional(),
  /** The enrolment-day queue's admission, when the term's public enrolment opens with a queue. */
  queue_token: z.string().max(200).optional(),
});

/** POST /api/v1/registration/quote: the server's price of a selection. */
export const enrolmentQuoteRequest = enrolmentSelection;
export type EnrolmentQuoteRequest = z.infer<typeof enrolmentQuoteRequest>;
export const enrolmentQuoteResponse = chargesResponse.extend({ amount_due: z.number() });
export type EnrolmentQuoteResponse = z.infer<typeof enrolmentQuoteResponse>;

/** POST /api/v1/registration/checkout?authhash: the checkout response of booking.ts. */
export const enrolmentCheckoutRequest = enrolmentSelection.extend({
  accept_terms: z.literal(true, messages.acceptTerms),
  /** The amount the page showed (checked against the server's, never trusted). */
  amount: z.coerce.number().int().min(0),
});
export type EnrolmentCheckoutRequest = z.infer<typeof enrolmentCheckoutRequest>;

/** GET /api/v1/registration/purchase?id=<reference>&authhash: the confirmation page. */
export const enrolmentPurchaseResponse = z.object({
  code: z.string(),
  status: z.enum(['pending', 'confirmed', 'cancelled', 'expired', 'refund_due']),
  total: z.number(),
  formatted_total: z.string(),
  /** The waiver to sign, when the form has one. */
  waiver_link: z.string().nullable(),
  places: z.array(
    z.object({
      child: z.string(),
      class_name: z.string(),
      kind: z.enum(['enrolled', 'trial', 'makeup', 'casual']),
      venue: z.string().nullable(),
      sessions: z.array(z.object({ date: z.string(), start_time: z.string(), end_time: z.string() })),
    }),
  ),
});
export type EnrolmentPurchaseResponse = z.infer<typeof enrolmentPurchaseResponse>;

/** GET /api/v1/students/enrolments: the family's enrolment purchases (parent account, "Enrolments"). */
export const myEnrolmentsResponse = z.object({
  purchases: z.array(
    z.object({
      code: z.string(),
      reference: z.string(),
      status: z.enum(['pending', 'confirmed', 'cancelled', 'expired', 'refund_due']),
      created_at: z.string(),
      total: z.string(),
      children: z.array(z.string()),
      classes: z.array(z.string()),
    }),
  ),
});
export type MyEnrolmentsResponse = z.infer<typeof myEnrolmentsResponse>;
