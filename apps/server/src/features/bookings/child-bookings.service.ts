import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { bookingChildren, bookings } from './bookings.tables.ts';

/** The event bookings this child is on (any status but lapsed holds), newest first. */
export async function childEventBookings(db: Db, tenant: Tenant, childId: number) {
  const rows = await db
    .select({ booking: bookings })
    .from(bookingChildren)
    .innerJoin(bookings, eq(bookings.id, bookingChildren.bookingId))
    .where(tenant.where(bookingChildren, eq(bookingChildren.childId, childId)))
    .orderBy(desc(bookings.createdAt), desc(bookings.id));
  // A child is on a booking once; a lapsed hold was never a booking.
  const seen = new Set<number>();
  return rows
    .map((r) => r.booking)
    .filter((b) => b.status !== 'expired' && !seen.has(b.id) && seen.add(b.id));
}
