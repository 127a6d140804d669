import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { pgCode } from '../../platform/db-errors.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { AppError, BadRequestError, ConflictError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { formatMoney } from '../../platform/money.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { users } from '../accounts/accounts.tables.ts';
import { cellKey, runsOn } from '../events/availability.ts';
import { eventSessions, events } from '../events/events.tables.ts';
import { children } from '../students/students.tables.ts';
import { restrictedDates } from '../venues/venues.tables.ts';
import { takenPlaces } from './booking.service.ts';
import { bookingChildren, bookingPlaces, bookings } from './bookings.tables.ts';
import { offerFreedPlaces } from './waitlist.service.ts';

/**
 * What staff do to a booking after it was made: cancel it, move a place to another session-day,
 * give it to another family. Each runs inside the caller's transaction (the admin action's), under
 * the same session locks as checkout, so nothing is ever oversold.
 */

/** The transaction a change runs in, who makes it, and work to do once it has committed. */
export interface ChangeContext {
  deps: AppDeps;
  tenant: Tenant;
  auth: AuthContext;
  tx: Db;
  afterCommit: (work: () => Promise<unknown>) => void;
}

export const refundChoices = [
  { value: 'refund', label: 'Refund the payment' },
  { value: 'credit', label: 'Keep it as credit' },
  { value: 'none', label: 'No refund' },
] as const;
export type RefundChoice = (typeof refundChoices)[number]['value'];

export const messagesOfChanges = {
  onlyLive: 'Only confirmed or unpaid bookings can be cancelled.',
  refundNeeded: 'Please choose what happens to the money paid.',
} as const;

const live = (status: string) => status === 'confirmed' || status === 'pending';

/** The payment rows of an event booking with these statuses. */
const paymentsOf = (tenant: Tenant, bookingId: number, statuses: ('paid' | 'open')[]) =>
  tenant.where(
    payments,
    eq(payments.purchaseKind, 'event'),
    eq(payments.purchaseId, bookingId),
    inArray(payments.status, statuses),
  );

/**
 * Cancels live bookings of one event. A paid booking needs staff's refund choice, recorded on the
 * booking; a refund flags the payment "Refund due" for staff to pay back. An open card payment
 * lapses. Each parent gets a cancellation mail; freed places go to the waitlist after commit.
 */
export async function cancelBookings(
  ctx: ChangeContext,
  eventId: number,
  bookingIds: number[],
  refund: RefundChoice | null,
): Promise<string> {
  const { tx, tenant, deps } = ctx;
  const rows = await tx
    .select()
    .from(bookings)
    .where(tenant.where(bookings, inArray(bookings.id, bookingIds), eq(bookings.eventId, eventId)))
    .orderBy(asc(bookings.id))
    .for('update');
  const cancelling = rows.filter((b) => live(b.status));
  if (cancelling.length === 0) throw new BadRequestError(messagesOfChanges.onlyLive);
  const company = await companyOf(tx, tenant);
  const [event] = await tx.select().from(events).where(tenant.byId(events, eventId));
  let mails = 0;
  for (const booking of cancelling) {
    const paid = await tx
      .select()
      .from(payments)
      .where(paymentsOf(tenant, booking.id, ['paid']))
      .for('update');
    const amount = paid.reduce((sum, p) => sum + p.amount, 0);
    if (amount > 0 && refund === null) throw new BadRequestError(messagesOfChanges.refundNeeded);
    const choice = amount > 0 ? refund : null;
    await tx
      .update(bookings)
      .set({ status: 'cancelled', holdExpiresAt: null, cancelledAt: new Date(), refundChoice: choice })
      .where(tenant.byId(bookings, booking.id));
    await tx
      .update(payments)
      .set({ status: 'expired' })
      .where(paymentsOf(tenant, booking.id, ['open']));
    if (choice === 'refund') {
      await tx
        .update(payments)
        .set({ status: 'refund_due' })
        .where(paymentsOf(tenant, booking.id, ['paid']));
    }
    const [parent] = await tx.select().from(users).where(tenant.byId(users, booking.parentId));
    if (!parent?.email) continue;
    await queueMail(tx, tenant, deps.config, 'booking-cancelled', parent.email, {
      name: parent.fullName,
      company: company.name,
      event: event?.name ?? '',
      // The short code read out over the phone; `reference` is the secret of the booking's links.
      reference: booking.code,
      money:
        choice === 'refund'
          ? `We will refund ${formatMoney(amount, company.currency)} to you.`
          : choice === 'credit'
            ? `The ${formatMoney(amount, company.currency)} you paid is kept as a credit for a future booking.`
            : choice === 'none'
              ? `The ${formatMoney(amount, company.currency)} you paid is not refunded, as our payment terms say.`
              : 'Nothing was charged.',
    });
    mails++;
  }
  ctx.afterCommit(async () => {
    if (mails > 0) await deps.jobs.nudge(queues.mailDeliver);
    await offerFreedPlaces(deps, tenant, eventId);
  });
  const n = cancelling.length;
  return `${n} ${n === 1 ? 'booking' : 'bookings'} cancelled. Freed places were offered to the waitlist.`;
}

export interface SwapRequest {
  from: { sessionId: number; date: string };
  to: { sessionId: number; date: string };
}

/**
 * Moves a booking's places on one session-day to another session-day of the same event, if that
 * one runs then and has room (counted under the sessions' locks, like checkout).
 */
export async function swapSession(
  ctx: ChangeContext,
  eventId: number,
  bookingId: number,
  { from, to }: SwapRequest,
): Promise<string> {
  const { tx, tenant, deps } = ctx;
  const [booking] = await tx
    .select()
    .from(bookings)
    .where(tenant.byId(bookings, bookingId, eq(bookings.eventId, eventId)));
  if (!booking || !live(booking.status)) throw new BadRequestError('Only live bookings can be swapped.');
  const [place] = await tx
    .select()
    .from(bookingPlaces)
    .where(
      tenant.where(
        bookingPlaces,
        eq(bookingPlaces.bookingId, booking.id),
        eq(bookingPlaces.sessionId, from.sessionId),
        eq(bookingPlaces.date, from.date),
      ),
    );
  if (!place) throw new BadRequestError('The booking has no place on that session and day.');
  // Locked in id order, as checkout locks them, so a swap and a checkout cannot deadlock.
  const ids = [...new Set([from.sessionId, to.sessionId])].sort((a, b) => a - b);
  const locked = await tx
    .select()
    .from(eventSessions)
    .where(tenant.where(eventSessions, eq(eventSessions.eventId, eventId), inArray(eventSessions.id, ids)))
    .orderBy(asc(eventSessions.id))
    .for('update');
  const target = locked.find((s) => s.id === to.sessionId);
  const [event] = await tx.select().from(events).where(tenant.byId(events, eventId));
  const restricted = await tx
    .select()
    .from(restrictedDates)
    .where(tenant.where(restrictedDates, inArray(restrictedDates.appliesTo, ['all', 'events'])));
  if (!target || !event || !runsOn(event, target, to.date, restricted))
    throw new BadRequestError('That session does not run on that day.');
  const taken = await takenPlaces(tx, tenant, eventId, { exceptBookingId: booking.id });
  if (target.capacity - (taken.get(cellKey(to.sessionId, to.date)) ?? 0) < place.places) {
    throw new ConflictError(`${target.name} is full on that day.`);
  }
  try {
    await tx
      .update(bookingPlaces)
      .set({ sessionId: to.sessionId, date: to.date })
      .where(tenant.byId(bookingPlaces, place.id));
  } catch (error) {
    if (pgCode(error) === '23505') throw new BadRequestError('The booking already has that session and day.');
    throw error;
  }
  ctx.afterCommit(() => offerFreedPlaces(deps, tenant, eventId));
  return `Moved to ${target.name} on ${displayDate(to.date)}.`;
}

/**
 * Gives one booking to another family. Only this booking moves: the new family gets its own
 * record of each booked child (a child of theirs with the same name and date of birth is used
 * when there is one), and the first family keeps its children and their other bookings. The audit
 * entry names the parents and the children that moved.
 */
export async function changeParent(
  ctx: ChangeContext,
  bookingId: number,
  newParentId: number,
): Promise<string> {
  const { tx, tenant } = ctx;
  const [parent] = await tx
    .select()
    .from(users)
    .where(tenant.byId(users, newParentId, eq(users.role, 'student')));
  if (!parent) throw new AppError(400, 'Please choose a valid parent.');
  const [booking] = await tx.select().from(bookings).where(tenant.byId(bookings, bookingId));
  if (!booking) throw new AppError(400, 'Please choose a valid booking.');
  if (booking.parentId === parent.id)
    throw new BadRequestError('The booking already belongs to that parent.');
  const [before] = await tx.select().from(users).where(tenant.byId(users, booking.parentId));
  const booked = await tx
    .select({ link: bookingChildren, child: children })
    .from(bookingChildren)
    .innerJoin(children, eq(children.id, bookingChildren.childId))
    .where(tenant.where(bookingChildren, eq(bookingChildren.bookingId, booking.id)))
    .orderBy(asc(children.id));
  const theirs = await tx
    .select()
    .from(children)
    .where(tenant.where(children, eq(children.parentId, parent.id)));
  const moved: string[] = [];
  for (const { link, child } of booked) {
    let own = theirs.find(
      (c) =>
        c.firstName.toLowerCase() === child.firstName.toLowerCase() &&
        c.lastName.toLowerCase() === child.lastName.toLowerCase() &&
        c.dob === child.dob,
    );
    if (!own) {
      [own] = await tx
        .insert(children)
        .values(
          tenant.values({
            parentId: parent.id,
            firstName: child.firstName,
            lastName: child.lastName,
            dob: child.dob,
            consent: child.consent,
            insuranceType: child.insuranceType,
          }),
        )
        .returning();
      theirs.push(own!);
    }
    await tx
      .update(bookingChildren)
      .set({ childId: own!.id })
      .where(and(tenant.byId(bookingChildren, link.id)));
    moved.push(`${child.firstName} ${child.lastName} (#${child.id} → #${own!.id})`);
  }
  await tx.update(bookings).set({ parentId: parent.id }).where(tenant.byId(bookings, booking.id));
  await recordAudit(tx, ctx.auth, {
    action: 'change-parent',
    entity: 'bookings',
    entityId: booking.id,
    before: {
      parent: `${before?.fullName ?? ''} (#${booking.parentId})`,
      children: booked.map(({ child }) => `#${child.id}`).join(', '),
    },
    after: { parent: `${parent.fullName} (#${parent.id})`, children: moved.join(', ') },
  });
  return `The booking now belongs to ${parent.fullName}.`;
}

/** Who is coming: the children of a booking, for its admin page. */
export async function childrenOfBooking(db: Db, tenant: Tenant, bookingId: number) {
  const rows = await db
    .select({ child: children, insurance: bookingChildren.insuranceType })
    .from(bookingChildren)
    .innerJoin(children, eq(children.id, bookingChildren.childId))
    .where(tenant.where(bookingChildren, eq(bookingChildren.bookingId, bookingId)))
    .orderBy(asc(children.firstName), asc(children.id));
  return rows.map(({ child, insurance }) => ({
    name: `${child.firstName} ${child.lastName}`,
    dob: displayDate(child.dob),
    insurance: insuranceLabels[insurance],
  }));
}

const insuranceLabels = { daily_insurance: 'Daily', full_insurance: 'Full cover', none: 'None' } as const;

/** The session-days a booking holds places on, in time order, for its admin page. */
export async function daysOfBooking(db: Db, tenant: Tenant, bookingId: number) {
  const rows = await db
    .select({ place: bookingPlaces, session: eventSessions })
    .from(bookingPlaces)
    .innerJoin(eventSessions, eq(eventSessions.id, bookingPlaces.sessionId))
    .where(tenant.where(bookingPlaces, eq(bookingPlaces.bookingId, bookingId)))
    .orderBy(asc(bookingPlaces.date), asc(eventSessions.startTime));
  return rows.map(({ place, session }) => ({
    date: displayDate(place.date),
    session: session.name,
    time: `${session.startTime.slice(0, 5)}–${session.endTime.slice(0, 5)}`,
    places: place.places,
  }));
}

/** A parent's children, for the parent's admin page. */
export async function childrenOfParent(db: Db, tenant: Tenant, parentId: number) {
  const rows = await db
    .select()
    .from(children)
    .where(tenant.where(children, eq(children.parentId, parentId)))
    .orderBy(asc(children.firstName), asc(children.id));
  return rows.map((child) => ({ name: `${child.firstName} ${child.lastName}`, dob: displayDate(child.dob) }));
}

const statusLabels = {
  pending: 'Awaiting payment',
  confirmed: 'Confirmed',
  cancelled: 'Cancelled',
  expired: 'Expired',
  refund_due: 'Refund due',
} as const;

/** A parent's event bookings, newest first, each linking to its page under its event. */
export async function bookingsOfParent(db: Db, tenant: Tenant, parentId: number) {
  const rows = await db
    .select({ booking: bookings, event: events.name })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(tenant.where(bookings, eq(bookings.parentId, parentId)))
    .orderBy(desc(bookings.createdAt), desc(bookings.id));
  const { currency } = await companyOf(db, tenant);
  return rows.map(({ booking, event }) => ({
    code: booking.code,
    event,
    status: statusLabels[booking.status],
    total: formatMoney(booking.total, currency),
    href: `/admin/events/${booking.eventId}/bookings/${booking.id}`,
  }));
}
