import { z } from 'zod';

/** A scheduled class session whose coach is on leave that day (GET /api/v1/admin/cover). */
export const coverItem = z.object({
  session_id: z.number(),
  term_class_id: z.number(),
  class_name: z.string(),
  date: z.string(),
  start_time: z.string(),
  duration_minutes: z.number(),
  coach_id: z.number(),
  coach_name: z.string(),
  leave_start: z.string(),
  leave_end: z.string(),
  leave_reason: z.string().nullable(),
});
export type CoverItem = z.infer<typeof coverItem>;
export const coverList = z.object({ data: z.array(coverItem) });

/** POST /api/v1/admin/cover/:id: the substitute who coaches the session instead. */
export const coverAssign = z.object({
  coach_id: z.coerce
    .number('Please choose a substitute coach.')
    .int('Please choose a substitute coach.')
    .positive('Please choose a substitute coach.')
    .max(2_147_483_647, 'Please choose a substitute coach.'),
});

/** A coach's Working With Children Check that expires soon or has expired (GET /api/v1/admin/coach-checks). */
export const checkDue = z.object({
  coach_id: z.number(),
  name: z.string(),
  wwcc_number: z.string().nullable(),
  expires_on: z.string(),
  expired: z.boolean(),
});
export type CheckDue = z.infer<typeof checkDue>;
export const checksDueList = z.object({ data: z.array(checkDue) });

/** How far ahead the dashboard warns about expiring checks. */
export const CHECK_WARNING_DAYS = 30;
