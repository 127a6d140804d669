import { z } from 'zod';
import { messages } from './messages.ts';
import { pastDate } from './waiver.ts';

/** Birthday party booking (SPEC.md points 2–5, 7). Dates are YYYY-MM-DD. */
export const partyQuery = z.object({ authhash: z.string().max(200).default('') });

/** GET /api/v1/birthday-party/booking/load-calendar: `calendar` is a JSON string keyed by date. */
export const calendarResponse = z.object({ calendar: z.string() });
export type CalendarDays = Record<string, { available: number }>;

/** GET /api/v1/birthday-party/booking/slot-capacity: the free slots of a date and their most guests. */
export const slotCapacityResponse = z.object({
  slots: z.array(
    z.object({ id: z.number(), name: z.string(), time: z.string(), duration_minutes: z.number() }),
  ),
  capacity: z.record(z.string(), z.number()),
});
export type SlotCapacityResponse = z.infer<typeof slotCapacityResponse>;

/** The birthday child: an existing child by id, or a new one. */
export const partyStudent = z.object({
  id: z.coerce.number().int().positive().optional(),
  first_name: z.string().trim().max(80).optional().default(''),
  last_name: z.string().trim().max(80).optional().default(''),
  dob: z.string().max(10).optional().default(''),
});

/** SPEC.md point 5: a child selected, or first name, last name and dob filled. */
export function partyStudentError(student: z.infer<typeof partyStudent> | undefined): string | null {
  if (!student) return messages.partyChildRequired;
  if (student.id !== undefined) return null;
  if (!student.first_name || !student.last_name || !/^\d{4}-\d{2}-\d{2}$/.test(student.dob))
    return messages.partyChildRequired;
  // A real date that is not in the future (issue 21 point 9), said as the child forms say it.
  const dob = pastDate.safeParse(student.dob);
  return dob.success ? null : (dob.error.issues[0]?.message ?? messages.partyChildRequired);
}

/** POST /api/v1/birthday-party/booking/checkout (SPEC.md point 3, plus what is booked). */
export const partyCheckoutRequest = z.object({
  slot_id: z.coerce.number().int().positive(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Please choose a date.'),
  quantity: z.coerce.number().int().min(1).max(500),
  /** Charged now (deposit plus surcharge), cents. */
  amount: z.coerce.number().int().min(0),
  surcharge: z.coerce.number().int().min(0).default(0),
  deposit: z.coerce.number().int().min(0).default(0),
  discount_amount: z.coerce.number().int().min(0).default(0),
  discount_reason: z.string().max(200).optional().default(''),
  coupon_code: z.string().trim().max(40).optional().default(''),
  nsw_coupon_code: z.string().trim().max(40).optional().default(''),
  student: partyStudent.optional(),
  accept_terms: z.literal(true, messages.acceptTerms),
});
export type PartyCheckoutRequest = z.infer<typeof partyCheckoutRequest>;

/** Guests of a party (the update-guest form): up to this many rows. */
export const GUEST_ROWS = 10;
