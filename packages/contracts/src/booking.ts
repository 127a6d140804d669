import { z } from 'zod';
import { CELL_PATTERN, decodeCell, QUANTITY_MAX, QUANTITY_MIN } from './booking-codes.ts';
import { messages } from './messages.ts';
import { pastDate } from './waiver.ts';

/** Event booking (SPEC.md points 2–5, 7); the plain values (codes, quantities) are in booking-codes.ts. */
export {
  CELL_PATTERN,
  decodeCell,
  decodeEventCode,
  encodeCell,
  encodeEventCode,
  PAYMENT_CANCELLED,
  QUANTITY_MAX,
  QUANTITY_MIN,
} from './booking-codes.ts';

export const cellSchema = z
  .string()
  .regex(CELL_PATTERN, 'Invalid session day.')
  // The pattern has just matched, so the cell decodes.
  .transform((v) => decodeCell(v)!);

export const bookingQuery = z.object({
  e: z.string().max(200).default(''),
  authhash: z.string().max(200).default(''),
});

export const bookingEvent = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  age_start: z.number(),
  age_end: z.number(),
  intro: z.string().nullable(),
  full: z.string().nullable(),
  Contacts: z.array(
    z.object({ name: z.string(), email: z.string().nullable(), phone: z.string().nullable() }),
  ),
  Venue: z
    .object({
      name: z.string(),
      address: z.string().nullable(),
      suburb: z.string().nullable(),
      postcode: z.string().nullable(),
    })
    .nullable(),
  Downloads: z.array(z.object({ name: z.string(), file: z.string() })),
  Sessions: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      start_date: z.string(),
      end_date: z.string(),
      start_time: z.string(),
      end_time: z.string(),
    }),
  ),
  cutoff_days_before: z.number(),
  cut_off_day: z.boolean(),
  cutoff_time: z.string().nullable(),
});
export type BookingEvent = z.infer<typeof bookingEvent>;

/** GET /api/v1/booking: the event and booking settings. */
export const bookingPageResponse = z.object({
  event: bookingEvent,
  settings: z.object({
    booking_fee: z.number(),
    daily_insurance_id: z.number().nullable(),
    quantity_max: z.number(),
    hold_minutes: z.number(),
    currency: z.string(),
  }),
  company: z.object({ name: z.string(), logo: z.string().nullable() }),
  /** False when no session-day can be booked or waitlisted: Book Now is disabled. */
  bookable: z.boolean(),
});
export type BookingPageResponse = z.infer<typeof bookingPageResponse>;

export const cellStatus = z.enum(['bookable', 'full', 'expired']);
export type CellStatus = z.infer<typeof cellStatus>;

/** GET /api/v1/booking/sessions: availability per date per session. Dates without sessions are absent (empty cells). */
export const sessionsResponse = z.object({
  event_id: z.number(),
  today: z.string(),
  days: z.record(
    z.string(),
    z.array(
      z.object({
        session_id: z.number(),
        name: z.string(),
        start_time: z.string(),
        end_time: z.string(),
        status: cellStatus,
        available: z.number(),
        price: z.number().nullable(),
      }),
    ),
  ),
});
export type SessionsResponse = z.infer<typeof sessionsResponse>;

export const insuranceType = z.enum(['daily_insurance', 'full_insurance']);

/** A child at checkout: an existing one by id, or a new one. */
export const checkoutChild = z.object({
  id: z.coerce.number().int().positive().optional(),
  first_name: z.string().trim().max(80).optional().default(''),
  last_name: z.string().trim().max(80).optional().default(''),
  dob: z.string().max(10).optional().default(''),
  consent: z.coerce.number().int().min(0).max(1).optional().default(0),
  insurance_type: insuranceType.optional(),
  insurance_ids: z.array(z.coerce.number().int().positive()).max(20).optional().default([]),
});
export type CheckoutChild = z.infer<typeof checkoutChild>;

/**
 * The checkout rules of SPEC.md point 5 with point 8's messages, shared by the checkout form and
 * the server. `booked` tells whether insurance must be chosen (when the company offers any).
 */
export function childrenErrors(
  children: CheckoutChild[],
  booked: boolean,
  options: {
    /** False when the company sells no insurance at all: nothing to choose, nothing asked. */
    insuranceOffered?: boolean;
    /**
     * Existing children with nothing left to buy: they hold every full-cover product and no daily
     * product is offered, so they are booked without an insurance choice.
     */
    fullyCovered?: readonly number[];
  } = {},
): string[] {
  const errors: string[] = [];
  const ids = children.map((c) => c.id).filter((id): id is number => id !== undefined);
  if (new Set(ids).size !== ids.length) errors.push(messages.childrenUnique);
  let position = 0;
  for (const child of children) {
    if (child.id !== undefined) continue;
    position++;
    if (!child.first_name || !child.last_name || !child.dob)
      errors.push(messages.newChildIncomplete(position));
    // A real past date: no 2025-02-30 and no date of birth in the future (issue 21 point 9).
    else if (!pastDate.safeParse(child.dob).success) errors.push(messages.newChildDobInvalid(position));
  }
  // A company that sells no insurance cannot ask for a choice.
  if (booked && options.insuranceOffered !== false) {
    for (const child of children) {
      if (child.id !== undefined && options.fullyCovered?.includes(child.id)) continue;
      if (
        !child.insurance_type ||
        (child.insurance_type === 'full_insurance' && child.insurance_ids.length === 0)
      ) {
        errors.push(messages.selectInsurance);
        break;
      }
    }
  }
  return errors;
}

/** GET /api/v1/calculate-charges-summary, event form (SPEC.md point 7). */
export const eventChargesQuery = z.object({
  authhash: z.string().max(200).default(''),
  type_of_registration: z.literal('event'),
  event_id: z.coerce.number().int().positive(),
  quantity: z.coerce.number().int().min(QUANTITY_MIN).max(QUANTITY_MAX),
  /** Cells `event|session|date`, comma separated or repeated. */
  booked: z.union([z.string(), z.array(z.string())]).optional(),
  coupon_code: z.string().trim().max(40).optional(),
  nsw_coupon_code: z.string().trim().max(40).optional(),
  students: z
    .array(
      z.object({
        insurance_type: insuranceType.optional(),
        insurance_ids: z.array(z.coerce.number().int()).optional(),
      }),
    )
    .optional(),
});

export const pricingDetail = z.object({
  label: z.string(),
  description: z.string(),
  value: z.number(),
  formatted: z.string(),
});
export const chargesResponse = z.object({
  pricing_details: z.record(z.string(), pricingDetail),
  additional_information: z.object({
    coupon_code: z.string().nullable(),
    /** What the coupon field's code is: a coupon or a promotional code (a public campaign code). */
    coupon_kind: z.enum(['coupon', 'promotional']).nullable().optional(),
    nsw_coupon_code: z.string().nullable(),
  }),
  errors: z.object({
    invalid_coupon_code_message: z.string().optional(),
    invalid_nsw_coupon_code_message: z.string().optional(),
  }),
});
export type ChargesResponse = z.infer<typeof chargesResponse>;

/** POST /api/v1/booking/checkout (SPEC.md point 3, plus the selection it pays for). */
export const eventCheckoutRequest = z.object({
  event_id: z.coerce.number().int().positive(),
  quantity: z.coerce.number().int().min(QUANTITY_MIN).max(QUANTITY_MAX),
  booked: z.array(z.string().max(40)).max(400).default([]),
  waiting: z.array(z.string().max(40)).max(400).default([]),
  children: z.array(checkoutChild).min(1).max(QUANTITY_MAX),
  booking_fee: z.coerce.number().int().min(0).default(0),
  amount: z.coerce.number().int().min(0),
  surcharge: z.coerce.number().int().min(0).default(0),
  insurance: z.coerce.number().int().min(0).default(0),
  discount_amount: z.coerce.number().int().min(0).default(0),
  discount_reason: z.string().max(200).optional().default(''),
  coupon_code: z.string().trim().max(40).optional().default(''),
  nsw_coupon_code: z.string().trim().max(40).optional().default(''),
  accept_terms: z.literal(true, messages.acceptTerms),
  /** A waitlist invitation being taken up (its token), whose held places this checkout may use. */
  invitation: z.string().max(100).optional(),
  booking_hash: z.string().max(100).optional(),
});
export type EventCheckoutRequest = z.infer<typeof eventCheckoutRequest>;

/** The checkout response of SPEC.md point 3. */
export const checkoutResponse = z.object({
  valid: z.boolean(),
  method: z.enum(['stripe', 'square', 'test']).optional(),
  public_key: z.string().optional(),
  /** Stripe Connect: the company's own account, which Stripe.js is created for. */
  stripe_account: z.string().optional(),
  client_secret: z.string().optional(),
  sessionId: z.string().optional(),
  payment_link: z.string().optional(),
  booking_hash: z.string().optional(),
  message: z.string().optional(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponse>;

/** GET /api/v1/admin/events/:id/availability: the staff calendar of an event (sessions × dates). */
export const adminAvailabilityResponse = z.object({
  event: z.object({ id: z.number(), name: z.string(), start_date: z.string(), end_date: z.string() }),
  sessions: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      start_time: z.string(),
      end_time: z.string(),
      capacity: z.number(),
    }),
  ),
  cells: z.array(
    z.object({
      session_id: z.number(),
      date: z.string(),
      status: cellStatus,
      capacity: z.number(),
      /** Confirmed places. */
      booked: z.number(),
      /** Places held by checkouts awaiting payment. */
      held: z.number(),
      /** Places held by open waitlist invitations. */
      invited: z.number(),
      /** Places asked for on the waitlist. */
      waiting: z.number(),
    }),
  ),
});
export type AdminAvailabilityResponse = z.infer<typeof adminAvailabilityResponse>;

/**
 * GET /api/v1/events/wait-list/invitation/{check,accept,decline}?authhash&w&e&b (SPEC.md point 7):
 * whether the invitation stands and, while it is open, the event, session and day the place is for.
 */
export const invitationResponse = z.object({
  valid: z.boolean(),
  message: z.string().optional(),
  redirect: z.string().optional(),
  place: z
    .object({
      event_name: z.string(),
      session_name: z.string(),
      date: z.string(),
      places: z.number(),
      cell: z.string(),
    })
    .optional(),
});
export type InvitationResponse = z.infer<typeof invitationResponse>;
