import { and, asc, between, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineReport, type FilterValues } from '../../platform/reports/report.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { redemptionsQuery } from '../billing/billing-reports.service.ts';
import { eventPurchasesQuery } from '../bookings/booking-reports.service.ts';
import { classPurchasesQuery } from '../classes/class-money-reads.service.ts';
import { partyPurchasesQuery } from '../parties/party-purchases.service.ts';
import { dayOf, periodFilters, periodOf } from './period.ts';

/** What the report calls each kind of purchase a code was used on. */
const KINDS = { event: 'Event', party: 'Party', enrolment: 'Class' } as const;

/**
 * The coupon and promotional code uses of the period on confirmed purchases (events, parties and
 * class enrolments), one row per purchase with what it was discounted and what it brought in.
 * Private lessons and invoices have no report kind yet and are left out.
 */
async function usesQuery(db: Db, tenant: Tenant, filters: FilterValues) {
  const period = await periodOf(db, tenant, filters);
  const r = redemptionsQuery(db, tenant);
  const e = eventPurchasesQuery(db, tenant);
  const p = partyPurchasesQuery(db, tenant);
  const c = classPurchasesQuery(db, tenant);
  const kind = filters.kind === 'class' ? 'enrolment' : filters.kind;
  return db
    .select({
      code: r.code,
      codeType: r.codeType,
      kind: sql<string>`case ${r.purchaseKind} when 'event' then ${KINDS.event}
        when 'party' then ${KINDS.party} else ${KINDS.enrolment} end`.as('use_kind'),
      discount: sql<number>`coalesce(${e.discount}, ${p.discount}, ${c.discount})`.as('use_discount'),
      revenue: sql<number>`coalesce(${e.total}, ${p.total}, ${c.total})`.as('use_revenue'),
    })
    .from(r)
    .leftJoin(e, and(eq(r.purchaseKind, 'event'), eq(e.id, r.purchaseId)))
    .leftJoin(p, and(eq(r.purchaseKind, 'party'), eq(p.id, r.purchaseId)))
    .leftJoin(c, and(eq(r.purchaseKind, 'enrolment'), eq(c.id, r.purchaseId)))
    .where(
      and(
        isNotNull(r.code),
        sql`coalesce(${e.id}, ${p.id}, ${c.id}) is not null`,
        between(dayOf(r.createdAt, period.timeZone), period.from, period.to),
        kind === 'event' || kind === 'party' || kind === 'enrolment' ? eq(r.purchaseKind, kind) : undefined,
      ),
    )
    .as('uses');
}

const totals = (u: Awaited<ReturnType<typeof usesQuery>>) => ({
  uses: sql<number>`count(*)::int`,
  discount: sql<number>`sum(${u.discount})::int`,
  revenue: sql<number>`sum(${u.revenue})::int`,
});

/** SPEC.md reports/coupon-code-usages: per coupon and promotional code, its uses, discount and revenue. */
export const couponUsagesReport = defineReport({
  name: 'coupon-code-usages',
  title: 'Coupon code usages',
  permission: 'billing.read',
  filters: [
    ...periodFilters,
    {
      name: 'kind',
      label: 'Used on',
      type: 'select',
      options: [
        { value: 'all', label: 'Everything' },
        { value: 'event', label: 'Events' },
        { value: 'party', label: 'Parties' },
        { value: 'class', label: 'Classes' },
      ],
    },
  ],
  tables: {
    codes: {
      label: 'By code',
      columns: [
        { name: 'code', label: 'Code', type: 'text' },
        { name: 'type', label: 'Type', type: 'text' },
        { name: 'uses', label: 'Uses', type: 'number' },
        { name: 'discount', label: 'Discount given', type: 'money' },
        { name: 'revenue', label: 'Revenue', type: 'money' },
      ],
      chart: { x: 'code', y: 'uses' },
      rows: async ({ db, tenant, filters }) => {
        const u = await usesQuery(db, tenant, filters);
        return db
          .select({ code: u.code, type: u.codeType, ...totals(u) })
          .from(u)
          .groupBy(u.code, u.codeType)
          .orderBy(sql`count(*) desc`, asc(u.code));
      },
    },
    kinds: {
      label: 'By code and kind',
      columns: [
        { name: 'code', label: 'Code', type: 'text' },
        { name: 'kind', label: 'Used on', type: 'text' },
        { name: 'uses', label: 'Uses', type: 'number' },
        { name: 'discount', label: 'Discount given', type: 'money' },
        { name: 'revenue', label: 'Revenue', type: 'money' },
      ],
      rows: async ({ db, tenant, filters }) => {
        const u = await usesQuery(db, tenant, filters);
        return db
          .select({ code: u.code, kind: u.kind, ...totals(u) })
          .from(u)
          .groupBy(u.code, u.kind)
          .orderBy(asc(u.code), asc(u.kind));
      },
    },
  },
});
