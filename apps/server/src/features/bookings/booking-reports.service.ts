import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { bookingChildren, bookingPlaces, bookings, waitlistEntries } from './bookings.tables.ts';

/**
 * Tenant-scoped subqueries of event bookings for the reports (features/reports): a report joins
 * them with other features' subqueries in one SQL query, so it never reads these tables itself.
 * Only confirmed (paid) bookings count.
 */

/** Each confirmed booking as a purchase: its total, the coupon's discount and the insurance sold (cents). */
export function eventPurchasesQuery(db: Db, tenant: Tenant) {
  return db
    .select({
      id: bookings.id,
      eventId: bookings.eventId,
      code: bookings.code,
      total: bookings.total,
      discount: sql<number>`coalesce(-(${bookings.pricing}->>'coupon')::int, 0)`.as('event_discount'),
      insurance: sql<number>`coalesce((${bookings.pricing}->>'insurance')::int, 0)`.as('event_insurance'),
      voucher: sql<number>`coalesce(-(${bookings.pricing}->>'nsw_voucher')::int, 0)`.as('event_voucher'),
    })
    .from(bookings)
    .where(tenant.where(bookings, eq(bookings.status, 'confirmed')))
    .as('event_purchases');
}

/** Each child of a confirmed booking with its insurance choice and the first and last day booked. */
export function eventCoverQuery(db: Db, tenant: Tenant) {
  return db
    .select({
      bookingId: bookingChildren.bookingId,
      eventId: bookings.eventId,
      childId: bookingChildren.childId,
      insuranceType: bookingChildren.insuranceType,
      insuranceIds: bookingChildren.insuranceIds,
      firstDate: sql<string>`min(${bookingPlaces.date})`.as('cover_first_date'),
      lastDate: sql<string>`max(${bookingPlaces.date})`.as('cover_last_date'),
      days: sql<number>`count(distinct ${bookingPlaces.date})::int`.as('cover_days'),
    })
    .from(bookingChildren)
    .innerJoin(bookings, eq(bookings.id, bookingChildren.bookingId))
    .innerJoin(bookingPlaces, eq(bookingPlaces.bookingId, bookings.id))
    .where(tenant.where(bookingChildren, tenant.where(bookings, eq(bookings.status, 'confirmed'))))
    .groupBy(bookingChildren.id, bookings.eventId)
    .as('event_cover');
}

/** Places taken per event, session and day by confirmed bookings, and what they were charged (cents). */
export function eventPlacesQuery(db: Db, tenant: Tenant) {
  return db
    .select({
      eventId: bookings.eventId,
      sessionId: bookingPlaces.sessionId,
      date: bookingPlaces.date,
      bookings: sql<number>`count(distinct ${bookings.id})::int`.as('place_bookings'),
      places: sql<number>`sum(${bookingPlaces.places})::int`.as('place_count'),
      amount: sql<number>`sum(${bookingPlaces.places} * ${bookingPlaces.unitPrice})::int`.as('place_amount'),
    })
    .from(bookingPlaces)
    .innerJoin(bookings, eq(bookings.id, bookingPlaces.bookingId))
    .where(tenant.where(bookingPlaces, tenant.where(bookings, eq(bookings.status, 'confirmed'))))
    .groupBy(bookings.eventId, bookingPlaces.sessionId, bookingPlaces.date)
    .as('event_places');
}

/** Places still waiting (or offered) per event, session and day. */
export function eventWaitlistQuery(db: Db, tenant: Tenant) {
  return db
    .select({
      eventId: waitlistEntries.eventId,
      sessionId: waitlistEntries.sessionId,
      date: waitlistEntries.date,
      waiting: sql<number>`sum(${waitlistEntries.places})::int`.as('waitlist_places'),
    })
    .from(waitlistEntries)
    .where(tenant.where(waitlistEntries, inArray(waitlistEntries.status, ['waiting', 'invited'])))
    .groupBy(waitlistEntries.eventId, waitlistEntries.sessionId, waitlistEntries.date)
    .as('event_waitlist');
}
