import { invoiceBalance } from '@tumble/contracts/billing';
import { refundReasonMax } from '@tumble/contracts/refunds';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { formatMoney } from '../../platform/money.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import type { PaymentProvider, ProviderName, RefundState } from '../../platform/payments/provider.ts';
import { providerFor } from '../../platform/payments/registry.ts';
import type { PurchaseKind } from '../../platform/payments/settlement.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { companyContact, companyOf, contactOf } from '../accounts/accounts.service.ts';
import { lockInvoice, moveFamilyCredit, refreshInvoice } from './ledger.service.ts';
import { paymentAllocations, refunds } from './ledger.tables.ts';

/**
 * Money going back (decision 017): to the card through the payment's provider, or to the family's
 * credit. A refund is checked against what is left of its payment under the payment's row lock,
 * so two staff refunding at once never return more than was paid. A card refund is recorded in the
 * caller's transaction (`recordRefund`) and sent to the provider after commit (`sendRefund`); its
 * state then follows the provider's notices (`settleRefund`), recorded once.
 */

export type Refund = typeof refunds.$inferSelect;
export type RefundDestination = Refund['destination'];

export interface RefundInput {
  paymentId: number;
  /** Cents. */
  amount: number;
  reason: string;
  destination: RefundDestination;
}

/** Cents of a payment refunded or still being refunded (its refunds that have not failed). */
async function refundedSoFar(tx: Db, tenant: Tenant, paymentId: number): Promise<number> {
  const [row] = await tx
    .select({ sum: sql<number>`coalesce(sum(${refunds.amount}), 0)::int` })
    .from(refunds)
    .where(tenant.where(refunds, eq(refunds.paymentId, paymentId), ne(refunds.status, 'failed')));
  return row!.sum;
}

/**
 * After a payment's refunds changed (under its lock): keeps `payments.refunded` for the list, and
 * its status: `refunded` once all of it went back; a refund that failed makes it `paid` again.
 */
async function refreshPayment(tx: Db, tenant: Tenant, payment: typeof payments.$inferSelect) {
  const refunded = await refundedSoFar(tx, tenant, payment.id);
  const status =
    refunded >= payment.amount ? 'refunded' : payment.status === 'refunded' ? 'paid' : payment.status;
  await tx.update(payments).set({ refunded, status }).where(tenant.byId(payments, payment.id));
}

/** A payment's own words in reasons and mail: the reference staff typed or the payment's number. */
const paymentName = (payment: typeof payments.$inferSelect) =>
  payment.reference ? `#${payment.id} (${payment.reference})` : `#${payment.id}`;

/**
 * Records a refund inside the caller's transaction: the payment locked (a foreign id is 404),
 * checked paid and with enough left, its invoice allocations taken back newest first (so those
 * invoices are owed again), the refund written (`pending` to the card, `succeeded` to credit, the
 * credit added at once) and audited. `auth` may be a parent's (self-service cancellation).
 * Call `sendRefund` after commit for a card refund.
 */
export async function recordRefund(
  tx: Db,
  auth: AuthContext,
  input: RefundInput,
): Promise<{ id: number; destination: RefundDestination }> {
  const { tenant } = auth;
  const [payment] = await tx
    .select()
    .from(payments)
    .where(tenant.byId(payments, input.paymentId))
    .for('update');
  if (!payment) throw new NotFoundError();
  if (payment.status === 'refunded') throw new BadRequestError('This payment has already been refunded.');
  if (payment.status !== 'paid' && payment.status !== 'refund_due')
    throw new BadRequestError('Only a paid payment can be refunded.');
  const reason = input.reason.trim();
  if (reason === '') throw new BadRequestError('Please give a reason for the refund.');
  if (reason.length > refundReasonMax)
    throw new BadRequestError(`The reason must be at most ${refundReasonMax} characters.`);
  if (input.destination === 'card' && (payment.method !== 'card' || payment.provider === null))
    throw new BadRequestError('This payment was not made by card: refund it to family credit.');
  if (input.destination === 'credit' && payment.parentId === null)
    throw new BadRequestError('This payment names no family to keep the credit: refund it to the card.');
  const company = await companyOf(tx, tenant);
  const left = payment.amount - (await refundedSoFar(tx, tenant, payment.id));
  if (!Number.isInteger(input.amount) || input.amount <= 0 || input.amount > left)
    throw new BadRequestError(
      `You can refund at most ${formatMoney(Math.max(left, 0), company.currency)} of this payment.`,
    );

  const [refund] = await tx
    .insert(refunds)
    .values(
      tenant.values({
        paymentId: payment.id,
        parentId: payment.parentId,
        amount: input.amount,
        reason,
        destination: input.destination,
        status: input.destination === 'card' ? ('pending' as const) : ('succeeded' as const),
        provider: input.destination === 'card' ? payment.provider : null,
        createdBy: auth.userId,
        settledAt: input.destination === 'card' ? null : sql`now()`,
      }),
    )
    .returning();
  const taken = await takeBackAllocations(tx, tenant, payment.id, refund!.id, input.amount, company.timeZone);
  if (taken[0]) await tx.update(refunds).set({ invoiceId: taken[0] }).where(tenant.byId(refunds, refund!.id));
  if (input.destination === 'credit')
    await moveFamilyCredit(tx, tenant, {
      parentId: payment.parentId!,
      amount: input.amount,
      reason: `Refund of payment ${paymentName(payment)}`,
      paymentId: payment.id,
      refundId: refund!.id,
      createdBy: auth.userId,
    });
  await refreshPayment(tx, tenant, payment);
  await recordAudit(tx, auth, { action: 'create', entity: 'refund', entityId: refund!.id, after: refund });
  return { id: refund!.id, destination: refund!.destination };
}

/**
 * Takes up to `amount` of a payment's invoice allocations back, newest first, as negative `refund`
 * allocations, and refreshes those invoices (owed again). Invoices are locked in id order (after
 * the payment: the ledger's lock order). Returns the invoices touched, newest first.
 */
async function takeBackAllocations(
  tx: Db,
  tenant: Tenant,
  paymentId: number,
  refundId: number,
  amount: number,
  timeZone: string,
): Promise<number[]> {
  const shares = await tx
    .select({
      invoiceId: paymentAllocations.invoiceId,
      net: sql<number>`sum(${paymentAllocations.amount})::int`,
      last: sql<number>`max(${paymentAllocations.id})`,
    })
    .from(paymentAllocations)
    .where(tenant.where(paymentAllocations, eq(paymentAllocations.paymentId, paymentId)))
    .groupBy(paymentAllocations.invoiceId)
    .orderBy(desc(sql`max(${paymentAllocations.id})`));
  const open = shares.filter((s) => s.net > 0);
  if (open.length === 0) return [];
  for (const id of open.map((s) => s.invoiceId).sort((a, b) => a - b)) await lockInvoice(tx, tenant, id);
  const today = todayIn(timeZone);
  const touched: number[] = [];
  let left = amount;
  for (const share of open) {
    if (left <= 0) break;
    const back = Math.min(left, share.net);
    await tx
      .insert(paymentAllocations)
      .values(
        tenant.values({ invoiceId: share.invoiceId, kind: 'refund', paymentId, refundId, amount: -back }),
      );
    await refreshInvoice(tx, tenant, share.invoiceId, today);
    touched.push(share.invoiceId);
    left -= back;
  }
  return touched;
}

/**
 * After commit: sends a pending card refund to the payment's provider, with the refund's own
 * idempotency key, so sending it again (a retry, "Send again") never moves money twice. A provider
 * error leaves it pending with the error in `failureReason` for staff to send again.
 */
export async function sendRefund(deps: AppDeps, tenant: Tenant, refundId: number): Promise<void> {
  const { db } = deps.database;
  const [refund] = await db.select().from(refunds).where(tenant.byId(refunds, refundId));
  if (refund?.destination !== 'card' || refund.status !== 'pending' || refund.provider === null) return;
  // Accepted by the provider already: its notices will say how it ends.
  if (refund.providerRefundRef !== null && refund.failureReason === null) return;
  const [payment] = await db.select().from(payments).where(tenant.byId(payments, refund.paymentId));
  const { currency } = await companyOf(db, tenant);
  let provider: PaymentProvider;
  let state: RefundState;
  try {
    // A provider no longer set up is a provider error too: kept on the refund for staff to see.
    provider = providerFor(deps, tenant, refund.provider);
    state = await provider.refund({
      paymentRef: payment!.providerRef!,
      amount: refund.amount,
      currency,
      reason: refund.reason,
      idempotencyKey: `refund-${refund.id}`,
    });
  } catch (error) {
    const failure = error instanceof Error ? error.message : String(error);
    await db
      .update(refunds)
      .set({ failureReason: `Not sent: ${failure}`.slice(0, 500) })
      .where(tenant.where(refunds, eq(refunds.id, refund.id), eq(refunds.status, 'pending')));
    return;
  }
  await recordRefundState(deps, tenant, refund.id, state);
  if (state.status !== 'pending') return;
  // A notice that arrived before the provider's reference was stored found no refund: read the
  // state again now that it is stored (a later notice finds it; one that came earlier is covered).
  const again = await provider.getRefund(state.refundRef).catch(() => null);
  if (again) await recordRefundState(deps, tenant, refund.id, again);
}

/** Records a refund, sends it after commit, and answers the refund row. */
export async function refundPayment(deps: AppDeps, auth: AuthContext, input: RefundInput): Promise<Refund> {
  const { id } = await deps.database.db.transaction((tx) => recordRefund(tx, auth, input));
  await sendRefund(deps, auth.tenant, id);
  const [refund] = await deps.database.db.select().from(refunds).where(auth.tenant.byId(refunds, id));
  return refund!;
}

/**
 * A provider said a refund changed (registered with `onRefundNotice` in app.ts): the refund is
 * re-read from the provider and its state recorded once.
 */
export async function settleRefund(deps: AppDeps, provider: ProviderName, refundRef: string): Promise<void> {
  const [found] = await deps.database.db
    .select({ id: refunds.id, companyId: refunds.companyId })
    .from(refunds)
    // cross-tenant: a provider's notice names only its own refund id; the refund names the company.
    .where(and(eq(refunds.provider, provider), eq(refunds.providerRefundRef, refundRef)));
  // Not stored yet: sendRefund reads the state again once it has stored the reference.
  if (!found) return;
  const tenant = new Tenant(found.companyId);
  const state = await providerFor(deps, tenant, provider).getRefund(refundRef);
  await recordRefundState(deps, tenant, found.id, state);
}

/**
 * Records what the provider says of a card refund, under the payment's then the refund's row lock.
 * Only a pending refund changes: `succeeded` and `failed` are ends, so a late or repeated notice
 * changes nothing. A failed refund gives its invoice allocations back and the company is told.
 */
async function recordRefundState(deps: AppDeps, tenant: Tenant, refundId: number, state: RefundState) {
  const { db } = deps.database;
  const mailed = await db.transaction(async (tx) => {
    const [unlocked] = await tx.select().from(refunds).where(tenant.byId(refunds, refundId));
    if (!unlocked) return false;
    const [payment] = await tx
      .select()
      .from(payments)
      .where(tenant.byId(payments, unlocked.paymentId))
      .for('update');
    const [refund] = await tx.select().from(refunds).where(tenant.byId(refunds, refundId)).for('update');
    if (!payment || !refund || refund.status !== 'pending') return false;
    if (state.status === 'pending') {
      await tx
        .update(refunds)
        .set({ providerRefundRef: state.refundRef, failureReason: null })
        .where(tenant.byId(refunds, refund.id));
      return false;
    }
    await tx
      .update(refunds)
      .set({
        providerRefundRef: state.refundRef,
        status: state.status,
        failureReason: state.status === 'failed' ? (state.failureReason ?? 'The refund failed.') : null,
        settledAt: sql`now()`,
      })
      .where(tenant.byId(refunds, refund.id));
    if (state.status === 'succeeded') return false;
    await giveBackAllocations(tx, tenant, refund);
    await refreshPayment(tx, tenant, payment);
    const company = await companyContact(tx, tenant);
    const { currency } = await companyOf(tx, tenant);
    const family = payment.parentId === null ? null : await contactOf(tx, tenant, payment.parentId);
    await queueMail(tx, tenant, deps.config, 'refund-failed', company.email, {
      amount: formatMoney(refund.amount, currency),
      family: family?.fullName ?? 'the family',
      payment: paymentName(payment),
      failure: state.failureReason ?? 'no reason given.',
    });
    return true;
  });
  if (mailed) await deps.jobs.nudge(queues.mailDeliver);
}

/**
 * A failed refund's money never left: what it took back from invoices goes back on them (as far
 * as each is still owed; anything an invoice no longer needs becomes the family's credit).
 */
async function giveBackAllocations(tx: Db, tenant: Tenant, refund: Refund) {
  const taken = await tx
    .select()
    .from(paymentAllocations)
    .where(tenant.where(paymentAllocations, eq(paymentAllocations.refundId, refund.id)))
    .orderBy(asc(paymentAllocations.invoiceId));
  if (taken.length === 0) return;
  const { timeZone } = await companyOf(tx, tenant);
  const today = todayIn(timeZone);
  let spare = 0;
  for (const allocation of taken) {
    const invoice = await lockInvoice(tx, tenant, allocation.invoiceId);
    const back = Math.min(-allocation.amount, invoiceBalance(invoice));
    spare += -allocation.amount - back;
    if (back > 0) {
      await tx.insert(paymentAllocations).values(
        tenant.values({
          invoiceId: invoice.id,
          kind: 'refund',
          paymentId: refund.paymentId,
          refundId: refund.id,
          amount: back,
        }),
      );
      await refreshInvoice(tx, tenant, invoice.id, today);
    }
  }
  if (spare > 0 && refund.parentId !== null)
    await moveFamilyCredit(tx, tenant, {
      parentId: refund.parentId,
      amount: spare,
      reason: `Refund of payment #${refund.paymentId} failed`,
      paymentId: refund.paymentId,
      refundId: refund.id,
    });
}

/**
 * The paid payments of a purchase (paid or refund due) with what is left to refund of each, oldest
 * first (the lead's self-service cancellation and staff cancellations refund from these).
 */
export async function paymentsOfPurchase(
  db: Db,
  tenant: Tenant,
  purchase: { kind: PurchaseKind; id: number },
): Promise<{ paymentId: number; refundable: number }[]> {
  const rows = await db
    .select({ id: payments.id, amount: payments.amount })
    .from(payments)
    .where(
      tenant.where(
        payments,
        eq(payments.purchaseKind, purchase.kind),
        eq(payments.purchaseId, purchase.id),
        inArray(payments.status, ['paid', 'refund_due']),
      ),
    )
    .orderBy(asc(payments.id));
  const out: { paymentId: number; refundable: number }[] = [];
  for (const row of rows)
    out.push({ paymentId: row.id, refundable: row.amount - (await refundedSoFar(db, tenant, row.id)) });
  return out;
}

/** Whether a payment can go back to a card (made by card through a provider). */
export async function cardRefundable(db: Db, tenant: Tenant, paymentId: number): Promise<boolean> {
  const [row] = await db
    .select({ method: payments.method, provider: payments.provider })
    .from(payments)
    .where(tenant.byId(payments, paymentId));
  return row?.method === 'card' && row.provider !== null;
}
