import { asc, eq, inArray, min } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { bookingPlaces, bookings } from './bookings.tables.ts';

/** What reminder emails (features/communications/reminders) read of event bookings. */

export interface StartingBooking {
  bookingId: number;
  parentId: number;
  /** The first day the booking has places on. */
  firstDate: string;
}

/** Confirmed event bookings whose first booked day is one of these dates. */
export async function confirmedBookingsStartingOn(
  db: Db,
  tenant: Tenant,
  dates: string[],
): Promise<StartingBooking[]> {
  if (dates.length === 0) return [];
  const firstDate = min(bookingPlaces.date);
  const rows = await db
    .select({ bookingId: bookings.id, parentId: bookings.parentId, firstDate })
    .from(bookings)
    .innerJoin(bookingPlaces, eq(bookingPlaces.bookingId, bookings.id))
    .where(tenant.where(bookings, eq(bookings.status, 'confirmed')))
    .groupBy(bookings.id, bookings.parentId)
    .having(inArray(firstDate, dates))
    .orderBy(asc(bookings.id));
  return rows.map((row) => ({ ...row, firstDate: row.firstDate! }));
}
