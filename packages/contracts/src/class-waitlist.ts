import { z } from 'zod';
import { CHILDREN_MAX } from './registration.ts';

/**
 * The class waitlist and held places (issue 14): a parent joins a full class's waitlist from the
 * registration page, and takes up a held place (a waitlist offer, a trial's "Enrol" link, a
 * rollover confirmation) on `/registration/accept/?token=<hold token>&authhash=…`.
 */

const id = z.coerce.number().int().positive().max(2_147_483_647);

/** POST /api/v1/registration/waitlist?authhash: the signed-in parent waits for a full class. */
export const joinWaitlistRequest = z.object({
  f: z.string().trim().min(1, 'Please choose a registration form.').max(100),
  term_class_id: id,
  children: z.array(id).min(1, 'Please choose at least one child.').max(CHILDREN_MAX),
  /** Several children: take any number of places that free up, not only all of them together. */
  any_number: z.boolean().default(false),
});
export type JoinWaitlistRequest = z.infer<typeof joinWaitlistRequest>;

export const joinWaitlistResponse = z.object({ ids: z.array(z.number()), message: z.string() });
export type JoinWaitlistResponse = z.infer<typeof joinWaitlistResponse>;

export const holdQuery = z.object({
  token: z.string().max(100).default(''),
  authhash: z.string().max(200).default(''),
});

/** GET /api/v1/registration/holds?token&authhash: the places a link holds for the signed-in parent. */
export const heldPlacesResponse = z.object({
  /**
   * `open`: can be paid for; `paying`: a checkout started with the link is paying; `taken`: already
   * paid; `closed`: declined, lapsed or released.
   */
  status: z.enum(['open', 'paying', 'taken', 'closed']),
  /** Why it cannot be taken up, when it is not open. */
  message: z.string().nullable(),
  held_for: z.string().nullable(),
  expires_at: z.string().nullable(),
  /** In the company's time zone: '25 Nov 2026, 4:05 pm'. */
  expires_display: z.string().nullable(),
  places: z.array(
    z.object({
      enrolment_id: z.number(),
      child_id: z.number(),
      child_name: z.string(),
      term_class_id: z.number(),
      class_name: z.string(),
      /** 'Tuesdays 4:00 pm – 5:00 pm'. */
      when: z.string(),
      /** DD/MM/YYYY. */
      first_session: z.string(),
    }),
  ),
  /** The registration form to pay through (its payment terms and questions); null when none is published. */
  form_key: z.string().nullable(),
});
export type HeldPlacesResponse = z.infer<typeof heldPlacesResponse>;

/** POST /api/v1/registration/holds/release?authhash: "No thanks". */
export const releaseHoldRequest = z.object({ token: z.string().min(1).max(100) });
export const releaseHoldResponse = z.object({ message: z.string() });
export type ReleaseHoldResponse = z.infer<typeof releaseHoldResponse>;
