import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../tenancy.ts';
import { plans } from './installation.tables.ts';
import { subscriptions } from './subscriptions.tables.ts';

export interface SubscriptionSummary {
  planName: string | null;
  status: string;
  trialEndsAt: string | null;
}

/** Every company's subscription, by company id, for the operator's Customers list (no row: no plan). */
export async function subscriptionSummaries(db: Db): Promise<Map<number, SubscriptionSummary>> {
  const rows = await db
    .select({
      companyId: subscriptions.companyId,
      planName: plans.name,
      status: subscriptions.status,
      trialEndsAt: subscriptions.trialEndsAt,
    })
    .from(subscriptions)
    .leftJoin(plans, eq(plans.id, subscriptions.planId));
  return new Map(
    rows.map((r) => [
      r.companyId,
      { planName: r.planName, status: r.status, trialEndsAt: r.trialEndsAt?.toISOString() ?? null },
    ]),
  );
}

/** The company's plan's name; null without a plan. */
export async function currentPlanName(db: Db, tenant: Tenant): Promise<string | null> {
  const [row] = await db
    .select({ name: plans.name })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(tenant.where(subscriptions))
    .limit(1);
  return row?.name ?? null;
}
