import type { CustomerDetail, CustomerRow } from '@tumble/contracts/operators';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { subscriptionSummaries } from '../../platform/installation/subscriptions.service.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { todayIn, zonedInstant } from '../../platform/time.ts';
import {
  type CustomerCompany,
  customerCompanies,
  customerCompany,
  staffOfCompanies,
} from '../accounts/companies.service.ts';
import { bookingsSince } from '../bookings/usage.service.ts';
import { childrenByCompany } from '../students/usage.service.ts';

/** The first instant of this month in the company's own time zone. */
const monthStart = (timeZone: string, now: Date) =>
  zonedInstant(`${todayIn(timeZone, now).slice(0, 8)}01`, '00:00', timeZone);

/** Cents received since each company's start of month, refunds taken off. */
async function revenueSince(db: Db, starts: { companyId: number; since: Date }[]) {
  if (starts.length === 0) return new Map<number, number>();
  const months = JSON.stringify(
    starts.map((s) => ({ company_id: s.companyId, since: s.since.toISOString() })),
  );
  // cross-tenant: the operator's Customers list sums every company's payments (no row is read).
  const rows = await db.execute<{ company_id: number; cents: number }>(sql`
    select m.company_id, coalesce(sum(${payments.amount} - ${payments.refunded}), 0)::int as cents
    from jsonb_to_recordset(${months}::jsonb) as m(company_id int, since timestamptz)
    join ${payments} on ${payments.companyId} = m.company_id
      and ${payments.paidAt} >= m.since and ${payments.status} in ('paid', 'refund_due', 'refunded')
    group by m.company_id`);
  return new Map(rows.rows.map((r) => [r.company_id, r.cents]));
}

/**
 * Every customer company with its status, plan and trial (the plans engineer's subscriptions), its
 * usage this month and its contact: the operator's Customers list.
 */
export async function listCustomers(deps: AppDeps, now = new Date()): Promise<CustomerRow[]> {
  return customerRows(deps, await customerCompanies(deps.database.db), now);
}

async function customerRows(deps: AppDeps, companies: CustomerCompany[], now: Date): Promise<CustomerRow[]> {
  const { db } = deps.database;
  const starts = companies.map((c) => ({ companyId: c.id, since: monthStart(c.timeZone, now) }));
  const [subscriptions, staff, children, bookings, revenue, storage] = await Promise.all([
    subscriptionSummaries(db),
    staffOfCompanies(db),
    childrenByCompany(db),
    bookingsSince(db, starts),
    revenueSince(db, starts),
    Promise.all(companies.map((c) => deps.files.usedBytes?.(c.id) ?? Promise.resolve(null))),
  ]);
  return companies.map((company, i) =>
    toRow(company, {
      subscription: subscriptions.get(company.id),
      staff: staff.get(company.id),
      children: children.get(company.id) ?? 0,
      bookings: bookings.get(company.id) ?? 0,
      revenue: revenue.get(company.id) ?? 0,
      storage: storage[i] ?? null,
    }),
  );
}

function toRow(
  company: CustomerCompany,
  usage: {
    subscription: { planName: string | null; status: string; trialEndsAt: string | null } | undefined;
    staff: { staff: number; contactName: string | null; contactEmail: string | null } | undefined;
    children: number;
    bookings: number;
    revenue: number;
    storage: number | null;
  },
): CustomerRow {
  return {
    id: company.id,
    name: company.name,
    status: company.status,
    status_reason: company.statusReason,
    plan: usage.subscription?.planName ?? null,
    subscription_status: usage.subscription?.status ?? null,
    trial_ends_at: usage.subscription?.trialEndsAt ?? null,
    currency: company.currency,
    authhash: company.authhash,
    usage: {
      children: usage.children,
      staff: usage.staff?.staff ?? 0,
      bookings_this_month: usage.bookings,
      revenue_this_month: usage.revenue,
      storage_bytes: usage.storage,
    },
    contact: {
      name: usage.staff?.contactName ?? null,
      email: company.email ?? usage.staff?.contactEmail ?? null,
      phone: company.phone,
    },
    created_at: company.createdAt.toISOString(),
  };
}

/** What the installation did to the company (status changes, support access), newest first. */
async function historyOf(db: Db, tenant: Tenant) {
  const rows = await db
    .select({
      at: auditLog.at,
      actor: auditLog.actorName,
      action: auditLog.action,
      summary: auditLog.summary,
    })
    .from(auditLog)
    .where(
      tenant.where(
        auditLog,
        eq(auditLog.entity, 'companies'),
        eq(auditLog.entityId, tenant.companyId),
        inArray(auditLog.action, [
          'approve',
          'decline',
          'suspend',
          'reactivate',
          'support-open',
          'support-end',
        ]),
      ),
    )
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(50);
  return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
}

/** One customer: its row and its history; an unknown id (or the installation's own) is 404. */
export async function getCustomer(deps: AppDeps, companyId: number): Promise<CustomerDetail> {
  const company = await customerCompany(deps.database.db, companyId);
  const [row] = await customerRows(deps, [company], new Date());
  return { ...row!, history: await historyOf(deps.database.db, new Tenant(company.id)) };
}
