import { and, eq, inArray, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { bookings } from './bookings.tables.ts';

/**
 * Of these parents, the ones with an unpaid balance on an event booking: a refund to settle
 * (`refund_due`) or a checkout left pending past its hold. Re-enrolment (features/classes) reads it
 * to flag a family's places instead of holding them.
 */
export async function parentsWithUnpaidBookings(db: Db, tenant: Tenant, parentIds: number[]) {
  const ids = [...new Set(parentIds)];
  if (ids.length === 0) return new Set<number>();
  const rows = await db
    .selectDistinct({ parentId: bookings.parentId })
    .from(bookings)
    .where(
      tenant.where(
        bookings,
        inArray(bookings.parentId, ids),
        or(
          eq(bookings.status, 'refund_due'),
          and(eq(bookings.status, 'pending'), lt(bookings.holdExpiresAt, new Date())),
        ),
      ),
    );
  return new Set(rows.map((r) => r.parentId));
}
