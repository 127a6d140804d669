import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { type MovedCounts, moveRows } from '../students/merge-rows.ts';
import { bookingChildren, bookings, waitlistEntries } from './bookings.tables.ts';

/** A family merge: the duplicate parent's event bookings and event waitlist entries. */
export async function moveFamilyRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return {
    bookings: await moveRows(tx, tenant, bookings, 'parentId', from, to),
    waitlist_entries: await moveRows(tx, tenant, waitlistEntries, 'parentId', from, to),
  };
}

/** A child merge: the duplicate child's places on bookings (a booking naming both keeps one). */
export async function moveChildRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  const kept = tx
    .select({ bookingId: bookingChildren.bookingId })
    .from(bookingChildren)
    .where(tenant.where(bookingChildren, eq(bookingChildren.childId, to)));
  await tx
    .delete(bookingChildren)
    .where(
      tenant.where(
        bookingChildren,
        and(eq(bookingChildren.childId, from), inArray(bookingChildren.bookingId, kept)),
      ),
    );
  return { booking_children: await moveRows(tx, tenant, bookingChildren, 'childId', from, to) };
}
