import type { MyBookings, MyPartyBookings, MyPayments, MyWaivers } from '@tumble/contracts/students';
import { and, asc, desc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import { renderPdf } from '../../platform/pdf.ts';
import { displayDate, displayInstant, todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { users } from '../accounts/accounts.tables.ts';
import { bookingChildren, bookingPlaces, bookings } from '../bookings/bookings.tables.ts';
import { hhmm } from '../events/availability.ts';
import { eventSessions, events } from '../events/events.tables.ts';
import { partyBookings, partyGuests, partySlots } from '../parties/parties.tables.ts';
import { waiverCoverage, waiverLink, waiverSubject } from '../waivers/waiver.service.ts';
import { signedWaivers } from '../waivers/waivers.tables.ts';
import { children } from './students.tables.ts';

/**
 * What a parent sees of their own account. Every query is scoped to the tenant and to
 * `auth.userId`, so another parent's ids are simply not found (404).
 */

/** GET /api/v1/students/my-bookings: event bookings (not lapsed holds), newest first. */
export async function myBookings(deps: AppDeps, auth: AuthContext): Promise<MyBookings> {
  const { db } = deps.database;
  const { tenant } = auth;
  const rows = await db
    .select({ booking: bookings, eventName: events.name })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(
      tenant.where(
        bookings,
        eq(bookings.parentId, auth.userId),
        inArray(bookings.status, ['confirmed', 'cancelled', 'refund_due']),
      ),
    )
    .orderBy(desc(bookings.createdAt), desc(bookings.id));
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.booking.id);
  const [places, kids, paid, company] = await Promise.all([
    db
      .select({ bookingId: bookingPlaces.bookingId, date: bookingPlaces.date, name: eventSessions.name })
      .from(bookingPlaces)
      .innerJoin(eventSessions, eq(eventSessions.id, bookingPlaces.sessionId))
      .where(tenant.where(bookingPlaces, inArray(bookingPlaces.bookingId, ids)))
      .orderBy(asc(bookingPlaces.date), asc(eventSessions.startTime)),
    db
      .select({ bookingId: bookingChildren.bookingId, child: children })
      .from(bookingChildren)
      .innerJoin(children, eq(children.id, bookingChildren.childId))
      .where(tenant.where(bookingChildren, inArray(bookingChildren.bookingId, ids)))
      .orderBy(asc(bookingChildren.id)),
    db
      .select()
      .from(payments)
      .where(tenant.where(payments, eq(payments.purchaseKind, 'event'), inArray(payments.purchaseId, ids)))
      .orderBy(desc(payments.id)),
    companyOf(db, tenant),
  ]);
  const subjects = kids.map((k) => waiverSubject.event(k.bookingId, k.child.id));
  const waivers = await waiverCoverage(db, tenant, 'event', subjects);

  return rows.map(({ booking, eventName }) => {
    // One place per child per session-day: show each session-day once.
    const days = new Map<string, { name: string; date: string }>();
    for (const p of places.filter((p) => p.bookingId === booking.id)) days.set(`${p.date}|${p.name}`, p);
    const own = kids
      .filter((k) => k.bookingId === booking.id)
      .map(({ child }) => ({
        id: child.id,
        first_name: child.firstName,
        last_name: child.lastName,
        waiver: !waivers.required
          ? ('none' as const)
          : waivers.covered.has(waiverSubject.event(booking.id, child.id))
            ? ('signed' as const)
            : ('needed' as const),
      }));
    const payment = paid.find((p) => p.purchaseId === booking.id && p.status !== 'expired');
    const missing = booking.status === 'confirmed' && own.some((c) => c.waiver === 'needed');
    return {
      reference: booking.reference,
      code: booking.code,
      event_name: eventName,
      status: booking.status,
      created_at: booking.createdAt.toISOString(),
      booked_on: todayIn(company.timeZone, booking.createdAt),
      total: booking.total,
      places: booking.quantity,
      sessions: [...days.values()],
      children: own,
      payment: payment
        ? {
            id: payment.id,
            status: payment.status,
            amount: payment.amount,
            paid_at: payment.paidAt?.toISOString() ?? null,
          }
        : null,
      waiver_link: missing ? waiverLink(deps.config, 'event', booking.reference, company.authhash) : null,
    };
  });
}

/** GET /api/v1/students/my-party-bookings, newest first. */
export async function myPartyBookings(deps: AppDeps, auth: AuthContext): Promise<MyPartyBookings> {
  const { db } = deps.database;
  const { tenant } = auth;
  const rows = await db
    .select({ party: partyBookings, slot: partySlots, child: children })
    .from(partyBookings)
    .innerJoin(partySlots, eq(partySlots.id, partyBookings.slotId))
    .innerJoin(children, eq(children.id, partyBookings.childId))
    .where(
      tenant.where(
        partyBookings,
        eq(partyBookings.parentId, auth.userId),
        inArray(partyBookings.status, ['confirmed', 'cancelled', 'refund_due']),
      ),
    )
    .orderBy(desc(partyBookings.date), desc(partyBookings.id));
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.party.id);
  const [guests, company] = await Promise.all([
    db
      .select({ partyBookingId: partyGuests.partyBookingId })
      .from(partyGuests)
      .where(tenant.where(partyGuests, inArray(partyGuests.partyBookingId, ids))),
    companyOf(db, tenant),
  ]);
  const waivers = await waiverCoverage(
    db,
    tenant,
    'party',
    rows.map((r) => waiverSubject.party(r.party.id, r.child.id)),
  );
  return rows.map(({ party, slot, child }) => {
    const confirmed = party.status === 'confirmed';
    const waiver = !waivers.required
      ? ('none' as const)
      : waivers.covered.has(waiverSubject.party(party.id, child.id))
        ? ('signed' as const)
        : ('needed' as const);
    return {
      reference: party.reference,
      code: party.code,
      date: party.date,
      slot_name: slot.name,
      time: hhmm(slot.startTime),
      child_name: `${child.firstName} ${child.lastName}`,
      status: party.status,
      guests: party.guests,
      guests_named: guests.filter((g) => g.partyBookingId === party.id).length,
      total: party.total,
      deposit: party.deposit,
      balance: party.balance,
      waiver,
      waiver_link:
        confirmed && waiver === 'needed'
          ? waiverLink(deps.config, 'party', party.reference, company.authhash)
          : null,
      update_guests_link: confirmed
        ? `/birthday-party/update-guest/?id=${encodeURIComponent(party.reference)}&authhash=${encodeURIComponent(company.authhash)}`
        : null,
    };
  });
}

/** The parent's payments that money moved for (paid, refund due, refunded), with what each was for. */
async function ownPayments(deps: AppDeps, auth: AuthContext, paymentId?: number) {
  const { tenant } = auth;
  return deps.database.db
    .select({
      payment: payments,
      eventName: events.name,
      // The short references people read out (BK-…, BP-…), never the link secrets.
      bookingRef: bookings.code,
      partyRef: partyBookings.code,
      partyDate: partyBookings.date,
    })
    .from(payments)
    .leftJoin(bookings, and(eq(payments.purchaseKind, 'event'), eq(bookings.id, payments.purchaseId)))
    .leftJoin(events, eq(events.id, bookings.eventId))
    .leftJoin(
      partyBookings,
      and(eq(payments.purchaseKind, 'party'), eq(partyBookings.id, payments.purchaseId)),
    )
    .where(
      tenant.where(
        payments,
        or(eq(bookings.parentId, auth.userId), eq(partyBookings.parentId, auth.userId)),
        inArray(payments.status, ['paid', 'refund_due', 'refunded']),
        isNotNull(payments.paidAt),
        paymentId === undefined ? undefined : eq(payments.id, paymentId),
      ),
    )
    .orderBy(desc(payments.paidAt), desc(payments.id));
}

function describe(row: Awaited<ReturnType<typeof ownPayments>>[number]): string {
  if (row.eventName) return `${row.eventName} (booking ${row.bookingRef})`;
  return `Birthday party deposit, ${row.partyDate ? displayDate(row.partyDate) : ''} (booking ${row.partyRef})`;
}

/** GET /api/v1/students/payments */
export async function myPayments(deps: AppDeps, auth: AuthContext): Promise<MyPayments> {
  const [rows, company] = await Promise.all([
    ownPayments(deps, auth),
    companyOf(deps.database.db, auth.tenant),
  ]);
  return rows.map((row) => ({
    id: row.payment.id,
    description: describe(row),
    amount: row.payment.amount,
    status: row.payment.status,
    provider: row.payment.provider,
    paid_at: row.payment.paidAt?.toISOString() ?? null,
    paid_on: row.payment.paidAt ? todayIn(company.timeZone, row.payment.paidAt) : null,
    receipt_url: `/api/v1/students/payments/${row.payment.id}/receipt`,
  }));
}

const providerNames: Record<string, string> = {
  stripe: 'Card (Stripe)',
  square: 'Card (Square)',
  test: 'Test card',
};

/** GET /api/v1/students/payments/:id/receipt: a PDF receipt of one of the parent's payments. */
export async function paymentReceipt(deps: AppDeps, auth: AuthContext, paymentId: number): Promise<Buffer> {
  const { db } = deps.database;
  const [row] = await ownPayments(deps, auth, paymentId);
  if (!row) throw new NotFoundError();
  const [company, [parent]] = await Promise.all([
    companyOf(db, auth.tenant),
    db
      .select()
      .from(users)
      .where(auth.tenant.where(users, eq(users.id, auth.userId))),
  ]);
  const { payment } = row;
  return renderPdf({
    title: `Receipt no. ${payment.id}`,
    subtitle: company.name,
    sections: [
      {
        rows: [
          ['Date paid', payment.paidAt ? displayInstant(payment.paidAt, company.timeZone) : ''],
          ['Received from', parent ? `${parent.fullName} <${parent.email}>` : ''],
          ['For', describe(row)],
          ['Amount', `${formatMoney(payment.amount, company.currency)} ${company.currency}`],
          ['Paid by', providerNames[payment.provider] ?? payment.provider],
          ['Payment reference', payment.providerRef],
          ...(payment.status === 'paid'
            ? []
            : ([['Status', 'Refunded or to be refunded']] as [string, string][])),
        ],
      },
    ],
    footer: 'Thank you. Keep this receipt for your records.',
  });
}

/** An instant as the company's clock reads it, like the web's other dates: '24/11/2026 09:30'. */
function dayAndTime(at: Date, timeZone: string): string {
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return `${displayDate(todayIn(timeZone, at))} ${time.format(at)}`;
}

/** GET /api/v1/students/waivers: waivers signed for the parent's children. */
export async function myWaivers(deps: AppDeps, auth: AuthContext): Promise<MyWaivers> {
  const [rows, company] = await Promise.all([
    deps.database.db
      .select()
      .from(signedWaivers)
      .where(auth.tenant.where(signedWaivers, eq(signedWaivers.parentId, auth.userId)))
      .orderBy(desc(signedWaivers.signedAt)),
    companyOf(deps.database.db, auth.tenant),
  ]);
  return rows.map((w) => ({
    id: w.id,
    child_name: `${w.childFirstName} ${w.childLastName}`,
    waiver_title: w.waiverTitle,
    version: w.waiverVersion,
    signer_name: w.signerName,
    signed_at: w.signedAt.toISOString(),
    signed_when: dayAndTime(w.signedAt, company.timeZone),
    pdf_url: `/api/v1/students/waivers/${w.id}/pdf`,
  }));
}

/** A child of the signed-in parent; 404 for anyone else's. */
export async function ownChild(deps: AppDeps, auth: AuthContext, childId: number) {
  const [child] = await deps.database.db
    .select()
    .from(children)
    .where(auth.tenant.where(children, and(eq(children.id, childId), eq(children.parentId, auth.userId))));
  if (!child) throw new NotFoundError();
  return child;
}
