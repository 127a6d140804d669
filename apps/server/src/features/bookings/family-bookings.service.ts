import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { bookingChildren, bookingPlaces, bookings } from './bookings.tables.ts';

/**
 * The bookings feature's reads for a family's pages (the parent's account, waivers, the insurance
 * a child already holds): plain rows, every query scoped to the tenant. Lists take ids and answer
 * in one query, for the caller to stitch.
 */

export type BookingRow = typeof bookings.$inferSelect;
type BookingStatus = BookingRow['status'];

/** A parent's event bookings (in these statuses, or all), newest first. */
export function parentBookings(
  db: Db,
  tenant: Tenant,
  parentId: number,
  statuses?: BookingStatus[],
): Promise<BookingRow[]> {
  return db
    .select()
    .from(bookings)
    .where(
      tenant.where(
        bookings,
        eq(bookings.parentId, parentId),
        statuses === undefined ? undefined : inArray(bookings.status, statuses),
      ),
    )
    .orderBy(desc(bookings.createdAt), desc(bookings.id));
}

/** A booking of the tenant by id, any status; null when there is none. */
export async function bookingById(db: Db, tenant: Tenant, id: number): Promise<BookingRow | null> {
  const [booking] = await db.select().from(bookings).where(tenant.byId(bookings, id));
  return booking ?? null;
}

/** The confirmed booking a waiver link names (its reference, the link secret); null otherwise. */
export async function confirmedBookingByReference(
  db: Db,
  tenant: Tenant,
  reference: string,
): Promise<BookingRow | null> {
  const [booking] = await db
    .select()
    .from(bookings)
    .where(tenant.where(bookings, eq(bookings.reference, reference), eq(bookings.status, 'confirmed')));
  return booking ?? null;
}

/** The places of these bookings (a child's session-day each), by day. */
export function placesOfBookings(db: Db, tenant: Tenant, bookingIds: number[]) {
  if (bookingIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      bookingId: bookingPlaces.bookingId,
      date: bookingPlaces.date,
      sessionId: bookingPlaces.sessionId,
    })
    .from(bookingPlaces)
    .where(tenant.where(bookingPlaces, inArray(bookingPlaces.bookingId, bookingIds)))
    .orderBy(asc(bookingPlaces.date), asc(bookingPlaces.id));
}

/** The children on these bookings, in the order they were booked. */
export function childrenOfBookings(db: Db, tenant: Tenant, bookingIds: number[]) {
  if (bookingIds.length === 0) return Promise.resolve([]);
  return db
    .select({ bookingId: bookingChildren.bookingId, childId: bookingChildren.childId })
    .from(bookingChildren)
    .where(tenant.where(bookingChildren, inArray(bookingChildren.bookingId, bookingIds)))
    .orderBy(asc(bookingChildren.id));
}

/** The insurance products bought for these children on confirmed bookings: one row per booked child. */
export function insuranceHeld(db: Db, tenant: Tenant, childIds: number[]) {
  if (childIds.length === 0) return Promise.resolve([]);
  return db
    .select({ childId: bookingChildren.childId, ids: bookingChildren.insuranceIds })
    .from(bookingChildren)
    .innerJoin(bookings, eq(bookings.id, bookingChildren.bookingId))
    .where(
      tenant.where(
        bookingChildren,
        inArray(bookingChildren.childId, childIds),
        eq(bookings.status, 'confirmed'),
      ),
    );
}
