import { z } from 'zod';

/**
 * Waivers (SPEC.md points 2, 4, 7 and 8). Three public pages share one flow:
 * `/event-booking/waiver/?id&authhash` (id: the booking's reference; one waiver per child of the
 * booking), `/birthday-party/waiver/?id&authhash` (id: the party booking's reference for the
 * birthday child, or a guest's waiver token for that guest) and `/registration/waiver/?id&authhash`
 * (id: a class enrolment purchase's reference; one waiver per child of the purchase).
 *
 * The page loads the form (GET …/waiver), then for the next person still needing a waiver asks
 * the check call; a waiver signed earlier for the same child and the same template version is
 * marked used for this booking (GET …/waiver/mark), otherwise the form is signed (POST …/waiver).
 */
export const waiverKinds = ['event', 'party', 'enrolment'] as const;
export type WaiverKind = (typeof waiverKinds)[number];

/** The API prefix and page path of each kind. */
export const waiverPaths: Record<WaiverKind, { api: string; page: string }> = {
  event: { api: '/api/v1/event-booking/waiver', page: '/event-booking/waiver/' },
  party: { api: '/api/v1/birthday-party/waiver', page: '/birthday-party/waiver/' },
  enrolment: { api: '/api/v1/registration/waiver', page: '/registration/waiver/' },
};

/** Words of our own around SPEC's two waiver messages (`messages.waiverFound`, `messages.waiverFailed`). */
export const waiverMessages = {
  invalidLink: 'This waiver link is invalid. Please use the link in your booking email.',
  notNeeded: 'There is no waiver to sign for this booking.',
  allSigned: 'Thank you. Every waiver for this booking is signed.',
  signed: 'Thank you. The waiver is signed.',
  signatureRequired: 'Please sign in the box.',
  agreeRequired: 'Please confirm that you have read and agree to the waiver.',
  notThisChild: 'This waiver does not belong to this child.',
} as const;

const id = z.string().trim().min(1).max(64);
const authhash = z.string().max(200).default('');
/** A person on the booking: a child's id, or for party guests the guest's id. */
const personId = z.coerce.number().int().positive().max(2_147_483_647);

/** GET …/waiver?id&authhash */
export const waiverQuery = z.object({ id, authhash });
export const waiverAuthQuery = z.object({ authhash });

/** Child details a template can ask for beyond name and date of birth. */
export const askFieldOptions = ['medical', 'allergies', 'emergency_contact', 'photo_consent'] as const;
export type AskField = (typeof askFieldOptions)[number];

export const waiverPerson = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  /** 'signed': a waiver covers this booking; 'needed': not yet. */
  status: z.enum(['signed', 'needed']),
  signed_at: z.string().nullable(),
});
export type WaiverPerson = z.infer<typeof waiverPerson>;

/** The form load. `valid` false: the link names nothing of this company (`message` says so). */
export const waiverPageResponse = z.object({
  valid: z.boolean(),
  message: z.string(),
  /** What the waiver is for: the event's name, or "Mia's birthday party". */
  title: z.string(),
  /** The secret the mark call must repeat (the link's id). */
  hash: z.string(),
  /** null: the company has no active waiver for this kind of booking. */
  waiver: z
    .object({
      id: z.number(),
      title: z.string(),
      /** Sanitised staff HTML. */
      body: z.string(),
      version: z.number(),
      ask_fields: z.array(z.enum(askFieldOptions)),
    })
    .nullable(),
  people: z.array(waiverPerson),
});
export type WaiverPageResponse = z.infer<typeof waiverPageResponse>;

/** POST …/waiver/check?authhash */
export const waiverCheckRequest = z.object({ id, child_id: personId });
export const waiverCheckResponse = z.object({
  valid: z.boolean(),
  message: z.string(),
  found: z.boolean(),
  /** The signed waiver found (0 when none). */
  id: z.number(),
});
export type WaiverCheckResponse = z.infer<typeof waiverCheckResponse>;

/** GET …/waiver/mark?authhash&guest_id&hash&waiver_id */
export const waiverMarkQuery = z.object({
  authhash,
  guest_id: personId,
  hash: id,
  waiver_id: personId,
});
export const waiverMarkResponse = z.object({ valid: z.boolean(), message: z.string() });
export type WaiverMarkResponse = z.infer<typeof waiverMarkResponse>;

/** GET …/waiver/child-info?id&authhash&child_id: what the form starts with. */
export const waiverChildInfoQuery = z.object({ id, authhash, child_id: personId });
export const waiverChildInfo = z.object({
  first_name: z.string(),
  last_name: z.string(),
  /** '' when unknown (party guests). */
  dob: z.string(),
  photo_consent: z.boolean(),
  /** The signer's name as we know it ('' when unknown). */
  parent_name: z.string(),
});
export type WaiverChildInfo = z.infer<typeof waiverChildInfo>;

/** Said by the server's rules and the web's date-of-birth input alike. */
export const DOB_IN_FUTURE = 'The date of birth cannot be in the future.';

/** A date of birth: a real YYYY-MM-DD date (no 2025-02-30), not after today anywhere on earth. */
export const pastDate = z.iso
  .date('Please enter a valid date of birth.')
  .refine((day) => day <= new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10), DOB_IN_FUTURE);

/** Largest signature image accepted, in characters of its data URL. */
export const SIGNATURE_MAX_LENGTH = 400_000;
const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;

/** POST …/waiver?authhash: one person's signed waiver. The form and the server parse with this. */
export const waiverSubmitRequest = z.object({
  id,
  child_id: personId,
  first_name: z.string().trim().min(1, 'Please enter the first name.').max(80),
  last_name: z.string().trim().min(1, 'Please enter the last name.').max(80),
  dob: pastDate,
  medical: z.string().trim().max(1000).optional().default(''),
  allergies: z.string().trim().max(1000).optional().default(''),
  emergency_contact: z.string().trim().max(200).optional().default(''),
  photo_consent: z.boolean().optional().default(false),
  signer_name: z.string().trim().min(1, 'Please enter your full name.').max(120),
  signature: z
    .string()
    .max(SIGNATURE_MAX_LENGTH, waiverMessages.signatureRequired)
    .regex(PNG_DATA_URL, waiverMessages.signatureRequired),
  agree: z.literal(true, waiverMessages.agreeRequired),
});
export type WaiverSubmitRequest = z.infer<typeof waiverSubmitRequest>;
export type WaiverSubmitInput = z.input<typeof waiverSubmitRequest>;

/** The staff view of one booking's waivers (custom screen 'booking-waivers'). */
export const adminWaiverStatusQuery = z.object({
  // A booking's or a party's waivers; enrolments have no staff waiver screen yet.
  kind: z.enum(['event', 'party']),
  booking_id: personId,
});
export const adminWaiverStatusResponse = z.object({
  title: z.string(),
  reference: z.string(),
  /** The signing page(s) parents are sent to. */
  links: z.array(z.object({ name: z.string(), url: z.string() })),
  people: z.array(
    z.object({
      name: z.string(),
      /** 'guest' for party guests, 'child' otherwise. */
      role: z.enum(['child', 'guest']),
      status: z.enum(['signed', 'needed']),
      signed_waiver_id: z.number().nullable(),
      signed_at: z.string().nullable(),
      signer_name: z.string().nullable(),
    }),
  ),
});
export type AdminWaiverStatusResponse = z.infer<typeof adminWaiverStatusResponse>;
export const adminWaiverResendRequest = adminWaiverStatusQuery;
export const adminWaiverResendResponse = z.object({ success: z.boolean(), message: z.string() });
