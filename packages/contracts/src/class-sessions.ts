import { z } from 'zod';

/** A session as a generation plan shows it: wall-clock date and time in the company's zone. */
export const plannedSession = z.object({
  /** null for a session still to be created. */
  id: z.number().nullable(),
  date: z.iso.date(),
  /** HH:MM, the company's wall-clock time. */
  start_time: z.string(),
  duration_minutes: z.number(),
  /** The instant it starts (ISO, UTC): 4pm stays 4pm across a daylight-saving change. */
  starts_at: z.string(),
  room: z.string().nullable(),
  coach: z.string().nullable(),
});
export type PlannedSession = z.infer<typeof plannedSession>;

/**
 * GET (preview) and POST (apply) /api/v1/admin/term-classes/:id/generate: the difference between
 * the sessions a class has and the ones its weekday, term, closures and restricted dates give.
 * Apply makes exactly the preview's difference, or refuses while `problems` is not empty.
 */
export const sessionGeneration = z.object({
  term_class: z.object({ id: z.number(), name: z.string() }),
  add: z.array(plannedSession),
  /** Sessions whose time, length, room or coach follow the class's new values. */
  update: z.array(plannedSession),
  remove: z.array(plannedSession),
  unchanged: z.array(plannedSession),
  /** Left as they are: changed by hand (moved, cancelled, coach swapped), already past, or in use. */
  kept: z.array(plannedSession.extend({ why: z.enum(['edited', 'past', 'in_use']) })),
  /** Clashes and coaches who cannot be rostered: apply is refused until they are solved. */
  problems: z.array(z.string()),
});
export type SessionGeneration = z.infer<typeof sessionGeneration>;

/** GET / POST /api/v1/admin/terms/:id/generate: every active class of a term at once. */
export const termGeneration = z.object({
  term: z.object({ id: z.number(), name: z.string() }),
  classes: z.array(sessionGeneration),
});
export type TermGeneration = z.infer<typeof termGeneration>;

/**
 * GET (preview) and POST (apply) /api/v1/admin/terms/:id/copy-classes: the previous term's classes
 * created again in this term (same type, weekday, time, room, coaches, capacity).
 */
export const classCopy = z.object({
  from: z.object({ id: z.number(), name: z.string() }).nullable(),
  to: z.object({ id: z.number(), name: z.string() }),
  classes: z.array(
    z.object({
      source_id: z.number(),
      name: z.string(),
      weekday: z.number(),
      start_time: z.string(),
      room: z.string().nullable(),
      coach: z.string().nullable(),
      capacity: z.number(),
      /** `copy`: created by apply; `exists`: the term already has this class, so it is not copied again. */
      outcome: z.enum(['copy', 'exists']),
      /** Why a coach is left off the copy (a check that will have expired), or null. */
      note: z.string().nullable(),
      /** The new class's id once applied. */
      new_id: z.number().nullable(),
    }),
  ),
});
export type ClassCopy = z.infer<typeof classCopy>;
