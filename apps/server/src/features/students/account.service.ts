import type { FamilyPayments } from '@tumble/contracts/statement';
import type { MyBookings, MyPartyBookings, MyWaivers } from '@tumble/contracts/students';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import { renderPdf } from '../../platform/pdf.ts';
import { displayDate, displayInstant, todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { contactsByIds } from '../accounts/profile.service.ts';
import { familyPayments, methodLabel } from '../billing/statement.service.ts';
import { childrenOfBookings, parentBookings, placesOfBookings } from '../bookings/family-bookings.service.ts';
import { hhmm } from '../events/availability.ts';
import { eventNames, sessionsByIds } from '../events/events.service.ts';
import { guestsOfParties, parentPartyBookings } from '../parties/family-parties.service.ts';
import { parentSignedWaivers, waiverCoverage, waiverLink, waiverSubject } from '../waivers/waiver.service.ts';
import { childrenByIds } from './children.service.ts';
import { children } from './students.tables.ts';

/**
 * What a parent sees of their own account. Every query is scoped to the tenant and to
 * `auth.userId`, so another parent's ids are simply not found (404).
 */

/** GET /api/v1/students/my-bookings: event bookings (not lapsed holds), newest first. */
export async function myBookings(deps: AppDeps, auth: AuthContext): Promise<MyBookings> {
  const { db } = deps.database;
  const { tenant } = auth;
  const booked = await parentBookings(db, tenant, auth.userId, ['confirmed', 'cancelled', 'refund_due']);
  if (booked.length === 0) return [];
  const ids = booked.map((b) => b.id);
  const [names, placeRows, links, paid, company] = await Promise.all([
    eventNames(
      db,
      tenant,
      booked.map((b) => b.eventId),
    ),
    placesOfBookings(db, tenant, ids),
    childrenOfBookings(db, tenant, ids),
    db
      .select()
      .from(payments)
      .where(tenant.where(payments, eq(payments.purchaseKind, 'event'), inArray(payments.purchaseId, ids)))
      .orderBy(desc(payments.id)),
    companyOf(db, tenant),
  ]);
  const rows = booked.flatMap((booking) => {
    const eventName = names.get(booking.eventId);
    return eventName === undefined ? [] : [{ booking, eventName }];
  });
  const [sessions, kidRows] = await Promise.all([
    sessionsByIds(
      db,
      tenant,
      placeRows.map((p) => p.sessionId),
    ),
    childrenByIds(
      db,
      tenant,
      links.map((l) => l.childId),
    ),
  ]);
  // By day, then by the session's start time.
  const places = placeRows
    .flatMap((p) => {
      const session = sessions.get(p.sessionId);
      return session
        ? [
            {
              bookingId: p.bookingId,
              session_id: p.sessionId,
              date: p.date,
              name: session.name,
              start: session.startTime,
            },
          ]
        : [];
    })
    .sort((a, b) => a.date.localeCompare(b.date) || a.start.localeCompare(b.start))
    .map(({ bookingId, session_id, date, name }) => ({ bookingId, session_id, date, name }));
  const childById = new Map(kidRows.map((c) => [c.id, c]));
  const kids = links.flatMap((l) => {
    const child = childById.get(l.childId);
    return child ? [{ bookingId: l.bookingId, child }] : [];
  });
  const subjects = kids.map((k) => waiverSubject.event(k.bookingId, k.child.id));
  const waivers = await waiverCoverage(db, tenant, 'event', subjects);

  return rows.map(({ booking, eventName }) => {
    // One place per child per session-day: show each session-day once.
    const days = new Map<string, { session_id: number; name: string; date: string }>();
    for (const { bookingId, ...day } of places.filter((p) => p.bookingId === booking.id))
      days.set(`${day.date}|${day.session_id}`, day);
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
      id: booking.id,
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
  const parties = await parentPartyBookings(db, tenant, auth.userId, [
    'confirmed',
    'cancelled',
    'refund_due',
  ]);
  if (parties.length === 0) return [];
  const ids = parties.map((r) => r.party.id);
  const [kids, guests, company] = await Promise.all([
    childrenByIds(
      db,
      tenant,
      parties.map((r) => r.party.childId),
    ),
    guestsOfParties(db, tenant, ids),
    companyOf(db, tenant),
  ]);
  const childById = new Map(kids.map((c) => [c.id, c]));
  const rows = parties.flatMap(({ party, slot }) => {
    const child = childById.get(party.childId);
    return child ? [{ party, slot, child }] : [];
  });
  if (rows.length === 0) return [];
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
      id: party.id,
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

/** GET /api/v1/students/payments: every payment of the family, card and staff-recorded, with its refunds. */
export async function myPayments(deps: AppDeps, auth: AuthContext): Promise<FamilyPayments> {
  const { db } = deps.database;
  const [rows, company] = await Promise.all([
    familyPayments(db, auth.tenant, auth.userId),
    companyOf(db, auth.tenant),
  ]);
  return rows.map(({ payment, description, refunds }) => ({
    id: payment.id,
    description,
    amount: payment.amount,
    status: payment.status,
    method: payment.method,
    method_label: methodLabel(payment),
    reference: payment.reference,
    provider: payment.provider ?? payment.method,
    paid_at: payment.paidAt?.toISOString() ?? null,
    paid_on: payment.paidAt ? todayIn(company.timeZone, payment.paidAt) : null,
    refunds: refunds.map((refund) => ({
      id: refund.id,
      date: todayIn(company.timeZone, refund.createdAt),
      amount: refund.amount,
      destination: refund.destination,
      status: refund.status,
      reason: refund.reason,
    })),
    receipt_url: `/api/v1/students/payments/${payment.id}/receipt`,
  }));
}

/** GET /api/v1/students/payments/:id/receipt: a PDF receipt of one of the parent's payments. */
export async function paymentReceipt(deps: AppDeps, auth: AuthContext, paymentId: number): Promise<Buffer> {
  const { db } = deps.database;
  const [row] = await familyPayments(db, auth.tenant, auth.userId, paymentId);
  if (!row) throw new NotFoundError();
  const [company, contacts] = await Promise.all([
    companyOf(db, auth.tenant),
    contactsByIds(db, auth.tenant, [auth.userId]),
  ]);
  const parent = contacts.get(auth.userId);
  const { payment } = row;
  const money = (cents: number) => `${formatMoney(cents, company.currency)} ${company.currency}`;
  const refunded = row.refunds.filter((r) => r.status !== 'failed');
  return renderPdf({
    title: `Receipt no. ${payment.id}`,
    subtitle: company.name,
    sections: [
      {
        rows: [
          ['Date paid', payment.paidAt ? displayInstant(payment.paidAt, company.timeZone) : ''],
          ['Received from', parent ? `${parent.fullName} <${parent.email}>` : ''],
          ['For', row.description],
          ['Amount', money(payment.amount)],
          ['Paid by', methodLabel(payment)],
          ['Payment reference', payment.providerRef ?? payment.reference ?? ''],
          ...refunded.map((r): [string, string] => [
            `Refunded ${displayDate(todayIn(company.timeZone, r.createdAt))}`,
            `${money(r.amount)} ${r.destination === 'card' ? 'to the card' : 'to account credit'}${r.status === 'pending' ? ' (in progress)' : ''}`,
          ]),
          ...(payment.status === 'paid' || refunded.length > 0
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
    parentSignedWaivers(deps.database.db, auth.tenant, auth.userId),
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
