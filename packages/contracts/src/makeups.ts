import { z } from 'zod';

/**
 * The parent's classes, absences and makeups (SPEC students/classes and students/absence-day).
 * Dates are YYYY-MM-DD and times HH:MM in the company's time zone. Every call answers only the
 * signed-in parent's own children; another family's or company's ids answer 404.
 */

const id = z.coerce.number().int().positive().max(2_147_483_647);

/** A class a child is enrolled in this term or a later one. */
export const myClass = z.object({
  enrolment_id: z.number(),
  class_name: z.string(),
  class_type: z.string(),
  level: z.string().nullable(),
  /** ISO weekday, 1 Monday … 7 Sunday. */
  weekday: z.number(),
  start_time: z.string(),
  end_time: z.string(),
  venue: z.string().nullable(),
  coach: z.string().nullable(),
  term: z.string(),
  term_start: z.string(),
  term_end: z.string(),
});
export type MyClass = z.infer<typeof myClass>;

/** `coming`: expected; `absent`: marked absent; `cancelled`: the gym cancelled the session. */
export const SESSION_STATES = ['coming', 'absent', 'cancelled'] as const;

/** One upcoming session of a child: of a class they are enrolled in, or a makeup (or trial) place. */
export const mySession = z.object({
  session_id: z.number(),
  /** The place: the class enrolment, or the one-session makeup/trial/casual place. */
  enrolment_id: z.number(),
  kind: z.enum(['enrolled', 'trial', 'makeup', 'casual']),
  class_name: z.string(),
  date: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  venue: z.string().nullable(),
  state: z.enum(SESSION_STATES),
  cancel_reason: z.string().nullable(),
  /** Still before the absence cutoff: an absence can be marked or undone, a makeup cancelled. */
  changeable: z.boolean(),
});
export type MySession = z.infer<typeof mySession>;

/** A makeup credit in a child's wallet; `expired` ones are shown greyed and can no longer be used. */
export const makeupCredit = z.object({
  id: z.number(),
  reason: z.enum(['absence', 'cancelled']),
  class_type: z.string(),
  level: z.string().nullable(),
  /** The session missed. */
  missed_date: z.string(),
  expires_on: z.string(),
  expired: z.boolean(),
});
export type MakeupCredit = z.infer<typeof makeupCredit>;

export const myClassesChild = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  classes: z.array(myClass),
  sessions: z.array(mySession),
  /** Unused credits, earliest expiry first (recently expired ones included, flagged). */
  credits: z.array(makeupCredit),
});
export type MyClassesChild = z.infer<typeof myClassesChild>;

/** GET /api/v1/students/classes. */
export const myClassesResponse = z.object({
  today: z.string(),
  /** Absences close this many hours before a session starts. */
  cutoff_hours: z.number(),
  children: z.array(myClassesChild),
});
export type MyClassesResponse = z.infer<typeof myClassesResponse>;

/** POST /api/v1/students/classes/sessions/:id/absence and …/absence/undo. */
export const absenceRequest = z.object({ child_id: id });
export type AbsenceRequest = z.infer<typeof absenceRequest>;

/** GET /api/v1/students/classes/makeup-options?child_id=: sessions the child's credits can book. */
export const makeupOptionsQuery = z.object({ child_id: id });
export const makeupOption = z.object({
  session_id: z.number(),
  class_name: z.string(),
  date: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  venue: z.string().nullable(),
  coach: z.string().nullable(),
  places_left: z.number(),
});
export type MakeupOption = z.infer<typeof makeupOption>;
export const makeupOptionsResponse = z.object({ sessions: z.array(makeupOption) });
export type MakeupOptionsResponse = z.infer<typeof makeupOptionsResponse>;

/** POST /api/v1/students/classes/makeups: books a makeup place with the earliest-expiring credit. */
export const makeupBookingRequest = z.object({ child_id: id, session_id: id });
export type MakeupBookingRequest = z.infer<typeof makeupBookingRequest>;

/** Answers of the absence and makeup calls (shown as they are). */
export const makeupMessages = {
  absenceMarked: 'The absence has been recorded.',
  absenceCredited: 'The absence has been recorded and a makeup credit added.',
  absenceUndone: 'The absence has been undone.',
  capReached: (cap: number) =>
    `The absence has been recorded. No makeup credit was added: this class allows ${cap} ${cap === 1 ? 'makeup' : 'makeups'} per term.`,
  tooLate: (hours: number) =>
    `It is too late to change this session online: changes close ${hours} ${hours === 1 ? 'hour' : 'hours'} before the class starts. Please contact us.`,
  cancelledSession: 'This session was cancelled by the gym.',
  notAbsent: 'This child is not marked absent for this session.',
  creditUsed: 'The makeup credit of this absence has already been used, so the absence cannot be undone.',
  noCredit: 'There is no makeup credit that can be used for this session.',
  unavailable: 'This session cannot be booked as a makeup.',
  full: 'Sorry, this session is full. Please choose another.',
  alreadyIn: 'This child is already booked into this session.',
  makeupBooked: 'The makeup has been booked.',
  makeupCancelled: 'The makeup has been cancelled and the credit returned.',
} as const;
