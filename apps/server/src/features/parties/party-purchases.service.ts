import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { partyBookings } from './parties.tables.ts';

/** Each confirmed party as a purchase, for the reports (features/reports): total and coupon discount (cents). */
export function partyPurchasesQuery(db: Db, tenant: Tenant) {
  return db
    .select({
      id: partyBookings.id,
      code: partyBookings.code,
      childId: partyBookings.childId,
      total: partyBookings.total,
      discount: sql<number>`coalesce(-(${partyBookings.pricing}->>'coupon')::int, 0)`.as('party_discount'),
      voucher: sql<number>`coalesce(-(${partyBookings.pricing}->>'nsw_voucher')::int, 0)`.as('party_voucher'),
    })
    .from(partyBookings)
    .where(tenant.where(partyBookings, eq(partyBookings.status, 'confirmed')))
    .as('party_purchases');
}
