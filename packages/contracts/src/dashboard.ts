import { z } from 'zod';
import { checkDue } from './coaches.ts';
import { rollSession } from './roll.ts';
import { task } from './tasks.ts';

/**
 * GET /api/v1/admin/dashboard (issue 17): what staff act on today, in one answer. A card is null
 * when the viewer's role may not open the page it links to (a coach sees only today's own sessions
 * and their own tasks). Money in cents, dates YYYY-MM-DD in the company's time zone.
 */

/** How many sessions needing cover the card lists (the count covers them all). */
export const DASHBOARD_COVER_LIMIT = 5;

const coverSession = z.object({
  session_id: z.number(),
  class_name: z.string(),
  date: z.string(),
  start_time: z.string(),
  coach_name: z.string(),
});

const offers = z.object({
  /** Class waitlist places offered and not yet taken up, declined or lapsed. */
  classes: z.number(),
  /** Event waitlist invitations still open. */
  events: z.number(),
});

export const dashboardResponse = z.object({
  today: z.string(),
  /** Today's class sessions (a coach: the ones they coach), each with its roll's progress. */
  sessions: z.array(rollSession),
  cover: z.object({ count: z.number(), next: z.array(coverSession) }).nullable(),
  /** Working With Children Checks expired or expiring within 30 days. */
  checks: z.array(checkDue).nullable(),
  overdue_invoices: z.object({ count: z.number(), amount: z.number() }).nullable(),
  /** Places taken since Monday: full enrolments and trials (active, made this week). */
  this_week: z.object({ since: z.string(), enrolments: z.number(), trials: z.number() }).nullable(),
  waitlist_offers: offers.nullable(),
  open_anomalies: z.number().nullable(),
  /** The viewer's open tasks: theirs and their role's (features/tasks `myOpenTasks`). */
  my_tasks: z.array(task),
  /** The term running today: full-enrolment places taken against the classes' capacity. */
  fill_rate: z
    .object({ term_id: z.number(), term_name: z.string(), places: z.number(), capacity: z.number() })
    .nullable(),
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;
