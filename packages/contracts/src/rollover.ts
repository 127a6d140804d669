import { z } from 'zod';

/**
 * Re-enrolment (SPEC students/re-enroll): staff roll term A's enrolled places into term B. The
 * dry run and the commit share one computation, so what the preview shows is what commit holds.
 */

/** What happens to one enrolment of term A: held in term B, already held by a live run, or why not. */
export const rolloverOutcome = z.enum([
  'hold',
  'already_held',
  'not_offered',
  'full',
  'ages_out',
  'unpaid',
  'already_enrolled',
]);
export type RolloverOutcome = z.infer<typeof rolloverOutcome>;

/** The words staff read for each conflict. */
export const rolloverConflictLabels: Record<Exclude<RolloverOutcome, 'hold' | 'already_held'>, string> = {
  not_offered: 'Class not offered',
  full: 'Class full',
  ages_out: 'Child ages out',
  unpaid: 'Unpaid balance',
  already_enrolled: 'Already enrolled',
};

export const rolloverRequest = z.object({
  to_term_id: z.coerce
    .number('Please choose the term to roll into.')
    .int('Please choose the term to roll into.')
    .positive('Please choose the term to roll into.')
    .max(2_147_483_647, 'Please choose the term to roll into.'),
  /** The last day of the priority window, in the company's time zone. */
  deadline_date: z.iso.date('Please choose the deadline.'),
  /** HH:MM on that day, company time zone. */
  deadline_time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Please choose the deadline time.'),
});
export type RolloverRequest = z.infer<typeof rolloverRequest>;

const classRef = z.object({
  id: z.number(),
  name: z.string(),
  /** ISO weekday 1 Monday … 7 Sunday. */
  weekday: z.number(),
  /** HH:MM. */
  start_time: z.string(),
});

export const rolloverPlanItem = z.object({
  enrolment_id: z.number(),
  child: z.object({ id: z.number(), name: z.string() }),
  from_class: classRef,
  /** The class of term B it moves to; null when none matches. */
  to_class: classRef.nullable(),
  outcome: rolloverOutcome,
});
export type RolloverPlanItem = z.infer<typeof rolloverPlanItem>;

const termRef = z.object({ id: z.number(), name: z.string() });

/** POST /api/v1/admin/terms/:id/rollovers/preview: the dry run, nothing written. */
export const rolloverPlan = z.object({
  from: termRef,
  to: termRef,
  /** ISO instant. */
  deadline: z.string(),
  /** The deadline as the company's clock shows it: '20 Apr 2030, 6:00 pm'. */
  deadline_display: z.string(),
  items: z.array(rolloverPlanItem),
  totals: z.object({
    enrolments: z.number(),
    hold: z.number(),
    already_held: z.number(),
    conflicts: z.number(),
  }),
});
export type RolloverPlan = z.infer<typeof rolloverPlan>;

export const rolloverItemState = z.enum(['held', 'confirmed', 'released', 'undone']);
export type RolloverItemState = z.infer<typeof rolloverItemState>;

/** GET /api/v1/admin/rollovers/:id: a run, its progress and its places' states (read from the places). */
export const rolloverRun = z.object({
  id: z.number(),
  from: termRef,
  to: termRef,
  deadline: z.string(),
  deadline_display: z.string(),
  status: z.enum(['running', 'done', 'undone']),
  total: z.number(),
  done: z.number(),
  created_at: z.string(),
  undone_at: z.string().nullable(),
  can_undo: z.boolean(),
  counts: z.object({ held: z.number(), confirmed: z.number(), released: z.number(), undone: z.number() }),
  items: z.array(
    z.object({
      id: z.number(),
      child: z.object({ id: z.number(), name: z.string() }),
      to_class: classRef,
      state: rolloverItemState,
    }),
  ),
});
export type RolloverRun = z.infer<typeof rolloverRun>;

/** GET /api/v1/admin/terms/:id/rollovers: the terms it can roll into and its runs so far. */
export const termRollovers = z.object({
  term: termRef,
  next_terms: z.array(termRef.extend({ start_date: z.string() })),
  runs: z.array(
    z.object({
      id: z.number(),
      to: termRef,
      deadline: z.string(),
      deadline_display: z.string(),
      status: z.enum(['running', 'done', 'undone']),
      total: z.number(),
      done: z.number(),
      created_at: z.string(),
    }),
  ),
});
export type TermRollovers = z.infer<typeof termRollovers>;

/** GET /api/v1/students/re-enrol: the family's places held for them in the priority window. */
export const myReEnrolment = z.object({
  holds: z.array(
    z.object({
      token: z.string(),
      term: z.string(),
      /** ISO instant; shown in the company's time zone. */
      deadline: z.string(),
      deadline_display: z.string(),
      /** The accept page: confirm and pay. */
      confirm_url: z.string(),
      places: z.array(
        z.object({
          enrolment_id: z.number(),
          child: z.string(),
          class_name: z.string(),
          weekday: z.number(),
          start_time: z.string(),
          starts_on: z.string().nullable(),
        }),
      ),
    }),
  ),
});
export type MyReEnrolment = z.infer<typeof myReEnrolment>;

export const releaseRequest = z.object({ token: z.string().min(1).max(200) });
