import { z } from 'zod';
import { messages } from './messages.ts';

/**
 * Private lessons (SPEC students/private-classes; coaches' private sessions): a parent books one
 * of a coach's weekly private-session slots on a date for 1 to 3 of their children. Dates are
 * YYYY-MM-DD in the company's time zone, times HH:MM, amounts in cents.
 */

/** Most children one private lesson takes (a slot's own limit is 1 to this). */
export const MAX_PRIVATE_LESSON_CHILDREN = 3;

/** A real calendar date, YYYY-MM-DD (2026-02-30 is refused, never handed to the database). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please choose a date.')
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
  }, 'Please choose a valid date.');

/** GET /api/v1/students/private-lessons/available: the lessons still free, by date then time. */
export const availableLesson = z.object({
  slot_id: z.number(),
  coach_id: z.number(),
  coach_name: z.string(),
  date: z.string(),
  time: z.string(),
  duration_minutes: z.number(),
  max_children: z.number(),
  price: z.number(),
});
export type AvailableLesson = z.infer<typeof availableLesson>;

export const availableLessonsResponse = z.object({
  coaches: z.array(z.object({ id: z.number(), name: z.string() })),
  lessons: z.array(availableLesson),
});
export type AvailableLessonsResponse = z.infer<typeof availableLessonsResponse>;

export const privateLessonChildError = (max: number) =>
  max === 1 ? 'This lesson takes 1 child.' : `This lesson takes at most ${max} children.`;

/** POST /api/v1/students/private-lessons/checkout. */
export const privateLessonCheckoutRequest = z.object({
  slot_id: z.coerce.number().int().positive().max(2_147_483_647),
  date: isoDate,
  child_ids: z
    .array(z.coerce.number().int().positive().max(2_147_483_647))
    .min(1, 'Please choose at least one child.')
    .max(MAX_PRIVATE_LESSON_CHILDREN, privateLessonChildError(MAX_PRIVATE_LESSON_CHILDREN)),
  /** What the parent saw as due now, cents (checked against the server's price). */
  amount: z.coerce.number().int().min(0),
  coupon_code: z.string().trim().max(40).optional().default(''),
  accept_terms: z.literal(true, messages.acceptTerms),
});
export type PrivateLessonCheckoutRequest = z.infer<typeof privateLessonCheckoutRequest>;

/** GET /api/v1/students/private-lessons/charges: the price of a lesson for the children chosen. */
export const privateLessonChargesQuery = z.object({
  slot_id: z.coerce.number().int().positive().max(2_147_483_647),
  date: isoDate,
  children: z.coerce.number().int().min(1).max(MAX_PRIVATE_LESSON_CHILDREN).default(1),
  coupon_code: z.string().trim().max(40).optional().default(''),
});

export const refundChoices = ['refund', 'credit', 'none'] as const;
export type RefundChoice = (typeof refundChoices)[number];

export const privateLessonStatuses = ['pending', 'confirmed', 'cancelled', 'expired', 'refund_due'] as const;

/** One booked lesson as the parent and staff see it. */
export const privateLesson = z.object({
  id: z.number(),
  code: z.string(),
  date: z.string(),
  time: z.string(),
  duration_minutes: z.number(),
  coach_id: z.number(),
  coach_name: z.string(),
  children: z.array(z.string()),
  status: z.enum(privateLessonStatuses),
  /** What the card was charged, cents. */
  amount_paid: z.number(),
  refund_choice: z.enum(refundChoices).nullable(),
  cancelled_at: z.string().nullable(),
});
export type PrivateLesson = z.infer<typeof privateLesson>;

/** GET /api/v1/students/private-lessons: the parent's lessons. */
export const myPrivateLessonsResponse = z.object({
  upcoming: z.array(
    privateLesson.extend({
      /** Whether the parent may still cancel online (the company's cancellation policy). */
      can_cancel: z.boolean(),
      /** What cancelling gives back, or why it is no longer possible online. */
      cancel_note: z.string(),
    }),
  ),
  past: z.array(privateLesson),
});
export type MyPrivateLessons = z.infer<typeof myPrivateLessonsResponse>;

/** GET /api/v1/admin/private-lessons: the staff list (a coach's leave after booking is a clash). */
export const staffPrivateLessonsQuery = z.object({
  coach_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export const staffPrivateLessonsResponse = z.object({
  coaches: z.array(z.object({ id: z.number(), name: z.string() })),
  lessons: z.array(
    privateLesson.extend({
      parent_name: z.string(),
      parent_email: z.string(),
      coach_on_leave: z.boolean(),
    }),
  ),
});
export type StaffPrivateLessons = z.infer<typeof staffPrivateLessonsResponse>;

/** POST /api/v1/admin/private-lessons/:id/cancel: what happens to the money (billing makes refunds real). */
export const staffCancelRequest = z.object({
  refund_choice: z.enum(refundChoices, 'Please choose refund, credit or none.'),
});

export const privateLessonMessages = {
  tooLate: 'This lesson can no longer be cancelled online. Please contact us.',
  taken: 'Sorry, this lesson has just been booked. Please choose another time.',
  unavailable: 'This lesson is not available. Please choose another time.',
  notFound: 'This private lesson could not be found.',
  notCancellable: 'This lesson is not booked, so it cannot be cancelled.',
} as const;
