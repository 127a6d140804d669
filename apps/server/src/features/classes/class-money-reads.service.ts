import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { classEnrolments } from './classes.tables.ts';
import { enrolmentVouchers } from './enrolment-vouchers.tables.ts';
import { enrolmentPurchases } from './enrolments.tables.ts';

/** Tenant-scoped subqueries of classes for the reports (features/reports), joined there in SQL. */

/** Each confirmed enrolment purchase: total and coupon discount (cents). */
export function classPurchasesQuery(db: Db, tenant: Tenant) {
  return db
    .select({
      id: enrolmentPurchases.id,
      code: enrolmentPurchases.code,
      total: enrolmentPurchases.total,
      discount: sql<number>`coalesce(-(${enrolmentPurchases.pricing}->>'coupon')::int, 0)`.as(
        'class_discount',
      ),
    })
    .from(enrolmentPurchases)
    .where(tenant.where(enrolmentPurchases, eq(enrolmentPurchases.status, 'confirmed')))
    .as('class_purchases');
}

/**
 * The day each child first started a class (any place that was taken: active or since withdrawn);
 * a place without a start date starts the day it was made.
 */
export function classStartsQuery(db: Db, tenant: Tenant) {
  return db
    .select({
      childId: classEnrolments.childId,
      firstStart:
        sql<string>`min(coalesce(${classEnrolments.startsOn}, ${classEnrolments.createdAt}::date))`.as(
          'class_first_start',
        ),
    })
    .from(classEnrolments)
    .where(tenant.where(classEnrolments, inArray(classEnrolments.status, ['active', 'withdrawn'])))
    .groupBy(classEnrolments.childId)
    .as('class_starts');
}

/**
 * Each NSW voucher used on class fees with its purchase; its amount is the purchase's voucher
 * discount shared between the vouchers of that purchase (one per child).
 */
export function classVouchersQuery(db: Db, tenant: Tenant) {
  return db
    .select({
      id: enrolmentVouchers.id,
      code: enrolmentVouchers.code,
      childId: enrolmentVouchers.childId,
      reference: sql<string>`${enrolmentPurchases.code}`.as('voucher_purchase_code'),
      amount: sql<number>`(coalesce(-(${enrolmentPurchases.pricing}->>'nsw_voucher')::int, 0)
        / count(*) over (partition by ${enrolmentVouchers.purchaseId}))::int`.as('class_voucher_amount'),
      createdAt: enrolmentVouchers.createdAt,
    })
    .from(enrolmentVouchers)
    .innerJoin(enrolmentPurchases, eq(enrolmentPurchases.id, enrolmentVouchers.purchaseId))
    .where(
      tenant.where(
        enrolmentVouchers,
        tenant.where(enrolmentPurchases, eq(enrolmentPurchases.status, 'confirmed')),
      ),
    )
    .as('class_vouchers');
}
