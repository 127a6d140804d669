import { staffRoles } from '@tumble/contracts/auth';
import { type PlanOption, platformMessages, type SubscriptionResponse } from '@tumble/contracts/platform';
import { and, asc, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companies, users } from '../../features/accounts/accounts.tables.ts';
import { children } from '../../features/students/students.tables.ts';
import { recordAudit } from '../audit/audit.ts';
import type { AuthContext } from '../auth.ts';
import type { AppDeps } from '../deps.ts';
import { BadRequestError } from '../errors.ts';
import type { Tenant } from '../tenancy.ts';
import { todayIn } from '../time.ts';
import { installationBilling, type SubscriptionEvent } from './billing.ts';
import { plans } from './installation.tables.ts';
import { type SubscriptionStatus, subscriptionEvents, subscriptions } from './subscriptions.tables.ts';

/**
 * The status as of now: a trial of the test provider (no Stripe to say so) has become active once
 * its trial ended; Stripe's subscriptions say it themselves through their webhooks.
 */
export function statusNow(
  row: { status: SubscriptionStatus; provider: string; trialEndsAt: Date | null },
  now = new Date(),
): SubscriptionStatus {
  if (row.status === 'trialing' && row.provider === 'test' && row.trialEndsAt && row.trialEndsAt <= now)
    return 'active';
  return row.status;
}

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
      provider: subscriptions.provider,
      trialEndsAt: subscriptions.trialEndsAt,
    })
    .from(subscriptions)
    .leftJoin(plans, eq(plans.id, subscriptions.planId));
  return new Map(
    rows.map((r) => [
      r.companyId,
      { planName: r.planName, status: statusNow(r), trialEndsAt: r.trialEndsAt?.toISOString() ?? null },
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

const planOption = (p: typeof plans.$inferSelect): PlanOption => ({
  id: p.id,
  name: p.name,
  monthly_price: p.monthlyPrice,
  trial_days: p.trialDays,
  max_children: p.maxChildren,
  max_staff: p.maxStaff,
  modules: p.modules,
});

/** The plans a company may pick: not archived, cheapest first. */
function offeredPlans(db: Db) {
  return db
    .select()
    .from(plans)
    .where(isNull(plans.archivedAt))
    .orderBy(asc(plans.monthlyPrice), asc(plans.id));
}

// ---- Plan limits -------------------------------------------------------------------------------

export type LimitKind = 'children' | 'staff';
const limitWords: Record<LimitKind, (n: number) => string> = {
  children: (n) => `${n} ${n === 1 ? 'child' : 'children'}`,
  staff: (n) => `${n} staff ${n === 1 ? 'user' : 'users'}`,
};

async function usageOf(db: Db, tenant: Tenant): Promise<Record<LimitKind, number>> {
  const [kids] = await db.select({ n: count() }).from(children).where(tenant.where(children));
  const [staff] = await db
    .select({ n: count() })
    .from(users)
    .where(tenant.where(users, inArray(users.role, [...staffRoles]), ne(users.status, 'disabled')));
  return { children: kids?.n ?? 0, staff: staff?.n ?? 0 };
}

const limitOf = (plan: typeof plans.$inferSelect, kind: LimitKind) =>
  kind === 'children' ? plan.maxChildren : plan.maxStaff;

async function currentPlan(db: Db, tenant: Tenant) {
  const [row] = await db
    .select({ plan: plans, subscription: subscriptions })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(tenant.where(subscriptions))
    .limit(1);
  return row ?? null;
}

/** What to tell a company over (or about to go over) a limit: the limit, and the plan to move to. */
async function overLimitMessage(db: Db, kind: LimitKind, limit: number, needed: number): Promise<string> {
  const bigger = (await offeredPlans(db)).find((p) => {
    const other = limitOf(p, kind);
    return other === null || other >= needed;
  });
  return platformMessages.overLimit
    .replace('{limit}', limitWords[kind](limit))
    .replace('{plan}', bigger ? bigger.name : 'a larger plan');
}

/**
 * Call in the transaction that adds children or staff users, before adding them: refuses (400,
 * naming the limit and the plan to move to) when the plan's limit would be passed. Nothing that
 * exists is touched; a company already over its limit (it moved to a smaller plan) keeps
 * everything and only cannot add more. Without a plan there is no limit.
 */
export async function assertRoomFor(tx: Db, tenant: Tenant, kind: LimitKind, adding = 1): Promise<void> {
  if (adding <= 0) return;
  const current = await currentPlan(tx, tenant);
  const limit = current ? limitOf(current.plan, kind) : null;
  if (limit === null) return;
  // One adder at a time per company and kind: two at once cannot both take the last place.
  await tx.execute(
    sql`select pg_advisory_xact_lock(${tenant.companyId}, ${kind === 'children' ? 1801 : 1802})`,
  );
  const used = (await usageOf(tx, tenant))[kind];
  if (used + adding > limit)
    throw new BadRequestError(await overLimitMessage(tx, kind, limit, used + adding));
}

/** The banner for a company over a limit of its plan (it moved to a smaller plan), or null. */
export async function overLimitNotice(db: Db, tenant: Tenant): Promise<string | null> {
  const current = await currentPlan(db, tenant);
  if (!current) return null;
  const usage = await usageOf(db, tenant);
  for (const kind of ['children', 'staff'] as const) {
    const limit = limitOf(current.plan, kind);
    if (limit !== null && usage[kind] > limit) {
      const advice = await overLimitMessage(db, kind, limit, usage[kind]);
      return `You have ${limitWords[kind](usage[kind])}. ${advice} Nothing has been removed.`;
    }
  }
  return null;
}

// ---- The company's subscription ------------------------------------------------------------------

export async function subscriptionPage(db: Db, tenant: Tenant): Promise<SubscriptionResponse> {
  const [current, offered, usage, company] = await Promise.all([
    currentPlan(db, tenant),
    offeredPlans(db),
    usageOf(db, tenant),
    db.select({ timeZone: companies.timeZone }).from(companies).where(eq(companies.id, tenant.companyId)),
  ]);
  const timeZone = company[0]?.timeZone ?? 'UTC';
  return {
    current: current
      ? {
          plan_id: current.plan.id,
          plan_name: current.plan.name,
          status: statusNow(current.subscription),
          trial_ends_on: current.subscription.trialEndsAt
            ? todayIn(timeZone, current.subscription.trialEndsAt)
            : null,
        }
      : null,
    plans: offered.map(planOption),
    usage: [
      { what: 'children', used: usage.children, limit: current?.plan.maxChildren ?? null },
      { what: 'staff users', used: usage.staff, limit: current?.plan.maxStaff ?? null },
    ],
    over_limit: await overLimitNotice(db, tenant),
  };
}

/**
 * The company admin picks a plan. With the test provider (demo, tests) it applies at once, the
 * first plan starting its trial; with Stripe a first plan is a Checkout Session (the webhook makes
 * the subscription) and a change moves the Stripe subscription to the new price. Moving to a
 * smaller plan is allowed: nothing is removed, the company is told it is over the limit.
 */
export async function choosePlan(
  deps: AppDeps,
  auth: AuthContext,
  planId: number,
  now = new Date(),
): Promise<{ message: string; checkout_url: string | null }> {
  const { db } = deps.database;
  const [plan] = await db
    .select()
    .from(plans)
    .where(and(eq(plans.id, planId), isNull(plans.archivedAt)));
  if (!plan) throw new BadRequestError(platformMessages.unknownPlan);
  const billing = installationBilling(deps.config);
  const existing = await currentPlan(db, auth.tenant);

  if (billing.name === 'stripe') {
    if (!plan.stripePriceId) throw new BadRequestError('This plan cannot be billed yet. Please contact us.');
    if (existing?.subscription.subscriptionRef && existing.subscription.status !== 'cancelled') {
      await billing.changePrice(existing.subscription.subscriptionRef, plan.stripePriceId);
      await db.transaction(async (tx) => {
        await tx
          .update(subscriptions)
          .set({ planId: plan.id, updatedAt: now })
          .where(auth.tenant.where(subscriptions));
        await recordAudit(tx, auth, {
          action: 'subscription.change',
          entity: 'subscription',
          entityId: existing.subscription.id,
          before: { plan: existing.plan.name },
          after: { plan: plan.name },
        });
      });
      return { message: `Your plan is now ${plan.name}.`, checkout_url: null };
    }
    const [company] = await db
      .select({ name: companies.name })
      .from(companies)
      .where(eq(companies.id, auth.tenant.companyId));
    const start = await billing.startSubscription({
      companyId: auth.tenant.companyId,
      companyName: company?.name ?? '',
      email: auth.email,
      planId: plan.id,
      priceId: plan.stripePriceId,
      trialDays: plan.trialDays,
      returnUrl: `${deps.config.publicUrl}/admin/subscription`,
    });
    return { message: 'Finish subscribing on the payment page.', checkout_url: start.url };
  }

  await db.transaction(async (tx) => {
    const trialEndsAt = plan.trialDays > 0 ? new Date(now.getTime() + plan.trialDays * 86_400_000) : null;
    const [row] = await tx
      .insert(subscriptions)
      .values(
        auth.tenant.values({
          planId: plan.id,
          status: trialEndsAt ? ('trialing' as const) : ('active' as const),
          trialEndsAt,
          provider: 'test',
        }),
      )
      // A change of plan keeps the trial and status the company has.
      .onConflictDoUpdate({
        target: subscriptions.companyId,
        set: { planId: plan.id, updatedAt: now },
      })
      .returning({ id: subscriptions.id });
    await recordAudit(tx, auth, {
      action: existing ? 'subscription.change' : 'subscription.start',
      entity: 'subscription',
      entityId: row?.id ?? null,
      before: existing ? { plan: existing.plan.name } : null,
      after: { plan: plan.name },
    });
  });
  return { message: `Your plan is now ${plan.name}.`, checkout_url: null };
}

/**
 * One Stripe subscription webhook event, in one transaction. Idempotent like the booking webhooks:
 * the event id is recorded first, so a replay changes nothing; and the newest state by the
 * event's `created` wins, so an older event arriving late changes nothing either.
 */
export async function applySubscriptionEvent(
  db: Db,
  provider: string,
  event: SubscriptionEvent,
): Promise<void> {
  await db.transaction(async (tx) => {
    const recorded = await tx
      .insert(subscriptionEvents)
      .values({ provider, eventId: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: subscriptionEvents.id });
    if (recorded.length === 0) return; // seen before

    if (event.kind === 'invoice') {
      await tx
        .update(subscriptions)
        .set({ status: event.status, lastEventAt: event.created, updatedAt: new Date() })
        // cross-tenant: a webhook names the subscription, which tells us the company.
        .where(
          and(
            eq(subscriptions.provider, provider),
            eq(subscriptions.subscriptionRef, event.subscriptionRef),
            sql`${subscriptions.lastEventAt} <= ${event.created}`,
          ),
        );
      return;
    }

    // The company: the subscription we know, else the company id Stripe carries in its metadata.
    const [known] = await tx
      .select({ companyId: subscriptions.companyId, planId: subscriptions.planId })
      .from(subscriptions)
      // cross-tenant: a webhook names the subscription, which tells us the company.
      .where(
        and(eq(subscriptions.provider, provider), eq(subscriptions.subscriptionRef, event.subscriptionRef)),
      );
    const companyId = known?.companyId ?? event.companyId;
    if (!companyId) return;
    const [byPrice] = event.priceId
      ? await tx.select({ id: plans.id }).from(plans).where(eq(plans.stripePriceId, event.priceId))
      : [];
    const planId = byPrice?.id ?? known?.planId;
    if (!planId) return;
    const values = {
      planId,
      status: event.status,
      trialEndsAt: event.trialEndsAt,
      provider,
      customerRef: event.customerRef,
      subscriptionRef: event.subscriptionRef,
      lastEventAt: event.created,
      updatedAt: new Date(),
    };
    await tx
      .insert(subscriptions)
      .values({ companyId, ...values })
      .onConflictDoUpdate({
        target: subscriptions.companyId,
        set: values,
        // Only a newer event than the one the row shows changes it.
        setWhere: sql`${subscriptions.lastEventAt} <= ${event.created}`,
      });
  });
}
