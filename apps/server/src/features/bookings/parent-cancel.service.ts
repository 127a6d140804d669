import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ConflictError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate, zonedInstant } from '../../platform/time.ts';
import { eventNames, sessionsByIds } from '../events/events.service.ts';
import { childrenByIds } from '../students/children.service.ts';
import { bookingChildren, bookingPlaces, bookings } from './bookings.tables.ts';
import { offerFreedPlaces } from './waitlist.service.ts';

/**
 * A parent cancelling one booked day of an event from their account (issue 15, self-service
 * cancellation; features/billing/cancellation.service.ts decides the money). The day's places are
 * given up (the row goes; the audit log keeps it) and offered to the waitlist; the last day
 * cancels the booking.
 */

export interface BookedDay {
  bookingId: number;
  eventId: number;
  what: string;
  startsAt: Date;
  /** This day's share of the booking's price, as charged (places × price per place). */
  dayGross: number;
  /** Every day still booked, the same way (the day's share of what is left to give back). */
  bookingGross: number;
}

/** The parent's confirmed booking's day, or null when it is not theirs or not booked. */
export async function bookedDayOfParent(
  db: Db,
  tenant: Tenant,
  parentId: number,
  target: { bookingId: number; sessionId: number; date: string },
  timeZone: string,
): Promise<BookedDay | null> {
  const [booking] = await db
    .select()
    .from(bookings)
    .where(
      tenant.byId(
        bookings,
        target.bookingId,
        eq(bookings.parentId, parentId),
        eq(bookings.status, 'confirmed'),
      ),
    );
  if (!booking) return null;
  const places = await db
    .select()
    .from(bookingPlaces)
    .where(tenant.where(bookingPlaces, eq(bookingPlaces.bookingId, booking.id)))
    .orderBy(asc(bookingPlaces.date));
  const day = places.find((p) => p.sessionId === target.sessionId && p.date === target.date);
  if (!day) return null;
  const [sessions, names, kids] = await Promise.all([
    sessionsByIds(db, tenant, [day.sessionId]),
    eventNames(db, tenant, [booking.eventId]),
    db
      .select({ childId: bookingChildren.childId })
      .from(bookingChildren)
      .where(tenant.where(bookingChildren, eq(bookingChildren.bookingId, booking.id))),
  ]);
  const session = sessions.get(day.sessionId);
  if (!session) return null;
  const children = await childrenByIds(
    db,
    tenant,
    kids.map((k) => k.childId),
  );
  const who = children.map((c) => c.firstName).join(', ');
  return {
    bookingId: booking.id,
    eventId: booking.eventId,
    what: `${names.get(booking.eventId) ?? 'Event'}, ${session.name}, ${displayDate(day.date)}${who ? ` (${who})` : ''}`,
    startsAt: zonedInstant(day.date, session.startTime.slice(0, 5), timeZone),
    dayGross: day.places * day.unitPrice,
    bookingGross: places.reduce((sum, p) => sum + p.places * p.unitPrice, 0),
  };
}

/**
 * In the cancelling transaction: gives up the day (re-checked under the booking's lock), cancels
 * the booking when it was its last day, and returns the work to do after commit (the waitlist).
 */
export async function cancelBookedDay(
  deps: AppDeps,
  tx: Db,
  auth: AuthContext,
  target: { bookingId: number; sessionId: number; date: string },
): Promise<() => Promise<void>> {
  const { tenant } = auth;
  const [booking] = await tx
    .select()
    .from(bookings)
    .where(tenant.byId(bookings, target.bookingId, eq(bookings.parentId, auth.userId)))
    .for('update');
  const gone = 'This day is no longer booked.';
  if (booking?.status !== 'confirmed') throw new ConflictError(gone);
  const [removed] = await tx
    .delete(bookingPlaces)
    .where(
      tenant.where(
        bookingPlaces,
        and(
          eq(bookingPlaces.bookingId, booking.id),
          eq(bookingPlaces.sessionId, target.sessionId),
          eq(bookingPlaces.date, target.date),
        ),
      ),
    )
    .returning();
  if (!removed) throw new ConflictError(gone);
  await recordAudit(tx, auth, {
    action: 'cancel-day',
    entity: 'booking-places',
    entityId: removed.id,
    before: removed,
  });
  const [left] = await tx
    .select({ id: bookingPlaces.id })
    .from(bookingPlaces)
    .where(tenant.where(bookingPlaces, eq(bookingPlaces.bookingId, booking.id)))
    .limit(1);
  if (!left)
    await tx
      .update(bookings)
      .set({ status: 'cancelled', cancelledAt: new Date() })
      .where(tenant.byId(bookings, booking.id));
  return async () => {
    await offerFreedPlaces(deps, tenant, booking.eventId);
  };
}
