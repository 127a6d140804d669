import { eq, inArray, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { bookings } from './bookings.tables.ts';

/** Families (subquery of parent ids) with a confirmed booking for one of the events (mass mail filter). */
export function familiesBookedOn(db: Db, tenant: Tenant, eventIds: number[]): SQLWrapper {
  return db
    .select({ parentId: bookings.parentId })
    .from(bookings)
    .where(tenant.where(bookings, inArray(bookings.eventId, eventIds), eq(bookings.status, 'confirmed')));
}
