import { and, asc, between, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { defineReport, type FilterValues } from '../../platform/reports/report.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { redemptionsQuery } from '../billing/billing-reports.service.ts';
import { eventCoverQuery, eventPurchasesQuery } from '../bookings/booking-reports.service.ts';
import { classVouchersQuery } from '../classes/class-money-reads.service.ts';
import { partyPurchasesQuery } from '../parties/party-purchases.service.ts';
import { childNamesQuery } from '../students/children-reports.service.ts';
import { dayOf, periodFilters, periodOf } from './period.ts';
import { voucherClaimsQuery } from './voucher-claims.service.ts';

/**
 * Every NSW voucher redeemed in the period on a paid purchase: an event booking or a party (the
 * purchase's coupon_redemptions row) or class fees (classes' enrolment_vouchers, one per child).
 * Its amount is the voucher discount of the purchase (shared between a class purchase's vouchers).
 */
async function vouchersQuery(db: Db, tenant: Tenant, filters: FilterValues) {
  const { from, to, timeZone } = await periodOf(db, tenant, filters);
  const child = childNamesQuery(db, tenant);

  const r = redemptionsQuery(db, tenant);
  const e = eventPurchasesQuery(db, tenant);
  const cover = eventCoverQuery(db, tenant);
  const onEvents = db
    .select({
      code: sql<string>`${r.voucherCode}`.as('voucher_code'),
      child: sql<string>`string_agg(${child.name}, ', ' order by ${child.name})`.as('voucher_child'),
      kind: sql<string>`'Event booking'`.as('voucher_kind'),
      reference: sql<string>`${e.code}`.as('voucher_reference'),
      amount: sql<number>`${e.voucher}`.as('voucher_amount'),
      date: sql<string>`${dayOf(r.createdAt, timeZone)}::text`.as('voucher_date'),
    })
    .from(r)
    .innerJoin(e, and(eq(r.purchaseKind, 'event'), eq(e.id, r.purchaseId)))
    .innerJoin(cover, eq(cover.bookingId, e.id))
    .innerJoin(child, eq(child.id, cover.childId))
    .where(and(isNotNull(r.voucherCode), between(dayOf(r.createdAt, timeZone), from, to)))
    .groupBy(r.voucherCode, e.code, e.voucher, r.createdAt);

  const r2 = redemptionsQuery(db, tenant);
  const p = partyPurchasesQuery(db, tenant);
  const child2 = childNamesQuery(db, tenant);
  const onParties = db
    .select({
      code: sql<string>`${r2.voucherCode}`,
      child: sql<string>`${child2.name}`,
      kind: sql<string>`'Party'`,
      reference: sql<string>`${p.code}`,
      amount: sql<number>`${p.voucher}`,
      date: sql<string>`${dayOf(r2.createdAt, timeZone)}::text`,
    })
    .from(r2)
    .innerJoin(p, and(inArray(r2.purchaseKind, ['party']), eq(p.id, r2.purchaseId)))
    .innerJoin(child2, eq(child2.id, p.childId))
    .where(and(isNotNull(r2.voucherCode), between(dayOf(r2.createdAt, timeZone), from, to)));

  const c = classVouchersQuery(db, tenant);
  const child3 = childNamesQuery(db, tenant);
  const onClasses = db
    .select({
      code: sql<string>`${c.code}`,
      child: sql<string>`${child3.name}`,
      kind: sql<string>`'Class enrolment'`,
      reference: sql<string>`${c.reference}`,
      amount: sql<number>`${c.amount}`,
      date: sql<string>`${dayOf(c.createdAt, timeZone)}::text`,
    })
    .from(c)
    .innerJoin(child3, eq(child3.id, c.childId))
    .where(between(dayOf(c.createdAt, timeZone), from, to));

  return unionAll(onEvents, onParties, onClasses).as('vouchers');
}

/** SPEC reports (issue 17): NSW Active and Creative Kids vouchers redeemed, to reconcile the claims. */
export const vouchersReport = defineReport({
  name: 'vouchers',
  title: 'NSW vouchers',
  permission: 'billing.read',
  filters: periodFilters,
  tables: {
    kinds: {
      label: 'By purchase',
      columns: [
        { name: 'kind', label: 'Purchase', type: 'text' },
        { name: 'vouchers', label: 'Vouchers', type: 'number' },
        { name: 'amount', label: 'Amount', type: 'money' },
      ],
      chart: { x: 'kind', y: 'amount' },
      rows: async ({ db, tenant, filters }) => {
        const v = await vouchersQuery(db, tenant, filters);
        return db
          .select({
            kind: v.kind,
            vouchers: sql<number>`count(*)::int`,
            amount: sql<number>`sum(${v.amount})::int`,
          })
          .from(v)
          .groupBy(v.kind)
          .orderBy(asc(v.kind));
      },
    },
    vouchers: {
      label: 'Vouchers redeemed',
      columns: [
        { name: 'code', label: 'Voucher', type: 'text' },
        { name: 'child', label: 'Child', type: 'text' },
        { name: 'kind', label: 'Used on', type: 'text' },
        { name: 'reference', label: 'Booking or enrolment', type: 'text' },
        { name: 'amount', label: 'Amount', type: 'money' },
        { name: 'date', label: 'Date', type: 'date' },
        { name: 'status', label: 'Claim', type: 'text' },
      ],
      rows: async ({ db, tenant, filters }) => {
        const v = await vouchersQuery(db, tenant, filters);
        const claim = voucherClaimsQuery(db, tenant);
        return db
          .select({
            code: v.code,
            child: v.child,
            kind: v.kind,
            reference: v.reference,
            amount: v.amount,
            date: v.date,
            status: sql<string>`case ${claim.status} when 'claimed' then 'Claimed'
              when 'reimbursed' then 'Reimbursed' else 'Not claimed' end`,
          })
          .from(v)
          .leftJoin(claim, eq(claim.code, v.code))
          .orderBy(asc(v.date), asc(v.code));
      },
    },
  },
});
