import { z } from 'zod';
import { calendarDate } from './roll.ts';

/**
 * The students of a class (SPEC class-students, class-payments): who is in it and in what state,
 * and the staff changes to it (enrol, transfer, withdraw, offer a waitlisted family a place).
 * Dates are YYYY-MM-DD in the company's time zone; money is cents.
 */

export const CLASS_STUDENT_STATUSES = ['trial', 'active', 'pending', 'waitlisted', 'withdrawn'] as const;
export type ClassStudentStatus = (typeof CLASS_STUDENT_STATUSES)[number];

export const classStudent = z.object({
  /** The place (class_enrolments row); null for a waitlisted child. */
  enrolment_id: z.number().nullable(),
  /** The waitlist entry; null for a child with a place. */
  waitlist_id: z.number().nullable(),
  child_id: z.number(),
  child_name: z.string(),
  /** Age today; null when the child is not found. */
  age: z.object({ years: z.number(), months: z.number() }).nullable(),
  parent_name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  status: z.enum(CLASS_STUDENT_STATUSES),
  /** Pending places: what the place is held for, and until when (ISO instant). */
  held_for: z.string().nullable(),
  hold_expires_at: z.string().nullable(),
  /** A full enrolment's first session; a trial's session date. */
  starts_on: z.string().nullable(),
  /** The first session the child no longer comes to. */
  withdrawn_from: z.string().nullable(),
  /** Waitlisted: priority tier (1 current students … 4 new) and the entry's state. */
  tier: z.number().nullable(),
  waitlist_status: z.string().nullable(),
});
export type ClassStudent = z.infer<typeof classStudent>;

/** GET /api/v1/admin/term-classes/:id/class-students */
export const classStudentsResponse = z.object({
  term_class: z.object({
    id: z.number(),
    name: z.string(),
    term_id: z.number(),
    term_name: z.string(),
    capacity: z.number(),
  }),
  today: z.string(),
  /** The class's next scheduled session from today: the default start of an enrolment. */
  next_session: z.string().nullable(),
  /** Places left for a full enrolment from the next session. */
  places_left: z.number(),
  students: z.array(classStudent),
});
export type ClassStudentsResponse = z.infer<typeof classStudentsResponse>;

/** GET /api/v1/admin/class-students/children?q=: the company's children by name, to enrol one. */
export const childSearchQuery = z.object({ q: z.string().trim().max(80).optional().default('') });
export const childChoice = z.object({
  id: z.number(),
  name: z.string(),
  dob: z.string(),
  parent_name: z.string(),
});
export const childSearchResponse = z.array(childChoice);
export type ChildChoice = z.infer<typeof childChoice>;

const optionalDate = z.union([calendarDate, z.literal('')]).optional();

/** POST /api/v1/admin/term-classes/:id/class-students: staff enrol a child (from the next session by default). */
export const enrolRequest = z.object({
  child_id: z.coerce.number().int().positive().max(2_147_483_647),
  starts_on: optionalDate,
});
export type EnrolRequest = z.infer<typeof enrolRequest>;

const enrolmentId = z.coerce.number().int().positive().max(2_147_483_647);

/** POST /api/v1/admin/term-classes/:id/class-students/transfer */
export const transferRequest = z.object({
  enrolment_id: enrolmentId,
  to_class_id: z.coerce.number().int().positive().max(2_147_483_647),
  from: calendarDate,
});
export type TransferRequest = z.infer<typeof transferRequest>;

/** POST /api/v1/admin/term-classes/:id/class-students/withdraw */
export const withdrawRequest = z.object({ enrolment_id: enrolmentId, from: calendarDate });
export type WithdrawRequest = z.infer<typeof withdrawRequest>;

/** POST /api/v1/admin/term-classes/:id/class-students/offer */
export const offerRequest = z.object({ waitlist_id: enrolmentId });
export type OfferRequest = z.infer<typeof offerRequest>;

/** The answer of every change: what happened, in words for staff. */
export const classStudentsChange = z.object({ message: z.string() });
export type ClassStudentsChange = z.infer<typeof classStudentsChange>;

/** Messages staff see (the server's and the screen's are the same strings). */
export const classStudentMessages = {
  full: (name: string) => `Sorry, ${name} is full.`,
  alreadyEnrolled: (child: string) => `${child} is already enrolled in this class.`,
  noSessionsLeft: 'This class has no sessions left to enrol in.',
  classCancelled: 'This class is cancelled.',
  childNotFound: 'That child could not be found.',
  enrolmentNotFound: 'That enrolment could not be found.',
  sameClass: 'Choose another class to transfer to.',
  pastDate: 'Choose today or a later date.',
  alreadyWithdrawn: (date: string) => `This child is already withdrawn from ${date}.`,
  waitlistNotFound: 'That waitlist entry could not be found.',
} as const;

/** The family invitation (SPEC students/invite). */
export const inviteChild = z.object({
  first_name: z.string().trim().min(1, 'Please enter the first name.').max(80),
  last_name: z.string().trim().min(1, 'Please enter the last name.').max(80),
  dob: calendarDate,
});

/** POST /api/v1/admin/students/invite */
export const familyInviteRequest = z.object({
  full_name: z.string().trim().min(1, 'Please enter the parent’s name.').max(120),
  email: z.email('Please enter a valid email address.').max(254),
  phone: z
    .string()
    .trim()
    .max(30)
    .regex(/^[0-9 +()-]*$/, 'Please enter a valid phone number.')
    .optional()
    .default(''),
  form_key: z.string().trim().min(1, 'Please choose the registration form.').max(80),
  children: z.array(inviteChild).min(1, 'Please add at least one child.').max(10),
});
export type FamilyInviteRequest = z.infer<typeof familyInviteRequest>;
export type FamilyInviteInput = z.input<typeof familyInviteRequest>;

/** GET /api/v1/admin/students/invite/forms: the published registration forms to land on. */
export const inviteFormsResponse = z.array(z.object({ key: z.string(), name: z.string() }));

export const familyInviteMessages = {
  emailTaken: 'An account with this email address already exists in this company.',
  formNotFound: 'That registration form could not be found.',
  sent: (email: string) => `An invitation has been sent to ${email}.`,
} as const;

/** GET /api/v1/students/invite?hashcode=: 1 valid, 2 timed out, 0 invalid (like the reset link). */
export const inviteCheckResponse = z.object({
  state: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  full_name: z.string().nullable(),
  email: z.string().nullable(),
});

/** POST /api/v1/students/invite: the parent's first password. */
export const inviteAcceptRequest = z
  .object({
    hashcode: z.string().min(1).max(200),
    password: z.string().min(1, 'Password is required.'),
    password2: z.string().min(1, 'Please confirm the password.'),
  })
  .refine((v) => v.password === v.password2, { path: ['password2'], message: 'The passwords do not match.' });
export type InviteAcceptRequest = z.infer<typeof inviteAcceptRequest>;

/** A valid answer carries what the page needs to sign the parent in and open the form. */
export const inviteAcceptResponse = z.object({
  valid: z.boolean(),
  message: z.string().optional(),
  field: z.string().optional(),
  email: z.string().optional(),
  authhash: z.string().optional(),
  redirect: z.string().optional(),
});
export type InviteAcceptResponse = z.infer<typeof inviteAcceptResponse>;
