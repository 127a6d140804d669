import { describeCard } from '@tumble/contracts/autopay';
import { invoiceBalance } from '@tumble/contracts/billing';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  notExists,
  or,
} from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { formatMoney } from '../../platform/money.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import type { ChargeResult } from '../../platform/payments/provider.ts';
import { providerFor } from '../../platform/payments/registry.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, displayDate, todayIn } from '../../platform/time.ts';
import { type Company, companyContact, companyOf } from '../accounts/accounts.service.ts';
import { autopayAttempts } from './autopay.tables.ts';
import { cardPaymentUnderWay } from './invoice-sale.ts';
import { allocatePayment, lockInvoice, refreshInvoice } from './ledger.service.ts';
import { familyAccounts, invoiceInstalments, invoices } from './ledger.tables.ts';
import { updateCardLink } from './saved-card.service.ts';

/**
 * Autopay (issue 15): on its due date an instalment, or an invoice without instalments, of a family
 * with autopay on is charged on their saved card. A failed charge is tried again 3, 5 and 8 days
 * after the due date, each failure mailed to the parent with a link to update their card; after
 * the last one the company is told and the family is flagged on the roll.
 *
 * Never twice: each attempt is claimed (row lock, SKIP LOCKED) and written with its idempotency
 * key in its own committed transaction before the provider is called. Another worker meanwhile
 * finds the claim and leaves it; a run that crashed after claiming leaves it pending, and a later
 * run sends the same key again, so the provider answers the first charge instead of charging.
 */

/** Days after the due date of attempts 2, 3 and 4. */
export const RETRY_DAYS = [3, 5, 8] as const;
export const LAST_ATTEMPT = RETRY_DAYS.length + 1;
/** A pending claim younger than this is another worker's charge in flight; older, a crashed run's. */
const CLAIM_MINUTES = 10;

const OPEN = ['issued', 'part_paid', 'overdue'] as const;

type Target =
  | { kind: 'instalment'; id: number; invoiceId: number; attempt: number }
  | { kind: 'invoice'; id: number; invoiceId: number; attempt: number };

type Attempt = typeof autopayAttempts.$inferSelect;

/** Runs autopay for every company, each in its own time zone's today. */
export async function runAutopay(deps: AppDeps, now: Date): Promise<{ charged: number; failed: number }> {
  const { db } = deps.database;
  const [onAutopay, unfinished] = await Promise.all([
    db
      .selectDistinct({ companyId: familyAccounts.companyId })
      .from(familyAccounts)
      // cross-tenant: the job finds the companies with a family on autopay…
      .where(and(eq(familyAccounts.autopay, true), isNotNull(familyAccounts.cardRef))),
    db
      .selectDistinct({ companyId: autopayAttempts.companyId })
      .from(autopayAttempts)
      // cross-tenant: …and those with an attempt a crashed run left pending.
      .where(eq(autopayAttempts.status, 'pending')),
  ]);
  const companies = new Set([...onAutopay, ...unfinished].map((row) => row.companyId));
  const totals = { charged: 0, failed: 0 };
  for (const companyId of companies) {
    const tenant = new Tenant(companyId);
    const company = await companyOf(db, tenant);
    const today = todayIn(company.timeZone, now);
    for (const target of await dueTargets(db, tenant, today)) {
      // One target's trouble (a lock timeout, the database) leaves its claim pending for a later
      // run and does not hold up the others.
      const outcome = await chargeTarget(deps, tenant, company, target, today, now).catch(
        (error: unknown) => {
          console.error(`[tumble] autopay: ${target.kind} ${target.id} of company ${companyId}`, error);
          return 'error' as const;
        },
      );
      if (outcome === 'paid') totals.charged++;
      if (outcome === 'failed') totals.failed++;
    }
  }
  return totals;
}

/** A family on autopay with a saved card (joined to invoices). */
const onAutopay = and(
  eq(familyAccounts.companyId, invoices.companyId),
  eq(familyAccounts.parentId, invoices.parentId),
  eq(familyAccounts.autopay, true),
  isNotNull(familyAccounts.cardRef),
);

/** Instalments due (or failed and due for a retry) and invoices without instalments due, of families on autopay. */
async function dueTargets(db: Db, tenant: Tenant, today: string): Promise<Target[]> {
  const instalments = await db
    .select({
      id: invoiceInstalments.id,
      invoiceId: invoiceInstalments.invoiceId,
      attempts: invoiceInstalments.attempts,
    })
    .from(invoiceInstalments)
    .innerJoin(invoices, eq(invoices.id, invoiceInstalments.invoiceId))
    .innerJoin(familyAccounts, onAutopay)
    .where(tenant.where(invoiceInstalments, instalmentDue(today), inArray(invoices.status, OPEN)))
    .orderBy(asc(invoiceInstalments.dueOn), asc(invoiceInstalments.id));
  const plain = await db
    .select({ id: invoices.id })
    .from(invoices)
    .innerJoin(familyAccounts, onAutopay)
    .where(
      tenant.where(
        invoices,
        inArray(invoices.status, OPEN),
        lte(invoices.dueOn, today),
        notExists(
          db
            .select({ id: invoiceInstalments.id })
            .from(invoiceInstalments)
            .where(
              tenant.where(
                invoiceInstalments,
                eq(invoiceInstalments.invoiceId, invoices.id),
                ne(invoiceInstalments.status, 'cancelled'),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(invoices.dueOn), asc(invoices.id));
  const targets: Target[] = instalments.map((i) => ({
    kind: 'instalment',
    id: i.id,
    invoiceId: i.invoiceId,
    attempt: i.attempts + 1,
  }));
  for (const invoice of plain) {
    const attempt = await nextInvoiceAttempt(db, tenant, invoice.id, today);
    if (attempt !== null) targets.push({ kind: 'invoice', id: invoice.id, invoiceId: invoice.id, attempt });
  }
  // Attempts a crashed run left pending are finished whatever changed since (autopay off, the
  // card removed, the invoice paid otherwise): the provider may have charged.
  const pending = await db
    .select()
    .from(autopayAttempts)
    .where(tenant.where(autopayAttempts, eq(autopayAttempts.status, 'pending')));
  for (const attempt of pending) {
    const target: Target =
      attempt.instalmentId === null
        ? { kind: 'invoice', id: attempt.invoiceId, invoiceId: attempt.invoiceId, attempt: attempt.attempt }
        : {
            kind: 'instalment',
            id: attempt.instalmentId,
            invoiceId: attempt.invoiceId,
            attempt: attempt.attempt,
          };
    if (!targets.some((t) => attemptKey(tenant, t) === attempt.idempotencyKey)) targets.push(target);
  }
  return targets;
}

/** An instalment the job should charge today: due, or failed with a retry due. */
const instalmentDue = (today: string) =>
  or(
    and(eq(invoiceInstalments.status, 'due'), lte(invoiceInstalments.dueOn, today)),
    and(eq(invoiceInstalments.status, 'failed'), lte(invoiceInstalments.nextAttemptOn, today)),
  );

/**
 * The attempt an invoice without instalments is due for today (they keep no attempt count of their
 * own: their attempts are the record): the first, a crashed one again, a retry whose day has come,
 * or none.
 */
async function nextInvoiceAttempt(db: Db, tenant: Tenant, invoiceId: number, today: string) {
  const [last] = await db
    .select()
    .from(autopayAttempts)
    .where(
      tenant.where(
        autopayAttempts,
        eq(autopayAttempts.invoiceId, invoiceId),
        isNull(autopayAttempts.instalmentId),
      ),
    )
    .orderBy(desc(autopayAttempts.attempt))
    .limit(1);
  if (!last) return 1;
  if (last.status === 'pending') return last.attempt;
  if (last.status === 'failed' && last.nextAttemptOn !== null && last.nextAttemptOn <= today)
    return last.attempt + 1;
  return null;
}

const attemptKey = (tenant: Tenant, target: Target) =>
  `autopay:${tenant.companyId}:${target.kind}:${target.id}:${target.attempt}`;

/**
 * Claims one attempt in its own transaction (committed before the provider is called): the target
 * row is locked with SKIP LOCKED and checked again, then the attempt row is written. Null when
 * another worker has it, it is no longer due, or the family's card or autopay went.
 */
async function claim(
  db: Db,
  tenant: Tenant,
  target: Target,
  today: string,
  now: Date,
): Promise<{ attempt: Attempt; account: typeof familyAccounts.$inferSelect } | null> {
  return db.transaction(async (tx) => {
    // The target row, locked (SKIP LOCKED: another worker has it, leave it); then whether it is
    // still due and how much, for a new attempt.
    let due: boolean;
    let amount: number;
    let invoice: typeof invoices.$inferSelect | undefined;
    if (target.kind === 'instalment') {
      const [instalment] = await tx
        .select()
        .from(invoiceInstalments)
        .where(tenant.byId(invoiceInstalments, target.id))
        .for('update', { skipLocked: true });
      if (!instalment) return null;
      [invoice] = await tx.select().from(invoices).where(tenant.byId(invoices, target.invoiceId));
      due =
        instalment.attempts + 1 === target.attempt &&
        (instalment.status === 'due'
          ? instalment.dueOn <= today
          : instalment.status === 'failed' &&
            instalment.nextAttemptOn !== null &&
            instalment.nextAttemptOn <= today);
      amount = invoice ? Math.min(instalment.amount, invoiceBalance(invoice)) : 0;
    } else {
      [invoice] = await tx
        .select()
        .from(invoices)
        .where(tenant.byId(invoices, target.id))
        .for('update', { skipLocked: true });
      due = true;
      amount = invoice ? invoiceBalance(invoice) : 0;
    }
    if (!invoice) return null;
    due &&= OPEN.some((status) => status === invoice.status);
    const [account] = await tx
      .select()
      .from(familyAccounts)
      .where(tenant.where(familyAccounts, eq(familyAccounts.parentId, invoice.parentId)));
    if (!account) return null;
    const key = attemptKey(tenant, target);
    // This attempt was claimed before. A recent claim is another worker's charge in flight; an
    // old one is a run that crashed before recording: taken over with the same key and card (also
    // if autopay went off since: the provider may have charged). Locked: another worker is
    // recording it right now (SKIP LOCKED: never wait on it while holding the instalment, which
    // that worker updates next; the insert below then finds it and gives up).
    const [existing] = await tx
      .select()
      .from(autopayAttempts)
      .where(tenant.where(autopayAttempts, eq(autopayAttempts.idempotencyKey, key)))
      .for('update', { skipLocked: true });
    if (existing) {
      if (existing.status !== 'pending') return null;
      if (existing.claimedAt.getTime() > now.getTime() - CLAIM_MINUTES * 60_000) return null;
      const [taken] = await tx
        .update(autopayAttempts)
        .set({ claimedAt: now })
        .where(tenant.byId(autopayAttempts, existing.id))
        .returning();
      return { attempt: taken!, account };
    }
    if (!due || !account.autopay || !account.cardRef || !account.cardProvider || amount <= 0) return null;
    // The parent is paying this invoice by card right now: charging too would pay it twice.
    if (await cardPaymentUnderWay(tx, tenant, invoice.id)) return null;
    const [inserted] = await tx
      .insert(autopayAttempts)
      .values(
        tenant.values({
          parentId: account.parentId,
          invoiceId: target.invoiceId,
          instalmentId: target.kind === 'instalment' ? target.id : null,
          attempt: target.attempt,
          idempotencyKey: key,
          amount,
          provider: account.cardProvider,
          customerRef: account.cardCustomerRef,
          cardRef: account.cardRef,
          claimedAt: now,
          attemptedOn: today,
        }),
      )
      .onConflictDoNothing()
      .returning();
    return inserted ? { attempt: inserted, account } : null;
  });
}

/** Claims, charges and records one target; what came of it. */
async function chargeTarget(
  deps: AppDeps,
  tenant: Tenant,
  company: Company,
  target: Target,
  today: string,
  now: Date,
): Promise<'paid' | 'failed' | 'skipped' | 'error'> {
  const { db } = deps.database;
  const claimed = await claim(db, tenant, target, today, now);
  if (!claimed) return 'skipped';
  const { attempt, account } = claimed;
  const [invoice] = await db.select().from(invoices).where(tenant.byId(invoices, attempt.invoiceId));
  let result: ChargeResult;
  try {
    result = await providerFor(deps, tenant, attempt.provider).chargeSavedCard({
      // The card the attempt was claimed with: a retried key must send the same request.
      customerRef: attempt.customerRef ?? '',
      cardRef: attempt.cardRef ?? '',
      amount: attempt.amount,
      currency: company.currency,
      description: `${company.name}: ${await whatIsCharged(db, tenant, attempt, invoice!.code ?? '')}`,
      reference: invoice!.code ?? `invoice-${attempt.invoiceId}`,
      idempotencyKey: attempt.idempotencyKey,
    });
  } catch (error) {
    // The provider did not answer: the claim stays pending and a later run sends the same key.
    console.error(`[tumble] autopay: charging ${attempt.idempotencyKey} failed`, error);
    return 'error';
  }
  const outcome = await record(deps, tenant, company, attempt, account, result, today, now);
  if (outcome !== 'skipped') await deps.jobs.nudge(queues.mailDeliver);
  return outcome;
}

/** "instalment 2 of 3 of invoice INV-000012" or "invoice INV-000012". */
async function whatIsCharged(db: Db, tenant: Tenant, attempt: Attempt, code: string): Promise<string> {
  if (attempt.instalmentId === null) return `invoice ${code}`;
  // One after the other: inside a transaction they share one connection.
  const [instalment] = await db
    .select()
    .from(invoiceInstalments)
    .where(tenant.byId(invoiceInstalments, attempt.instalmentId));
  const [all] = await db
    .select({ n: count() })
    .from(invoiceInstalments)
    .where(tenant.where(invoiceInstalments, eq(invoiceInstalments.invoiceId, attempt.invoiceId)));
  return `instalment ${instalment!.position + 1} of ${all!.n} of invoice ${code}`;
}

/** The day of the next attempt after attempt `n` failed (never before tomorrow); null after the last. */
export function nextAttemptDate(dueOn: string, failedAttempt: number, today: string): string | null {
  if (failedAttempt >= LAST_ATTEMPT) return null;
  const planned = addDays(dueOn, RETRY_DAYS[failedAttempt - 1]!);
  const tomorrow = addDays(today, 1);
  return planned > tomorrow ? planned : tomorrow;
}

/** Records the provider's answer once (the attempt row lock decides who records it). */
async function record(
  deps: AppDeps,
  tenant: Tenant,
  company: Company,
  claimed: Attempt,
  account: typeof familyAccounts.$inferSelect,
  result: ChargeResult,
  today: string,
  now: Date,
): Promise<'paid' | 'failed' | 'skipped'> {
  const { config } = deps;
  return deps.database.db.transaction(async (tx) => {
    const [attempt] = await tx
      .select()
      .from(autopayAttempts)
      .where(tenant.byId(autopayAttempts, claimed.id, eq(autopayAttempts.status, 'pending')))
      .for('update');
    if (!attempt) return 'skipped';
    const invoice = await lockInvoice(tx, tenant, attempt.invoiceId);
    const what = await whatIsCharged(tx, tenant, attempt, invoice!.code ?? '');
    const mail = {
      name: invoice!.buyerName,
      company: company.name,
      amount: formatMoney(attempt.amount, company.currency),
      card: describeCard({
        brand: account.cardBrand ?? '',
        last4: account.cardLast4 ?? '',
        exp_month: account.cardExpMonth ?? 0,
        exp_year: account.cardExpYear ?? 0,
      }),
      what,
      invoice: invoice!.code ?? '',
    };
    if (result.status === 'paid') {
      await tx
        .insert(payments)
        .values(
          tenant.values({
            method: 'card' as const,
            provider: attempt.provider,
            providerRef: result.paymentRef,
            parentId: attempt.parentId,
            amount: attempt.amount,
            status: 'paid' as const,
            paidAt: now,
          }),
        )
        .onConflictDoNothing();
      const [payment] = await tx
        .select()
        .from(payments)
        .where(
          tenant.where(
            payments,
            eq(payments.provider, attempt.provider),
            eq(payments.providerRef, result.paymentRef),
          ),
        );
      // Paid meanwhile some other way: the money becomes the family's credit rather than vanishing.
      const stillOpen = OPEN.some((s) => s === invoice!.status);
      await allocatePayment(
        tx,
        tenant,
        { id: payment!.id, parentId: attempt.parentId, amount: attempt.amount },
        today,
        stillOpen ? [attempt.invoiceId] : [],
      );
      if (attempt.instalmentId !== null)
        await tx
          .update(invoiceInstalments)
          .set({ status: 'paid', paymentId: payment!.id, paidAt: now, nextAttemptOn: null, lastError: null })
          .where(tenant.byId(invoiceInstalments, attempt.instalmentId));
      await tx
        .update(autopayAttempts)
        .set({ status: 'paid', paymentRef: result.paymentRef, paymentId: payment!.id, finishedAt: now })
        .where(tenant.byId(autopayAttempts, attempt.id));
      await queueMail(tx, tenant, config, 'autopay-receipt', invoice!.buyerEmail, {
        ...mail,
        link: `${config.publicUrl}/admin/students/login?${new URLSearchParams({ authhash: company.authhash, redirect: '/admin/students/payments' })}`,
      });
      return 'paid';
    }

    const reason = result.failureReason || 'The card was declined.';
    const dueOn = await dueDateOf(tx, tenant, attempt);
    const next = attempt.attempt < LAST_ATTEMPT ? nextAttemptDate(dueOn, attempt.attempt, today) : null;
    await tx
      .update(autopayAttempts)
      .set({
        status: 'failed',
        failureReason: reason,
        paymentRef: result.paymentRef || null,
        nextAttemptOn: next,
        finishedAt: now,
      })
      .where(tenant.byId(autopayAttempts, attempt.id));
    if (attempt.instalmentId !== null)
      await tx
        .update(invoiceInstalments)
        .set({ status: 'failed', attempts: attempt.attempt, nextAttemptOn: next, lastError: reason })
        .where(tenant.byId(invoiceInstalments, attempt.instalmentId));
    await queueMail(tx, tenant, config, 'autopay-failed', invoice!.buyerEmail, {
      ...mail,
      reason,
      next: next
        ? `We will try again on ${displayDate(next)}.`
        : 'That was our last try: the payment is now overdue. Please update your card (we will charge the new card straight away) or contact us.',
      link: updateCardLink(config, company),
    });
    if (attempt.attempt === LAST_ATTEMPT) {
      // Overdue from its due date (refreshInvoice); staff hear of it once, on the last failure.
      await refreshInvoice(tx, tenant, attempt.invoiceId, today);
      const staff = await companyContact(tx, tenant);
      if (staff.email)
        await queueMail(tx, tenant, config, 'autopay-failed-staff', staff.email, {
          ...mail,
          family: invoice!.buyerName,
          email: invoice!.buyerEmail,
          reason,
        });
    }
    return 'failed';
  });
}

/** The due date retries count from: the instalment's, or the invoice's. */
async function dueDateOf(tx: Db, tenant: Tenant, attempt: Attempt): Promise<string> {
  if (attempt.instalmentId !== null) {
    const [instalment] = await tx
      .select({ dueOn: invoiceInstalments.dueOn })
      .from(invoiceInstalments)
      .where(tenant.byId(invoiceInstalments, attempt.instalmentId));
    return instalment!.dueOn;
  }
  const [invoice] = await tx
    .select({ dueOn: invoices.dueOn })
    .from(invoices)
    .where(tenant.byId(invoices, attempt.invoiceId));
  return invoice!.dueOn ?? attempt.attemptedOn;
}

/**
 * Families whose autopay failed for good and who have not paid since: an instalment failed after
 * its last attempt, or an invoice without instalments whose last attempt failed, still owing. The
 * roll shows them a discreet "Payment overdue" dot.
 */
export async function familiesWithFailedAutopay(
  db: Db,
  tenant: Tenant,
  parentIds: number[],
): Promise<Set<number>> {
  const ids = [...new Set(parentIds)];
  if (ids.length === 0) return new Set();
  const [instalments, plain] = await Promise.all([
    db
      .selectDistinct({ parentId: invoices.parentId })
      .from(invoiceInstalments)
      .innerJoin(invoices, eq(invoices.id, invoiceInstalments.invoiceId))
      .where(
        tenant.where(
          invoiceInstalments,
          eq(invoiceInstalments.status, 'failed'),
          gte(invoiceInstalments.attempts, LAST_ATTEMPT),
          inArray(invoices.parentId, ids),
          inArray(invoices.status, OPEN),
        ),
      ),
    db
      .selectDistinct({ parentId: autopayAttempts.parentId })
      .from(autopayAttempts)
      .innerJoin(invoices, eq(invoices.id, autopayAttempts.invoiceId))
      .where(
        tenant.where(
          autopayAttempts,
          isNull(autopayAttempts.instalmentId),
          eq(autopayAttempts.status, 'failed'),
          gte(autopayAttempts.attempt, LAST_ATTEMPT),
          inArray(autopayAttempts.parentId, ids),
          inArray(invoices.status, OPEN),
        ),
      ),
  ]);
  return new Set([...instalments, ...plain].map((row) => row.parentId));
}
