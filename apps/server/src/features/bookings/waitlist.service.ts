import { encodeCell, encodeEventCode } from '@tumble/contracts/booking';
import type { MyWaitlist } from '@tumble/contracts/students';
import { and, asc, count, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { randomToken, sha256 } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { displayDate } from '../../platform/time.ts';
import { companyOf, contactOf } from '../accounts/accounts.service.ts';
import { cellKey } from '../events/availability.ts';
import { eventOf, lockSessions, sessionsByIds } from '../events/events.service.ts';
import { byDayThenTime, eventCells } from './booking.service.ts';
import { waitlistEntries } from './bookings.tables.ts';

/** How long an invitation holds the freed places (Event booking issue: default 48 hours). */
export const INVITATION_HOURS = 48;

/**
 * Offers freed places of an event to the waitlist, first come first served: for each full
 * session-day with people waiting, invites the earliest entries while their places fit. Runs after
 * a release (hold expiry, cancellation, a declined or lapsed invitation) and when capacity rises.
 */
export async function offerFreedPlaces(deps: AppDeps, tenant: Tenant, eventId: number): Promise<number> {
  const { db } = deps.database;
  const waiting = await db
    .selectDistinct({ sessionId: waitlistEntries.sessionId, date: waitlistEntries.date })
    .from(waitlistEntries)
    .where(
      tenant.where(
        waitlistEntries,
        eq(waitlistEntries.eventId, eventId),
        eq(waitlistEntries.status, 'waiting'),
      ),
    );
  if (waiting.length === 0) return 0;
  const invited = await db.transaction(async (tx) => {
    const event = await eventOf(tx, tenant, eventId);
    if (!event) return 0;
    await lockSessions(
      tx,
      tenant,
      waiting.map((w) => w.sessionId),
    );
    const { cells, sessions } = await eventCells(tx, tenant, event);
    const byKey = new Map(cells.map((c) => [cellKey(c.sessionId, c.date), c]));
    const company = await companyOf(tx, tenant);
    let count = 0;
    for (const { sessionId, date } of waiting) {
      const cell = byKey.get(cellKey(sessionId, date));
      if (!cell || cell.status === 'expired') continue;
      let free = cell.available;
      const entries = await tx
        .select()
        .from(waitlistEntries)
        .where(
          tenant.where(
            waitlistEntries,
            eq(waitlistEntries.sessionId, sessionId),
            eq(waitlistEntries.date, date),
            eq(waitlistEntries.status, 'waiting'),
          ),
        )
        .orderBy(asc(waitlistEntries.id))
        .for('update');
      for (const entry of entries) {
        if (entry.places > free) break; // strictly in order: nobody jumps the queue
        const token = randomToken(24);
        await tx
          .update(waitlistEntries)
          .set({
            status: 'invited',
            tokenHash: sha256(token),
            invitedAt: sql`now()`,
            inviteExpiresAt: new Date(Date.now() + INVITATION_HOURS * 3_600_000),
          })
          .where(tenant.byId(waitlistEntries, entry.id));
        free -= entry.places;
        count++;
        const parent = await contactOf(tx, tenant, entry.parentId);
        const session = sessions.find((s) => s.id === sessionId);
        const e = encodeEventCode(tenant.companyId, eventId);
        await queueMail(tx, tenant, deps.config, 'waitlist-invitation', parent.email, {
          name: parent.fullName,
          company: company.name,
          event: event.name,
          session: `${session?.name ?? ''} on ${displayDate(date)}`,
          hours: String(INVITATION_HOURS),
          link: `${deps.config.publicUrl}/events/invitation/confirm/?authhash=${encodeURIComponent(company.authhash)}&w=${token}&e=${e}&b=${entry.id}`,
        });
      }
    }
    return count;
  });
  if (invited > 0) await deps.jobs.nudge(queues.mailDeliver);
  return invited;
}

async function findInvitation(deps: AppDeps, tenant: Tenant, w: string, b: string) {
  const id = Number.parseInt(b, 10);
  if (!w || !Number.isInteger(id)) return null;
  const [entry] = await deps.database.db
    .select()
    .from(waitlistEntries)
    .where(
      tenant.where(waitlistEntries, eq(waitlistEntries.id, id), eq(waitlistEntries.tokenHash, sha256(w))),
    );
  return entry ?? null;
}

const isOpen = (entry: typeof waitlistEntries.$inferSelect | null) =>
  entry !== null &&
  entry.status === 'invited' &&
  entry.inviteExpiresAt !== null &&
  entry.inviteExpiresAt.getTime() > Date.now();

export const INVITATION_CLOSED = 'This invitation is no longer open.';

/**
 * GET .../invitation/check: is the invitation still open? An open one says which event, session and
 * day the place is for, and the cell the booking page selects after Accept (issue 21 point 4).
 */
export async function checkInvitation(deps: AppDeps, tenant: Tenant, w: string, b: string) {
  const entry = await findInvitation(deps, tenant, w, b);
  if (!isOpen(entry)) return { valid: false, message: INVITATION_CLOSED };
  const place = (await sessionsByIds(deps.database.db, tenant, [entry!.sessionId])).get(entry!.sessionId);
  return {
    valid: true,
    place: {
      event_name: place?.eventName ?? '',
      session_name: place?.name ?? '',
      date: entry!.date,
      places: entry!.places,
      cell: encodeCell(entry!.eventId, entry!.sessionId, entry!.date),
    },
  };
}

/** GET .../invitation/accept: the parent goes on to book; the invitation keeps holding the places until it expires. */
export async function acceptInvitation(
  deps: AppDeps,
  tenant: Tenant,
  q: { w: string; b: string; e: string; authhash: string },
) {
  const entry = await findInvitation(deps, tenant, q.w, q.b);
  if (!isOpen(entry)) return { valid: false, message: INVITATION_CLOSED };
  return {
    valid: true,
    redirect: `/booking?e=${encodeURIComponent(q.e)}&b=${encodeURIComponent(q.b)}&authhash=${encodeURIComponent(q.authhash)}`,
  };
}

/** GET .../invitation/decline: frees the places for the next in line. */
export async function declineInvitation(deps: AppDeps, tenant: Tenant, w: string, b: string) {
  const entry = await findInvitation(deps, tenant, w, b);
  if (!isOpen(entry)) return { valid: false, message: INVITATION_CLOSED };
  const [declined] = await deps.database.db
    .update(waitlistEntries)
    .set({ status: 'declined' })
    .where(tenant.byId(waitlistEntries, entry!.id, eq(waitlistEntries.status, 'invited')))
    .returning();
  if (declined) await offerFreedPlaces(deps, tenant, declined.eventId);
  return { valid: true };
}

/**
 * GET /api/v1/students/my-waitlist: the parent's open entries (waiting or invited), by day, each
 * waiting one with its place in the queue for its session-day (issue 21 point 2).
 */
export async function parentWaitlist(deps: AppDeps, tenant: Tenant, parentId: number): Promise<MyWaitlist> {
  const { db } = deps.database;
  const entries = await db
    .select()
    .from(waitlistEntries)
    .where(
      tenant.where(
        waitlistEntries,
        eq(waitlistEntries.parentId, parentId),
        inArray(waitlistEntries.status, ['waiting', 'invited']),
      ),
    );
  const sessions = await sessionsByIds(
    db,
    tenant,
    entries.map((e) => e.sessionId),
  );
  // By day, then the session's start time, then in the order they were made.
  const own = entries
    .flatMap((entry) => {
      const session = sessions.get(entry.sessionId);
      return session
        ? [
            {
              entry,
              eventName: session.eventName,
              sessionName: session.name,
              date: entry.date,
              start: session.startTime,
            },
          ]
        : [];
    })
    .sort((a, b) => byDayThenTime(a, b) || a.entry.id - b.entry.id);
  const sessionIds = [
    ...new Set(own.filter((o) => o.entry.status === 'waiting').map((o) => o.entry.sessionId)),
  ];
  // Everyone waiting on those sessions, in queue order (first come first served: by id).
  const queue = sessionIds.length
    ? await db
        .select({ id: waitlistEntries.id, sessionId: waitlistEntries.sessionId, date: waitlistEntries.date })
        .from(waitlistEntries)
        .where(
          tenant.where(
            waitlistEntries,
            inArray(waitlistEntries.sessionId, sessionIds),
            eq(waitlistEntries.status, 'waiting'),
          ),
        )
        .orderBy(asc(waitlistEntries.id))
    : [];
  return own.map(({ entry, eventName, sessionName }) => {
    const line = queue.filter((q) => q.sessionId === entry.sessionId && q.date === entry.date);
    const index = line.findIndex((q) => q.id === entry.id);
    return {
      id: entry.id,
      event_name: eventName,
      session_name: sessionName,
      date: entry.date,
      places: entry.places,
      status: entry.status === 'invited' ? ('invited' as const) : ('waiting' as const),
      position: entry.status === 'waiting' && index >= 0 ? index + 1 : null,
    };
  });
}

/**
 * POST /api/v1/students/my-waitlist/:id/leave: the parent leaves the waitlist for one day. Only the
 * parent's own open entry of this company; anything else answers 404. Leaving an invitation frees
 * its places for the next in line.
 */
export async function leaveWaitlist(deps: AppDeps, tenant: Tenant, parentId: number, entryId: number) {
  const [left] = await deps.database.db
    .update(waitlistEntries)
    .set({ status: 'declined' })
    .where(
      tenant.byId(
        waitlistEntries,
        entryId,
        eq(waitlistEntries.parentId, parentId),
        inArray(waitlistEntries.status, ['waiting', 'invited']),
      ),
    )
    .returning();
  if (!left) throw new NotFoundError();
  // An invitation's held places go to the next in line; a waiting entry frees nothing, harmlessly.
  await offerFreedPlaces(deps, tenant, left.eventId);
  return { valid: true };
}

/**
 * The days a booking's checkout put the family on the waitlist for, for its confirmation mail
 * (issue 21 point 2): one line a day with the place in the queue; '' when there are none.
 */
export async function waitlistedDaysText(db: Db, tenant: Tenant, bookingId: number): Promise<string> {
  const waiting = await db
    .select()
    .from(waitlistEntries)
    .where(
      tenant.where(
        waitlistEntries,
        eq(waitlistEntries.bookingId, bookingId),
        eq(waitlistEntries.status, 'waiting'),
      ),
    );
  if (waiting.length === 0) return '';
  const sessions = await sessionsByIds(
    db,
    tenant,
    waiting.map((e) => e.sessionId),
  );
  const entries = waiting
    .flatMap((entry) => {
      const session = sessions.get(entry.sessionId);
      return session ? [{ entry, name: session.name, date: entry.date, start: session.startTime }] : [];
    })
    .sort(byDayThenTime);
  const lines: string[] = [];
  for (const { entry, name } of entries) {
    const [ahead] = await db
      .select({ n: count() })
      .from(waitlistEntries)
      .where(
        tenant.where(
          waitlistEntries,
          eq(waitlistEntries.sessionId, entry.sessionId),
          eq(waitlistEntries.date, entry.date),
          eq(waitlistEntries.status, 'waiting'),
          lt(waitlistEntries.id, entry.id),
        ),
      );
    lines.push(`${displayDate(entry.date)} ${name} (number ${(ahead?.n ?? 0) + 1} in the queue)`);
  }
  return `You are on the waitlist for these days; we will email you if a place frees up:\n${lines.join('\n')}`;
}

/** Invitations nobody took up in time: expire them and offer the places to the next in line. */
export async function expireLapsedInvitations(deps: AppDeps): Promise<number> {
  const lapsed = await deps.database.db
    .update(waitlistEntries)
    .set({ status: 'expired' })
    // cross-tenant: the expiry job sweeps every company's lapsed invitations; places are offered on per tenant.
    .where(and(eq(waitlistEntries.status, 'invited'), lt(waitlistEntries.inviteExpiresAt, sql`now()`)))
    .returning({ companyId: waitlistEntries.companyId, eventId: waitlistEntries.eventId });
  const events = new Map(lapsed.map((l) => [`${l.companyId}|${l.eventId}`, l]));
  for (const { companyId, eventId } of events.values())
    await offerFreedPlaces(deps, new Tenant(companyId), eventId);
  return lapsed.length;
}
