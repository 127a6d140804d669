import { z } from 'zod';

/**
 * Enrolment day (issue 14): the waiting room in front of a registration form while a term's public
 * enrolment opens. Instants are ISO strings; the page shows them in the company's time zone.
 */

/** A ticket's secret, as the browser keeps it (base64url). */
export const queueToken = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This queue ticket is not valid.');

/** GET /api/v1/registration/queue?f=&authhash=: is this form behind the waiting room now? */
export const queueStatusQuery = z.object({
  f: z.string().min(1).max(100),
  authhash: z.string().max(200).optional(),
});
export const queueStatusResponse = z.object({
  /** True from the waiting room's opening until every queued parent has been let in. */
  queued: z.boolean(),
  /** The opening the form waits for (null: none ahead or running). */
  opens_at: z.string().nullable(),
  /** When the waiting room starts giving tickets (before it, the page is open for browsing). */
  waiting_room_opens_at: z.string().nullable(),
  time_zone: z.string(),
  /** The waiting room's header, as the registration page shows it. */
  company: z.object({ name: z.string(), logo: z.string().nullable() }),
  /** The server's clock, so a countdown does not trust the phone's. */
  now: z.string(),
});
export type QueueStatus = z.infer<typeof queueStatusResponse>;

/** POST /api/v1/registration/queue?authhash=: take a ticket (a new one goes to the back). */
export const takeTicketBody = z.object({ form: z.string().min(1).max(100) });

/** A ticket, as POST answers it and GET /api/v1/registration/queue/:token polls it. */
export const queueTicket = z.object({
  token: z.string(),
  /** Parents ahead plus one while waiting; 0 once let in. */
  position: z.number(),
  admitted: z.boolean(),
  /** Let in, but the window to check out has passed: take a new ticket. */
  expired: z.boolean(),
  opens_at: z.string(),
  /** When this ticket is (or was) let in. */
  admit_at: z.string(),
  /**
   * Families let in per second from the opening: the page counts the place down itself between
   * polls (place = ⌈seconds to admit_at × admit_per_second⌉), so a waiting browser asks rarely.
   */
  admit_per_second: z.number(),
  /** Seconds until it is let in (0 once let in). */
  estimate_seconds: z.number(),
  /** Until when an admitted ticket may check out. */
  admitted_until: z.string(),
  now: z.string(),
});
export type QueueTicket = z.infer<typeof queueTicket>;
