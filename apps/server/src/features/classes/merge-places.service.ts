import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { type MovedCounts, moveRows } from '../students/merge-rows.ts';
import { enrolmentAdjustments } from './adjustments.tables.ts';
import { lockClasses } from './capacity.service.ts';
import { classWaitlist } from './class-waitlist.tables.ts';
import { attendance, classEnrolments } from './classes.tables.ts';
import { enrolmentVouchers } from './enrolment-vouchers.tables.ts';
import { enrolmentPurchases } from './enrolments.tables.ts';
import { makeupCredits } from './makeups.tables.ts';
import { rolloverItems } from './rollover.tables.ts';

/** A family merge: class purchases, the class waitlist, enrolment adjustments and rollover items. */
export async function moveFamilyRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return {
    enrolment_purchases: await moveRows(tx, tenant, enrolmentPurchases, 'parentId', from, to),
    'class_waitlist (family)': await moveRows(tx, tenant, classWaitlist, 'parentId', from, to),
    'enrolment_adjustments (family)': await moveRows(tx, tenant, enrolmentAdjustments, 'parentId', from, to),
    'rollover_items (family)': await moveRows(tx, tenant, rolloverItems, 'parentId', from, to),
  };
}

const holding = inArray(classEnrolments.status, ['pending', 'active']);

/**
 * A child merge: places, attendance, makeup credits, vouchers, the class waitlist, adjustments
 * and rollover items. Where both children hold a place in one class, the duplicate's is cancelled
 * under the class lock (the kept child keeps theirs); where both were marked on one session's roll,
 * the kept child's mark stays; a live makeup credit for a session both hold is revoked on the
 * duplicate. `cancelledPlaces` counts the cancelled places.
 */
export async function moveChildRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  const places = await tx
    .select({
      id: classEnrolments.id,
      termClassId: classEnrolments.termClassId,
      childId: classEnrolments.childId,
    })
    .from(classEnrolments)
    .where(tenant.where(classEnrolments, inArray(classEnrolments.childId, [from, to]), holding));
  const keptClasses = new Set(places.filter((p) => p.childId === to).map((p) => p.termClassId));
  const doubled = places.filter((p) => p.childId === from && keptClasses.has(p.termClassId));
  await lockClasses(
    tx,
    tenant,
    doubled.map((p) => p.termClassId),
  );
  if (doubled.length > 0) {
    await tx
      .update(classEnrolments)
      .set({ status: 'cancelled' })
      .where(
        tenant.where(
          classEnrolments,
          inArray(
            classEnrolments.id,
            doubled.map((p) => p.id),
          ),
        ),
      );
  }
  const keptSessions = tx
    .select({ sessionId: attendance.sessionId })
    .from(attendance)
    .where(tenant.where(attendance, eq(attendance.childId, to)));
  await tx
    .delete(attendance)
    .where(
      tenant.where(attendance, eq(attendance.childId, from), inArray(attendance.sessionId, keptSessions)),
    );
  const keptCredits = tx
    .select({ sessionId: makeupCredits.sessionId })
    .from(makeupCredits)
    .where(tenant.where(makeupCredits, eq(makeupCredits.childId, to), isNull(makeupCredits.revokedAt)));
  await tx
    .update(makeupCredits)
    .set({ revokedAt: new Date() })
    .where(
      tenant.where(
        makeupCredits,
        and(eq(makeupCredits.childId, from), isNull(makeupCredits.revokedAt)),
        inArray(makeupCredits.sessionId, keptCredits),
      ),
    );
  return {
    class_enrolments: await moveRows(tx, tenant, classEnrolments, 'childId', from, to),
    cancelledPlaces: doubled.length,
    attendance: await moveRows(tx, tenant, attendance, 'childId', from, to),
    makeup_credits: await moveRows(tx, tenant, makeupCredits, 'childId', from, to),
    enrolment_vouchers: await moveRows(tx, tenant, enrolmentVouchers, 'childId', from, to),
    'class_waitlist (child)': await moveRows(tx, tenant, classWaitlist, 'childId', from, to),
    'enrolment_adjustments (child)': await moveRows(tx, tenant, enrolmentAdjustments, 'childId', from, to),
    'rollover_items (child)': await moveRows(tx, tenant, rolloverItems, 'childId', from, to),
  };
}

/** Places both children hold in the same class (the preview names them before the merge). */
export async function doubledPlaces(tx: Db, tenant: Tenant, from: number, to: number): Promise<number[]> {
  const places = await tx
    .select({ termClassId: classEnrolments.termClassId, childId: classEnrolments.childId })
    .from(classEnrolments)
    .where(tenant.where(classEnrolments, inArray(classEnrolments.childId, [from, to]), holding));
  const kept = new Set(places.filter((p) => p.childId === to).map((p) => p.termClassId));
  return [
    ...new Set(places.filter((p) => p.childId === from && kept.has(p.termClassId)).map((p) => p.termClassId)),
  ];
}

/** Half-years in which both children used an NSW voucher: one child may hold one per half-year. */
export async function doubledVoucherPeriods(
  tx: Db,
  tenant: Tenant,
  from: number,
  to: number,
): Promise<string[]> {
  const rows = await tx
    .select({ period: enrolmentVouchers.period, childId: enrolmentVouchers.childId })
    .from(enrolmentVouchers)
    .where(tenant.where(enrolmentVouchers, inArray(enrolmentVouchers.childId, [from, to])));
  const kept = new Set(rows.filter((r) => r.childId === to).map((r) => r.period));
  return rows.filter((r) => r.childId === from && kept.has(r.period)).map((r) => r.period);
}
