import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { couponRedemptions, coupons, insurances, promotionalCodes } from './billing.tables.ts';

/** Tenant-scoped subqueries of billing for the reports (features/reports), joined there in SQL. */

/** Every redemption with the coupon or promotional code it used (null: a voucher only). */
export function redemptionsQuery(db: Db, tenant: Tenant) {
  return db
    .select({
      purchaseKind: couponRedemptions.purchaseKind,
      purchaseId: couponRedemptions.purchaseId,
      code: sql<string | null>`coalesce(${coupons.code}, ${promotionalCodes.code})`.as('redemption_code'),
      codeType: sql<string | null>`case when ${coupons.id} is not null then 'Coupon'
        when ${promotionalCodes.id} is not null then 'Promotional code' end`.as('redemption_code_type'),
      voucherCode: couponRedemptions.voucherCode,
      createdAt: couponRedemptions.createdAt,
    })
    .from(couponRedemptions)
    .leftJoin(coupons, tenant.where(coupons, eq(coupons.id, couponRedemptions.couponId)))
    .leftJoin(
      promotionalCodes,
      tenant.where(promotionalCodes, eq(promotionalCodes.id, couponRedemptions.promotionalCodeId)),
    )
    .where(tenant.where(couponRedemptions))
    .as('redemptions');
}

/** The company's insurance products. */
export function insuranceProductsQuery(db: Db, tenant: Tenant) {
  return db
    .select({ id: insurances.id, name: insurances.name, kind: insurances.kind })
    .from(insurances)
    .where(tenant.where(insurances))
    .as('insurance_products');
}
