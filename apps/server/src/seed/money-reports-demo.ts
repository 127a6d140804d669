import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../features/accounts/accounts.tables.ts';
import { couponRedemptions, coupons, insurances } from '../features/billing/billing.tables.ts';
import { bookingChildren, bookingPlaces, bookings } from '../features/bookings/bookings.tables.ts';
import { eventSessions, events } from '../features/events/events.tables.ts';
import { children } from '../features/students/students.tables.ts';
import { DEMO_COUPON, type DemoScope } from './demo-scope.ts';

/** The demo booking of the money reports, found by its code on a later start (unique per company). */
const CODE = 'BK-DREP1';

/**
 * What the insurance, coupon, voucher and events reports need in a demo company: the Family
 * children on the camp's second day, Noah with daily cover and Ava with season cover, paid with the
 * WELCOME10 coupon and an NSW Active Kids voucher. Once: skipped when the booking exists.
 */
export async function seedMoneyReportsDemo(db: Db, scope: DemoScope): Promise<void> {
  const { tenant } = scope;
  await db.transaction(async (tx) => {
    const [done] = await tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(tenant.where(bookings, eq(bookings.code, CODE)));
    const [family] = await tx
      .select({ id: users.id })
      .from(users)
      .where(tenant.where(users, eq(users.email, scope.email('family'))));
    const [camp] = await tx
      .select({ startDate: events.startDate })
      .from(events)
      .where(tenant.byId(events, scope.events.camp));
    const [session] = await tx
      .select({ id: eventSessions.id })
      .from(eventSessions)
      .where(tenant.where(eventSessions, eq(eventSessions.eventId, scope.events.camp)))
      .orderBy(asc(eventSessions.id))
      .limit(1);
    const [coupon] = await tx
      .select({ id: coupons.id })
      .from(coupons)
      .where(tenant.where(coupons, eq(coupons.code, DEMO_COUPON)));
    const cover = await tx
      .select({ id: insurances.id, kind: insurances.kind })
      .from(insurances)
      .where(tenant.where(insurances))
      .orderBy(asc(insurances.id));
    if (done || !family || !camp || !session || !coupon) return;
    const kids = await tx
      .select({ id: children.id })
      .from(children)
      .where(tenant.where(children, and(eq(children.parentId, family.id))))
      .orderBy(asc(children.id));
    const daily = cover.find((c) => c.kind === 'daily');
    const full = cover.find((c) => c.kind === 'full');
    if (kids.length < 2 || !daily || !full) return;
    const day = new Date(Date.parse(`${camp.startDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    // 2 × $75, less 10% ($15) and the $50 voucher, plus $3 daily and $25 season cover: $113.
    const pricing = { subtotal: 15000, insurance: 2800, coupon: -1500, nsw_voucher: -5000, total: 11300 };
    const [booking] = await tx
      .insert(bookings)
      .values(
        tenant.values({
          parentId: family.id,
          eventId: scope.events.camp,
          // Booking references are unique across the installation, codes only per company.
          reference: scope.unique('demo-money-reports'),
          code: CODE,
          status: 'confirmed' as const,
          quantity: 2,
          pricing,
          total: pricing.total,
          couponId: coupon.id,
          couponCode: DEMO_COUPON,
          nswCode: 'AK100200',
          provider: 'test' as const,
          confirmedAt: new Date(),
        }),
      )
      .returning();
    await tx.insert(bookingChildren).values([
      tenant.values({
        bookingId: booking!.id,
        childId: kids[0]!.id,
        insuranceType: 'daily_insurance' as const,
        insuranceIds: [daily.id],
      }),
      tenant.values({
        bookingId: booking!.id,
        childId: kids[1]!.id,
        insuranceType: 'full_insurance' as const,
        insuranceIds: [full.id],
      }),
    ]);
    await tx.insert(bookingPlaces).values(
      tenant.values({
        bookingId: booking!.id,
        sessionId: session.id,
        date: day,
        places: 2,
        unitPrice: 7500,
      }),
    );
    await tx.insert(couponRedemptions).values(
      tenant.values({
        couponId: coupon.id,
        voucherCode: 'AK100200',
        parentId: family.id,
        purchaseKind: 'event' as const,
        purchaseId: booking!.id,
      }),
    );
  });
}
