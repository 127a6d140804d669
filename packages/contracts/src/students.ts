import { z } from 'zod';
import { insuranceType } from './booking.ts';
import { pastDate } from './waiver.ts';

/**
 * The parent's account (role student, SPEC.md points 2 and 3): profile, children, bookings, party
 * bookings, payments with receipts, signed waivers. Every call answers only the signed-in parent's
 * own rows; another parent's ids answer 404.
 */

/** GET/POST /api/v1/students/profile (SPEC.md point 3: User profile). */
export const studentProfile = z.object({
  full_name: z.string().trim().min(1, 'Please enter your full name.').max(120),
  email: z.email('Please enter a valid email address.').max(254),
  phone: z
    .string()
    .trim()
    .max(30)
    .regex(/^[0-9 +()-]*$/, 'Please enter a valid phone number.')
    .optional()
    .default(''),
});
export type StudentProfile = z.infer<typeof studentProfile>;
export type StudentProfileInput = z.input<typeof studentProfile>;
export const emailTaken = 'Another account already uses this email address.';

/** GET /api/v1/students/children and /children/:id (SPEC.md point 3: Child). */
export const studentChild = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  dob: z.string(),
  consent: z.number(),
  /** The family's usual insurance choice, offered first at checkout ('' when none). */
  insurance_type: z.union([insuranceType, z.literal('')]),
  medical_notes: z.string(),
  allergies: z.string(),
  emergency_contacts: z.array(z.object({ name: z.string(), relationship: z.string(), phone: z.string() })),
  school: z.string(),
});
export type StudentChild = z.infer<typeof studentChild>;

/** Someone to call about a child when the parent cannot be reached. */
export const emergencyContact = z.object({
  name: z.string().trim().min(1, 'Please enter the contact’s name.').max(120),
  relationship: z.string().trim().max(60).optional().default(''),
  phone: z
    .string()
    .trim()
    .min(1, 'Please enter the contact’s phone number.')
    .max(30)
    .regex(/^[0-9 +()-]*$/, 'Please enter a valid phone number.'),
});
export type EmergencyContact = z.infer<typeof emergencyContact>;
export const MAX_EMERGENCY_CONTACTS = 3;

/**
 * A child's profile: the one schema the parent's child form and the staff Students screen both
 * edit with. `consent` is the child's photo consent (SPEC.md point 3), labelled so on both screens.
 */
export const childProfileForm = z.object({
  first_name: z.string().trim().min(1, 'Please enter the first name.').max(80),
  last_name: z.string().trim().min(1, 'Please enter the last name.').max(80),
  dob: pastDate,
  consent: z.coerce.number().int().min(0).max(1).optional().default(0),
  medical_notes: z.string().trim().max(1000).optional().default(''),
  allergies: z.string().trim().max(1000).optional().default(''),
  emergency_contacts: z
    .array(emergencyContact)
    .max(MAX_EMERGENCY_CONTACTS, `Please give at most ${MAX_EMERGENCY_CONTACTS} emergency contacts.`)
    .optional()
    .default([]),
  school: z.string().trim().max(120).optional().default(''),
});
export type ChildProfileForm = z.infer<typeof childProfileForm>;
export type ChildProfileFormInput = z.input<typeof childProfileForm>;

/** POST /api/v1/students/children (add) and /children/:id (edit): the profile and the usual insurance. */
export const studentChildForm = childProfileForm.extend({
  insurance_type: z
    .union([insuranceType, z.literal('')])
    .optional()
    .default(''),
});
export type StudentChildForm = z.infer<typeof studentChildForm>;
export type StudentChildFormInput = z.input<typeof studentChildForm>;

const waiverState = z.enum(['signed', 'needed', 'none']);

/** GET /api/v1/students/my-bookings: the parent's event bookings, newest first. */
export const myBookingsResponse = z.array(
  z.object({
    id: z.number(),
    reference: z.string(),
    /** The short reference to quote (BK-7F3K2); `reference` is the secret of the booking's links. */
    code: z.string(),
    event_name: z.string(),
    status: z.enum(['pending', 'confirmed', 'cancelled', 'expired', 'refund_due']),
    created_at: z.string(),
    /** The day it was booked in the company's time zone, YYYY-MM-DD (not the browser's). */
    booked_on: z.string(),
    /** Cents. */
    total: z.number(),
    places: z.number(),
    /** The booked session-days; a parent may cancel one (self-service cancellation). */
    sessions: z.array(z.object({ session_id: z.number(), name: z.string(), date: z.string() })),
    children: z.array(
      z.object({
        id: z.number(),
        first_name: z.string(),
        last_name: z.string(),
        /** 'none': the company has no event waiver. */
        waiver: waiverState,
      }),
    ),
    payment: z
      .object({ id: z.number(), status: z.string(), amount: z.number(), paid_at: z.string().nullable() })
      .nullable(),
    /** The page that signs the missing waivers; null when none is missing. */
    waiver_link: z.string().nullable(),
  }),
);
export type MyBookings = z.infer<typeof myBookingsResponse>;

/**
 * GET /api/v1/students/my-waitlist: the parent's open waitlist entries (waiting, or invited to
 * book a freed place), by day. POST /api/v1/students/my-waitlist/:id/leave leaves one.
 */
export const myWaitlistResponse = z.array(
  z.object({
    id: z.number(),
    event_name: z.string(),
    session_name: z.string(),
    /** YYYY-MM-DD, the company's calendar day. */
    date: z.string(),
    places: z.number(),
    status: z.enum(['waiting', 'invited']),
    /** Place in the queue for that session-day (1 = next); null once invited. */
    position: z.number().nullable(),
  }),
);
export type MyWaitlist = z.infer<typeof myWaitlistResponse>;

/** GET /api/v1/students/my-party-bookings, newest first. */
export const myPartyBookingsResponse = z.array(
  z.object({
    id: z.number(),
    reference: z.string(),
    /** The short reference to quote (BP-7F3K2); `reference` is the secret of the guest and waiver links. */
    code: z.string(),
    date: z.string(),
    slot_name: z.string(),
    time: z.string(),
    child_name: z.string(),
    status: z.enum(['pending', 'confirmed', 'cancelled', 'expired', 'refund_due']),
    guests: z.number(),
    /** Guests named on the guest list so far. */
    guests_named: z.number(),
    /** Cents. */
    total: z.number(),
    deposit: z.number(),
    balance: z.number(),
    waiver: waiverState,
    waiver_link: z.string().nullable(),
    /** The guest list page; null unless confirmed. */
    update_guests_link: z.string().nullable(),
  }),
);
export type MyPartyBookings = z.infer<typeof myPartyBookingsResponse>;

/** GET /api/v1/students/payments: paid (and refunded) payments; each has a PDF receipt. */
export const myPaymentsResponse = z.array(
  z.object({
    id: z.number(),
    description: z.string(),
    /** Cents. */
    amount: z.number(),
    status: z.string(),
    provider: z.string(),
    paid_at: z.string().nullable(),
    /** The day it was paid in the company's time zone, YYYY-MM-DD; null while unpaid. */
    paid_on: z.string().nullable(),
    /** GET with the session token: application/pdf. */
    receipt_url: z.string(),
  }),
);
export type MyPayments = z.infer<typeof myPaymentsResponse>;

/** GET /api/v1/students/waivers: waivers signed for the parent's children. */
export const myWaiversResponse = z.array(
  z.object({
    id: z.number(),
    child_name: z.string(),
    waiver_title: z.string(),
    version: z.number(),
    signer_name: z.string(),
    signed_at: z.string(),
    /** When it was signed, as the company's clock reads it ('24/11/2026 09:30'). */
    signed_when: z.string(),
    /** GET with the session token: application/pdf. */
    pdf_url: z.string(),
  }),
);
export type MyWaivers = z.infer<typeof myWaiversResponse>;
