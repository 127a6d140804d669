import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { bookingPlaces, bookings } from './bookings.tables.ts';

/** How many of a family's live bookings (pending or confirmed) have a day on or after `today`. */
export async function upcomingBookingCount(db: Db, tenant: Tenant, parentId: number, today: string) {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${bookings.id})::int` })
    .from(bookings)
    .innerJoin(bookingPlaces, eq(bookingPlaces.bookingId, bookings.id))
    .where(
      and(
        tenant.where(
          bookings,
          eq(bookings.parentId, parentId),
          inArray(bookings.status, ['pending', 'confirmed']),
        ),
        gte(bookingPlaces.date, today),
      ),
    );
  return row?.n ?? 0;
}
