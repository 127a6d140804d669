import { CHECK_WARNING_DAYS } from '@tumble/contracts/coaches';
import { DASHBOARD_COVER_LIMIT, type DashboardResponse } from '@tumble/contracts/dashboard';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { type Permission, roleHas } from '../../platform/permissions.ts';
import { readTogether } from '../../platform/reads.ts';
import { addDays, mondayOf, todayIn, zonedInstant } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { overdueInvoiceTotals } from '../billing/dashboard-reads.service.ts';
import { openEventInvitations } from '../bookings/dashboard-reads.service.ts';
import { sessionsNeedingCover } from '../classes/cover.service.ts';
import { openClassOffers, placesTakenSince, termFillRate } from '../classes/dashboard-reads.service.ts';
import { rollDay } from '../classes/roll.service.ts';
import { checksDue } from '../coaches/coaches.service.ts';
import { openAnomalyCount } from '../registration/anomalies.service.ts';
import { myOpenTasks } from '../tasks/tasks.service.ts';

type Viewer = Pick<AuthContext, 'tenant' | 'userId' | 'role'>;

/**
 * Who sees which card: the permission of the page the card links to, so a card never sends
 * somebody to a page that refuses them. A coach holds none of these: they see today's sessions
 * they coach (the roll's own scoping) and their own tasks.
 */
const cardAccess = {
  cover: 'classes.write',
  checks: 'coaches.read',
  overdueInvoices: 'billing.read',
  thisWeek: 'classes.write',
  classOffers: 'classes.write',
  eventOffers: 'bookings.write',
  anomalies: 'classes.write',
  fillRate: 'classes.write',
} as const satisfies Record<string, Permission>;

/** Runs `read` when the viewer may see its card; null otherwise (no query at all). */
function when<T>(viewer: Viewer, card: keyof typeof cardAccess, read: () => Promise<T>) {
  return () => (roleHas(viewer.role, cardAccess[card]) ? read() : Promise.resolve(null));
}

/**
 * GET /api/v1/admin/dashboard: every card in one answer. After the company's today (one read),
 * the cards' reads run side by side on the pool, each its own tenant-scoped query.
 */
export async function dashboardOf(db: Db, viewer: Viewer): Promise<DashboardResponse> {
  const { tenant } = viewer;
  const { timeZone } = await companyOf(db, tenant);
  const today = todayIn(timeZone);
  const monday = mondayOf(today);
  const [roll, myTasks, cover, checks, overdue, thisWeek, classOffers, eventOffers, anomalies, fill] =
    await readTogether(db, [
      () => rollDay(db, viewer, today),
      () => myOpenTasks(db, tenant, viewer.userId),
      when(viewer, 'cover', () => sessionsNeedingCover(db, tenant, today)),
      when(viewer, 'checks', () => checksDue(db, tenant, today, addDays(today, CHECK_WARNING_DAYS))),
      when(viewer, 'overdueInvoices', () => overdueInvoiceTotals(db, tenant)),
      when(viewer, 'thisWeek', () => placesTakenSince(db, tenant, zonedInstant(monday, '00:00', timeZone))),
      when(viewer, 'classOffers', () => openClassOffers(db, tenant)),
      when(viewer, 'eventOffers', () => openEventInvitations(db, tenant)),
      when(viewer, 'anomalies', () => openAnomalyCount(db, tenant)),
      when(viewer, 'fillRate', () => termFillRate(db, tenant, today)),
    ]);
  return {
    today,
    sessions: roll.sessions,
    cover: cover && {
      count: cover.length,
      next: cover.slice(0, DASHBOARD_COVER_LIMIT).map((c) => ({
        session_id: c.sessionId,
        class_name: c.className,
        date: c.date,
        start_time: c.startTime,
        coach_name: c.coachName,
      })),
    },
    checks: checks
      ? checks.map((c) => ({
          coach_id: c.coachId,
          name: c.name,
          wwcc_number: c.wwccNumber,
          expires_on: c.expiresOn,
          expired: c.expired,
        }))
      : null,
    overdue_invoices: overdue,
    this_week: thisWeek && { since: monday, ...thisWeek },
    waitlist_offers:
      classOffers === null && eventOffers === null
        ? null
        : { classes: classOffers ?? 0, events: eventOffers ?? 0 },
    open_anomalies: anomalies,
    my_tasks: myTasks,
    fill_rate: fill && {
      term_id: fill.termId,
      term_name: fill.termName,
      places: fill.places,
      capacity: fill.capacity,
    },
  };
}
