import { z } from 'zod';
import { rollFlag } from './flags.ts';

/** The daily roll of class sessions (issue 13). Dates are YYYY-MM-DD in the company's time zone. */

/** A real calendar date (no 2026-02-30): the roll never asks the database about an impossible day. */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD.')
  .refine((value) => {
    const at = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
  }, 'Enter a real date.');

export const ROLL_STATUSES = ['present', 'absent', 'late', 'excused'] as const;
export const rollStatus = z.enum(ROLL_STATUSES);
export type RollStatus = z.infer<typeof rollStatus>;

export const ENROLMENT_KINDS = ['enrolled', 'trial', 'makeup', 'casual'] as const;

/** One class session on the day's list. */
export const rollSession = z.object({
  id: z.number(),
  class_name: z.string(),
  date: z.string(),
  /** HH:MM, the company's wall clock. */
  start_time: z.string(),
  end_time: z.string(),
  room: z.string().nullable(),
  coach: z.string().nullable(),
  status: z.enum(['scheduled', 'cancelled']),
  cancel_reason: z.string().nullable(),
  /** Children expected, and how many of them have a mark. */
  expected: z.number(),
  marked: z.number(),
});
export type RollSession = z.infer<typeof rollSession>;

/** GET /api/v1/admin/roll?date=: the day's sessions (a coach sees only their own). */
export const rollDayQuery = z.object({ date: calendarDate.optional() });
export const rollDayResponse = z.object({ date: z.string(), sessions: z.array(rollSession) });
export type RollDayResponse = z.infer<typeof rollDayResponse>;

export const rollMark = z.object({
  status: rollStatus,
  note: z.string().nullable(),
  marked_at: z.string(),
});

export const rollChild = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  /** Age on the session's date. */
  age: z.object({ years: z.number(), months: z.number() }),
  /** False: photo consent withheld. */
  photo_consent: z.boolean(),
  medical_notes: z.string().nullable(),
  kind: z.enum(ENROLMENT_KINDS),
  mark: rollMark.nullable(),
  /** The family's autopay failed for good and is still unpaid: a discreet dot for staff (billing). */
  payment_overdue: z.boolean().default(false),
  /** The child's and its family's flags with "show on the roll" on (SPEC flags). */
  flags: z.array(rollFlag).default([]),
});
export type RollChild = z.infer<typeof rollChild>;

/** GET /api/v1/admin/roll/:sessionId: the session and every child expected, with their marks. */
export const rollResponse = z.object({ session: rollSession, children: z.array(rollChild) });
export type RollResponse = z.infer<typeof rollResponse>;

/** POST /api/v1/admin/roll/:sessionId/marks: one tap; the same tap again changes nothing. */
export const rollMarkRequest = z.object({
  child_id: z.coerce.number({ error: 'Choose a child.' }).int().positive().max(2_147_483_647),
  status: z.enum(ROLL_STATUSES, { error: 'Choose present, absent, late or excused.' }),
  /** Absent: the mark keeps its note; '' or null clears it. */
  note: z.string().trim().max(500, 'Keep the note under 500 characters.').nullish(),
});
export type RollMarkRequest = z.input<typeof rollMarkRequest>;

/** "4 yrs 7 mths": an age as the roll shows it. */
export function ageText(age: { years: number; months: number }): string {
  const years = `${age.years} ${age.years === 1 ? 'yr' : 'yrs'}`;
  return age.months === 0 ? years : `${years} ${age.months} ${age.months === 1 ? 'mth' : 'mths'}`;
}
