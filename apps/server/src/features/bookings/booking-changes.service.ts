import { asc, desc, eq, inArray } from 'drizzle-orm';
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
import { companyOf, contactOf } from '../accounts/accounts.service.ts';
import { parentOf } from '../accounts/parents.service.ts';
import { cellKey, runsOn } from '../events/availability.ts';
import { eventNames, eventOf, lockSessions, sessionsByIds } from '../events/events.service.ts';
import { childrenByIds, familyRecordsOf } from '../students/children.service.ts';
import { restrictedDatesFor } from '../venues/venues.service.ts';
import { byDayThenTime, takenPlaces } from './booking.service.ts';
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

/** The conditions of an event booking's payment rows with these statuses (scoped by the caller's `tenant.where`). */
const paymentsOf = (bookingId: number, statuses: ('paid' | 'open')[]) => [
  eq(payments.purchaseKind, 'event'),
  eq(payments.purchaseId, bookingId),
  inArray(payments.status, statuses),
];

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
  const event = await eventOf(tx, tenant, eventId);
  let mails = 0;
  for (const booking of cancelling) {
    const paid = await tx
      .select()
      .from(payments)
      .where(tenant.where(payments, ...paymentsOf(booking.id, ['paid'])))
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
      .where(tenant.where(payments, ...paymentsOf(booking.id, ['open'])));
    if (choice === 'refund') {
      await tx
        .update(payments)
        .set({ status: 'refund_due' })
        .where(tenant.where(payments, ...paymentsOf(booking.id, ['paid'])));
    }
    const parent = await contactOf(tx, tenant, booking.parentId);
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
  const locked = await lockSessions(tx, tenant, [from.sessionId, to.sessionId], eventId);
  const target = locked.find((s) => s.id === to.sessionId);
  const event = await eventOf(tx, tenant, eventId);
  const restricted = await restrictedDatesFor(tx, tenant, 'events');
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
  const parent = await parentOf(tx, tenant, newParentId);
  if (!parent) throw new AppError(400, 'Please choose a valid parent.');
  const [booking] = await tx.select().from(bookings).where(tenant.byId(bookings, bookingId));
  if (!booking) throw new AppError(400, 'Please choose a valid booking.');
  if (booking.parentId === parent.id)
    throw new BadRequestError('The booking already belongs to that parent.');
  const before = await contactOf(tx, tenant, booking.parentId);
  const links = await tx
    .select()
    .from(bookingChildren)
    .where(tenant.where(bookingChildren, eq(bookingChildren.bookingId, booking.id)));
  const linkOf = new Map(links.map((link) => [link.childId, link]));
  const booked = (
    await childrenByIds(
      tx,
      tenant,
      links.map((l) => l.childId),
    )
  ).sort((a, b) => a.id - b.id);
  const records = await familyRecordsOf(tx, tenant, parent.id, booked);
  const moved: string[] = [];
  for (const [i, child] of booked.entries()) {
    const own = records[i]!;
    await tx
      .update(bookingChildren)
      .set({ childId: own.id })
      .where(tenant.byId(bookingChildren, linkOf.get(child.id)!.id));
    moved.push(`${child.firstName} ${child.lastName} (#${child.id} → #${own.id})`);
  }
  await tx.update(bookings).set({ parentId: parent.id }).where(tenant.byId(bookings, booking.id));
  await recordAudit(tx, ctx.auth, {
    action: 'change-parent',
    entity: 'bookings',
    entityId: booking.id,
    before: {
      parent: `${before.fullName} (#${booking.parentId})`,
      children: booked.map((child) => `#${child.id}`).join(', '),
    },
    after: { parent: `${parent.fullName} (#${parent.id})`, children: moved.join(', ') },
  });
  return `The booking now belongs to ${parent.fullName}.`;
}

/** Who is coming: the children of a booking, for its admin page. */
export async function childrenOfBooking(db: Db, tenant: Tenant, bookingId: number) {
  const links = await db
    .select({ childId: bookingChildren.childId, insurance: bookingChildren.insuranceType })
    .from(bookingChildren)
    .where(tenant.where(bookingChildren, eq(bookingChildren.bookingId, bookingId)));
  const insuranceOf = new Map(links.map((l) => [l.childId, l.insurance]));
  const booked = await childrenByIds(
    db,
    tenant,
    links.map((l) => l.childId),
  );
  return booked.map((child) => ({
    name: `${child.firstName} ${child.lastName}`,
    dob: displayDate(child.dob),
    insurance: insuranceLabels[insuranceOf.get(child.id)!],
  }));
}

const insuranceLabels = { daily_insurance: 'Daily', full_insurance: 'Full cover', none: 'None' } as const;

/** The session-days a booking holds places on, in time order, for its admin page. */
export async function daysOfBooking(db: Db, tenant: Tenant, bookingId: number) {
  const places = await db
    .select()
    .from(bookingPlaces)
    .where(tenant.where(bookingPlaces, eq(bookingPlaces.bookingId, bookingId)));
  const sessions = await sessionsByIds(
    db,
    tenant,
    places.map((p) => p.sessionId),
  );
  return places
    .flatMap((place) => {
      const session = sessions.get(place.sessionId);
      return session ? [{ place, session, date: place.date, start: session.startTime }] : [];
    })
    .sort(byDayThenTime)
    .map(({ place, session }) => ({
      date: displayDate(place.date),
      session: session.name,
      time: `${session.startTime.slice(0, 5)}–${session.endTime.slice(0, 5)}`,
      places: place.places,
    }));
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
    .select()
    .from(bookings)
    .where(tenant.where(bookings, eq(bookings.parentId, parentId)))
    .orderBy(desc(bookings.createdAt), desc(bookings.id));
  const names = await eventNames(
    db,
    tenant,
    rows.map((b) => b.eventId),
  );
  const { currency } = await companyOf(db, tenant);
  return rows.map((booking) => ({
    code: booking.code,
    event: names.get(booking.eventId) ?? '',
    status: statusLabels[booking.status],
    total: formatMoney(booking.total, currency),
    href: `/admin/events/${booking.eventId}/bookings/${booking.id}`,
  }));
}
