import type { CheckoutResponse } from '@tumble/contracts/booking';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companyContact, companyOf } from '../../features/accounts/accounts.service.ts';
import type { AppDeps } from '../deps.ts';
import { AppError, NotFoundError } from '../errors.ts';
import { queues } from '../jobs.ts';
import { queueMail } from '../mail/mail.service.ts';
import { formatMoney } from '../money.ts';
import { Tenant } from '../tenancy.ts';
import { payments } from './payments.tables.ts';
import type { CheckoutRequest, ProviderName } from './provider.ts';
import { providerFor } from './registry.ts';

/** What a payment pays for: a kind of sale of features/checkout (decision 010). */
export type PurchaseKind = NonNullable<(typeof payments.$inferSelect)['purchaseKind']>;

/**
 * How a kind of purchase reacts to its payment's outcome. Each runs inside the settling
 * transaction, with the payment row locked, so it happens once whatever arrives twice.
 *
 * ```ts
 * registerPurchase('party', { paid: …, expired: …, afterRelease: … });
 * ```
 */
export interface PurchaseHandler {
  /** The checkout was paid: confirm, or answer 'refund_due' when what it held is gone (never oversell). */
  paid(
    deps: AppDeps,
    tx: Db,
    tenant: Tenant,
    purchaseId: number,
  ): Promise<{ outcome: 'paid' | 'refund_due'; reference: string }>;
  /** The checkout expired unpaid: end the pending purchase. */
  expired(deps: AppDeps, tx: Db, tenant: Tenant, purchaseId: number): Promise<void>;
  /** After commit, once a purchase released what it held (e.g. offer places to the waitlist). */
  afterRelease(deps: AppDeps, tenant: Tenant, purchaseId: number): Promise<void>;
  /**
   * An attempt to pay failed (once per payment); the purchase stays pending until its hold lapses,
   * so the parent can try another card. Kinds with nothing to say about it leave this out.
   */
  failed?(deps: AppDeps, tx: Db, tenant: Tenant, purchaseId: number): Promise<void>;
}

/** A payment that can still settle: open, or open again after a failed attempt. */
const UNSETTLED = ['open', 'failed'] as const;

/** A pending purchase whose hold has not expired still holds what it took. */
export function stillHolding(purchase: { status: string; holdExpiresAt: Date | null }): boolean {
  return (
    purchase.status === 'pending' &&
    purchase.holdExpiresAt !== null &&
    purchase.holdExpiresAt.getTime() > Date.now()
  );
}

const handlers = new Map<PurchaseKind, PurchaseHandler>();

export function registerPurchase(kind: PurchaseKind, handler: PurchaseHandler): void {
  handlers.set(kind, handler);
}

function purchaseOf(payment: typeof payments.$inferSelect): {
  kind: PurchaseKind;
  id: number;
  handler: PurchaseHandler;
} {
  const kind = payment.purchaseKind;
  const handler = kind && handlers.get(kind);
  // Only card checkouts settle, and every one is opened for a purchase (openCardPayment).
  if (!handler || payment.purchaseId === null) throw new Error(`no purchase handler registered for ${kind}`);
  return { kind, id: payment.purchaseId, handler };
}

/** Tells the company that money arrived for something that could not be confirmed. */
export async function queueRefundDue(
  deps: AppDeps,
  tx: Db,
  tenant: Tenant,
  reference: string,
  amount: number,
) {
  const company = await companyContact(tx, tenant);
  const { currency } = await companyOf(tx, tenant);
  await queueMail(tx, tenant, deps.config, 'refund-due', company.email, {
    company: company.name,
    reference,
    amount: formatMoney(amount, currency),
  });
}

export type SettleOutcome = 'paid' | 'refund_due' | 'expired' | 'failed' | 'open' | 'unknown' | 'already';

/**
 * Settles a provider checkout after a webhook, a return or the test card page. Webhooks are
 * triggers: the checkout is re-read from the provider, and the outcome is recorded exactly once
 * under the payment row's lock.
 */
export async function settleCheckout(
  deps: AppDeps,
  providerName: ProviderName,
  sessionId: string,
): Promise<SettleOutcome> {
  const { db } = deps.database;
  // The one cross-tenant lookup: a webhook names only the provider's id. The row names its tenant.
  const [found] = await db
    .select()
    .from(payments)
    // cross-tenant: a provider's notice names only its own session id; the payment names the company.
    .where(and(eq(payments.provider, providerName), eq(payments.providerRef, sessionId)));
  if (!found) return 'unknown';
  const tenant = new Tenant(found.companyId);
  const purchase = purchaseOf(found);
  const state = await providerFor(deps, tenant, providerName).getCheckout(sessionId);
  if (state.status === 'open') return 'open';

  const outcome = await db.transaction(async (tx): Promise<SettleOutcome> => {
    const [payment] = await tx.select().from(payments).where(tenant.byId(payments, found.id)).for('update');
    if (state.status === 'failed') {
      // A failure is recorded once (the same notice twice finds the payment failed already).
      if (payment?.status !== 'open') return 'already';
      await tx.update(payments).set({ status: 'failed' }).where(tenant.byId(payments, payment.id));
      await purchase.handler.failed?.(deps, tx, tenant, purchase.id);
      return 'failed';
    }
    // A failed attempt does not end the payment: a later card may still pay it, or it expires.
    if (payment?.status !== 'open' && payment?.status !== 'failed') return 'already';
    if (state.status === 'expired') {
      await tx.update(payments).set({ status: 'expired' }).where(tenant.byId(payments, payment.id));
      await purchase.handler.expired(deps, tx, tenant, purchase.id);
      return 'expired';
    }
    const result = await purchase.handler.paid(deps, tx, tenant, purchase.id);
    await tx
      .update(payments)
      .set({ status: result.outcome, paidAt: sql`now()`, amount: state.amount })
      .where(tenant.byId(payments, payment.id));
    if (result.outcome === 'refund_due')
      await queueRefundDue(deps, tx, tenant, result.reference, state.amount);
    return result.outcome;
  });
  if (outcome === 'expired') await purchase.handler.afterRelease(deps, tenant, purchase.id);
  if (outcome !== 'already') await deps.jobs.nudge(queues.mailDeliver);
  return outcome;
}

/** The parent closed the card form (POST /integrations/stripe/cancel-session): stop the checkout and release. */
export async function cancelCheckout(
  deps: AppDeps,
  providerName: ProviderName,
  sessionId: string,
): Promise<void> {
  const [payment] = await deps.database.db
    .select()
    .from(payments)
    // cross-tenant: the cancelled session is named by the provider's id alone.
    .where(and(eq(payments.provider, providerName), eq(payments.providerRef, sessionId)));
  if (!payment) throw new NotFoundError();
  if (payment.status !== 'open' && payment.status !== 'failed') return;
  const tenant = new Tenant(payment.companyId);
  await providerFor(deps, tenant, providerName).expireCheckout(sessionId);
  const outcome = await settleCheckout(deps, providerName, sessionId);
  if (outcome === 'paid' || outcome === 'refund_due' || outcome === 'expired') return;
  // A provider that still says 'open' (or 'failed': a Stripe session whose payment failed cannot be
  // expired) after expiring: end our side anyway, unless the payment was settled meanwhile.
  const purchase = purchaseOf(payment);
  const ended = await deps.database.db.transaction(async (tx) => {
    const changed = await tx
      .update(payments)
      .set({ status: 'expired' })
      .where(tenant.byId(payments, payment.id, inArray(payments.status, UNSETTLED)))
      .returning({ id: payments.id });
    if (changed.length === 0) return false;
    await purchase.handler.expired(deps, tx, tenant, purchase.id);
    return true;
  });
  if (ended) await purchase.handler.afterRelease(deps, tenant, purchase.id);
}

/** Tells the providers of a purchase's open checkouts to stop taking payment (hold expiry). */
export async function expireOpenCheckouts(
  deps: AppDeps,
  tenant: Tenant,
  purchase: { kind: PurchaseKind; id: number },
) {
  const open = await deps.database.db
    .select()
    .from(payments)
    .where(
      tenant.where(
        payments,
        inArray(payments.status, UNSETTLED),
        eq(payments.purchaseKind, purchase.kind),
        eq(payments.purchaseId, purchase.id),
      ),
    );
  for (const payment of open) {
    if (!payment.provider || !payment.providerRef) continue;
    try {
      await providerFor(deps, tenant, payment.provider).expireCheckout(payment.providerRef);
    } catch {
      // Unreachable provider: the hold is released anyway; a late payment is settled by settleCheckout.
    }
  }
}

/**
 * Opens the provider's checkout for a held purchase and records the open payment; answers the
 * checkout response of SPEC.md point 3. When the provider fails, `release` ends the hold.
 */
export async function openCardPayment(
  deps: AppDeps,
  tenant: Tenant,
  input: {
    provider: ProviderName;
    purchase: { kind: PurchaseKind; id: number };
    /** The family paying (their statement lists the payment). */
    parentId: number;
    request: CheckoutRequest;
    /** The origin the parent is using: the test card page is served from it. */
    origin: string;
    release: () => Promise<unknown>;
  },
): Promise<CheckoutResponse> {
  try {
    // Inside the try: a provider that is not set up must release the hold too.
    const provider = providerFor(deps, tenant, input.provider, input.origin);
    const start = await provider.createCheckout(input.request);
    await deps.database.db.insert(payments).values(
      tenant.values({
        purchaseKind: input.purchase.kind,
        purchaseId: input.purchase.id,
        parentId: input.parentId,
        provider: provider.name,
        providerRef: start.sessionId,
        amount: input.request.amount,
      }),
    );
    const common = { valid: true, sessionId: start.sessionId, booking_hash: input.request.reference };
    return start.kind === 'embedded'
      ? {
          ...common,
          method: 'stripe',
          public_key: start.publicKey,
          client_secret: start.clientSecret,
          ...(start.stripeAccount ? { stripe_account: start.stripeAccount } : {}),
        }
      : { ...common, method: provider.name, payment_link: start.url };
  } catch (error) {
    await input.release();
    if (error instanceof AppError) throw error;
    throw new AppError(502, 'We could not start the card payment. Please try again.');
  }
}

/** In a releasing transaction: a purchase's open payments stop counting (the hold ended unpaid). */
export async function expireOpenPayments(
  tx: Db,
  tenant: Tenant,
  purchase: { kind: PurchaseKind; id: number },
) {
  await tx
    .update(payments)
    .set({ status: 'expired' })
    .where(
      tenant.where(
        payments,
        eq(payments.purchaseKind, purchase.kind),
        eq(payments.purchaseId, purchase.id),
        inArray(payments.status, UNSETTLED),
      ),
    );
}
