import type { BookingPageResponse, SessionsResponse } from '@tumble/contracts/booking';
import { encodeEventCode, QUANTITY_MAX } from '@tumble/contracts/booking';
import { and, eq, gt, ne, or, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { sanitizeRichText } from '../../platform/html.ts';
import { cached } from '../../platform/public-cache.ts';
import { readTogether } from '../../platform/reads.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { type Company, companyOf } from '../accounts/accounts.service.ts';
import { dailyInsuranceId, paymentTermsFor } from '../billing/billing.service.ts';
import { type Cell, cellKey, computeCells, hhmm } from '../events/availability.ts';
import {
  contactsOf,
  downloadsOf,
  type EventRow,
  eventFromCode,
  eventOf,
  publishedEvent,
  type SessionRow,
  sessionsByIds,
  sessionsOf,
  ticketsOf,
} from '../events/events.service.ts';
import { restrictedDatesFor, venueOf } from '../venues/venues.service.ts';
import { bookingPlaces, bookings, waitlistEntries } from './bookings.tables.ts';

/** How long a checkout holds its places while payment is open (Event booking issue: default 30 minutes). */
export const HOLD_MINUTES = 30;

/**
 * Places taken per session-day: confirmed bookings, pending bookings whose hold has not expired,
 * and waitlist invitations still open (except those of `exceptParentId`, who may use them).
 * `db` may be a transaction that has locked the sessions.
 */
export async function takenPlaces(
  db: Db,
  tenant: Tenant,
  eventId: number,
  options: { exceptBookingId?: number; exceptParentId?: number } = {},
): Promise<Map<string, number>> {
  const held = db
    .select({
      sessionId: bookingPlaces.sessionId,
      date: bookingPlaces.date,
      places: sql<number>`sum(${bookingPlaces.places})::int`,
    })
    .from(bookingPlaces)
    .innerJoin(bookings, eq(bookings.id, bookingPlaces.bookingId))
    .where(
      and(
        tenant.where(bookingPlaces),
        // The booking's own tenant too: it lets the plan start from bookings_company_event.
        eq(bookings.companyId, tenant.companyId),
        eq(bookings.eventId, eventId),
        or(
          eq(bookings.status, 'confirmed'),
          and(eq(bookings.status, 'pending'), gt(bookings.holdExpiresAt, sql`now()`)),
        ),
        options.exceptBookingId ? ne(bookings.id, options.exceptBookingId) : undefined,
      ),
    )
    .groupBy(bookingPlaces.sessionId, bookingPlaces.date);
  const invited = db
    .select({
      sessionId: waitlistEntries.sessionId,
      date: waitlistEntries.date,
      places: sql<number>`sum(${waitlistEntries.places})::int`,
    })
    .from(waitlistEntries)
    .where(
      tenant.where(
        waitlistEntries,
        eq(waitlistEntries.eventId, eventId),
        eq(waitlistEntries.status, 'invited'),
        gt(waitlistEntries.inviteExpiresAt, sql`now()`),
        options.exceptParentId ? ne(waitlistEntries.parentId, options.exceptParentId) : undefined,
      ),
    )
    .groupBy(waitlistEntries.sessionId, waitlistEntries.date);
  // One round trip for both (a public call's only reads besides the cache; under checkout's lock).
  const rows = await unionAll(held, invited);
  const taken = new Map<string, number>();
  for (const row of rows) {
    const key = cellKey(row.sessionId, row.date);
    taken.set(key, (taken.get(key) ?? 0) + row.places);
  }
  return taken;
}

/**
 * Every session-day of the event with its state now. A caller that has read the company already
 * passes it (`options.company`): checkout counts under the sessions' locks, where every query
 * saved shortens the queue of a rush.
 */
export async function eventCells(
  db: Db,
  tenant: Tenant,
  event: EventRow,
  options: { exceptBookingId?: number; exceptParentId?: number; now?: Date; company?: Company } = {},
): Promise<{
  cells: Cell[];
  sessions: SessionRow[];
  timeZone: string;
  company: Company;
}> {
  // `db` is a transaction under checkout's and the waitlist's locks: readTogether keeps its one connection to one query at a time.
  // Company, sessions and restricted dates come from the public read cache (a transaction reads
  // them itself); places taken are always counted now.
  const [company, sessions, restricted, taken] = await readTogether(db, [
    async () => options.company ?? cachedCompany(db, tenant),
    () => cached(db, tenant, `sessions:${event.id}`, () => sessionsOf(db, tenant, event.id)),
    () => cached(db, tenant, 'restricted:events', () => restrictedDatesFor(db, tenant, 'events')),
    () => takenPlaces(db, tenant, event.id, options),
  ]);
  const cells = computeCells({
    event,
    sessions,
    taken,
    restricted,
    timeZone: company.timeZone,
    now: options.now ?? new Date(),
  });
  return { cells, sessions, timeZone: company.timeZone, company };
}

/** The company with its payment method, from the public read cache (accounts' companyOf). */
export function cachedCompany(db: Db, tenant: Tenant): Promise<Company> {
  return cached(db, tenant, 'company', () => companyOf(db, tenant));
}

/** Ticket prices per session (the session's own, else the event-wide one). */
async function basePrices(db: Db, tenant: Tenant, eventId: number) {
  const tickets = await cached(db, tenant, `tickets:${eventId}`, () => ticketsOf(db, tenant, eventId));
  const eventWide = tickets.find((t) => t.sessionId === null)?.price ?? null;
  return (sessionId: number) => tickets.find((t) => t.sessionId === sessionId)?.price ?? eventWide;
}

/** GET /api/v1/booking: the event page (SPEC.md point 2, step 1). */
export async function bookingPage(deps: AppDeps, tenant: Tenant, e: string): Promise<BookingPageResponse> {
  const { db } = deps.database;
  const event = await eventFromCode(db, tenant, e);
  const venueId = event.venueId;
  const [contacts, downloads, venue, dailyId, { cells, sessions, company }] = await Promise.all([
    cached(db, tenant, `contacts:${event.id}`, () => contactsOf(db, tenant, event.id)),
    cached(db, tenant, `downloads:${event.id}`, () => downloadsOf(db, tenant, event.id)),
    venueId
      ? cached(db, tenant, `venue:${venueId}`, () => venueOf(db, tenant, venueId))
      : Promise.resolve(null),
    cached(db, tenant, 'daily-insurance', () => dailyInsuranceId(db, tenant)),
    eventCells(db, tenant, event),
  ]);
  return {
    event: {
      id: event.id,
      code: encodeEventCode(tenant.companyId, event.id),
      name: event.name,
      start_date: event.startDate,
      end_date: event.endDate,
      age_start: event.ageStart,
      age_end: event.ageEnd,
      // Intros saved while the field was a plain text area were never sanitized: clean them on the way out.
      intro: event.intro && sanitizeRichText(event.intro),
      full: event.full,
      Contacts: contacts.map((c) => ({ name: c.name, email: c.email, phone: c.phone })),
      Venue: venue
        ? { name: venue.name, address: venue.address, suburb: venue.suburb, postcode: venue.postcode }
        : null,
      Downloads: downloads.map((d) => ({ name: d.name, file: `/api/v1/files/${d.file}` })),
      Sessions: sessions.map((s) => ({
        id: s.id,
        name: s.name,
        start_date: s.startDate,
        end_date: s.endDate,
        start_time: hhmm(s.startTime),
        end_time: hhmm(s.endTime),
      })),
      cutoff_days_before: event.cutoffDaysBefore,
      cut_off_day: event.cutOffDay,
      cutoff_time: event.cutoffTime ? hhmm(event.cutoffTime) : null,
    },
    settings: {
      booking_fee: event.bookingFee,
      daily_insurance_id: dailyId,
      quantity_max: QUANTITY_MAX,
      hold_minutes: HOLD_MINUTES,
      currency: company.currency,
    },
    company: { name: company.name, logo: company.logoFile ? `/api/v1/files/${company.logoFile}` : null },
    bookable: cells.some((c) => c.status !== 'expired'),
  };
}

/**
 * GET /api/v1/booking/sessions. A signed-in parent's own open waitlist invitations do not count
 * against them: the place they were offered shows as bookable to them (and full to everyone else).
 */
export async function sessionAvailability(
  deps: AppDeps,
  tenant: Tenant,
  e: string,
  parentId: number | null = null,
): Promise<SessionsResponse> {
  const { db } = deps.database;
  const event = await eventFromCode(db, tenant, e);
  const [{ cells, sessions, timeZone }, priceOf] = await Promise.all([
    eventCells(db, tenant, event, parentId ? { exceptParentId: parentId } : {}),
    basePrices(db, tenant, event.id),
  ]);
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const days: SessionsResponse['days'] = {};
  for (const cell of cells) {
    const session = byId.get(cell.sessionId)!;
    days[cell.date] = days[cell.date] ?? [];
    days[cell.date]!.push({
      session_id: cell.sessionId,
      name: session.name,
      start_time: hhmm(session.startTime),
      end_time: hhmm(session.endTime),
      status: cell.status,
      available: cell.available,
      price: priceOf(cell.sessionId),
    });
  }
  return { event_id: event.id, today: todayIn(timeZone), days };
}

/** GET /api/v1/booking/payment-terms: the event's chosen terms, else the default event terms (billing). */
export async function eventPaymentTerms(
  deps: AppDeps,
  tenant: Tenant,
  eventId: number,
): Promise<{ content: string }> {
  const { db } = deps.database;
  const event = await publishedEvent(db, tenant, eventId);
  const content = await cached(db, tenant, `terms:events:${event.paymentTermsId}`, () =>
    paymentTermsFor(db, tenant, 'events', event.paymentTermsId),
  );
  return { content };
}

/** A booking's event name and its days with their sessions, in order (mails). */
export async function bookedDays(db: Db, tenant: Tenant, booking: { id: number; eventId: number }) {
  // `db` is the confirming transaction: readTogether runs the reads one after another on it.
  const [event, places] = await readTogether(db, [
    () => eventOf(db, tenant, booking.eventId),
    () =>
      db
        .select({ sessionId: bookingPlaces.sessionId, date: bookingPlaces.date })
        .from(bookingPlaces)
        .where(tenant.where(bookingPlaces, eq(bookingPlaces.bookingId, booking.id))),
  ]);
  const sessions = await sessionsByIds(
    db,
    tenant,
    places.map((p) => p.sessionId),
  );
  const days = places
    .flatMap((place) => {
      const session = sessions.get(place.sessionId);
      return session
        ? [{ date: place.date, name: session.name, start: session.startTime, end: session.endTime }]
        : [];
    })
    .sort(byDayThenTime);
  return { eventName: event?.name ?? '', days };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Session-days in time order: by date, then start time ('YYYY-MM-DD' and 'HH:MM:SS' sort as text). */
export const byDayThenTime = (a: { date: string; start: string }, b: { date: string; start: string }) =>
  compareText(a.date, b.date) || compareText(a.start, b.start);
