import { gstIn } from '@tumble/contracts/billing';
import {
  type BillingRun,
  type BillingRunFamily,
  type BillingRunPreview,
  billingRunMessages as says,
} from '@tumble/contracts/billing-run';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { contactsByIds } from '../accounts/profile.service.ts';
import { billableEnrolments, type FamilyBill, settleAdjustments } from '../classes/billable.service.ts';
import { termOf } from '../classes/terms.service.ts';
import { termInvoiceCount } from './billed-lines.service.ts';
import { queueInvoiceMail } from './invoice-mail.ts';
import { applyFamilyCredit, billingProfileOf, createInvoice, moveFamilyCredit } from './ledger.service.ts';
import { billingRuns } from './ledger.tables.ts';

/**
 * The term billing run (issue 15, decision 017): every family's invoice for what the term's classes
 * still owe (classes/billable.service.ts), previewed, then issued family by family. The preview and
 * the run price with the same function (`familyInvoices`), and the run prices each family again
 * inside its own transaction, so what it issues is what is owed at that moment. Lines are billed
 * once (the ledger's unique indexes on a line's place and adjustment), so running it again issues
 * only what is new. One run per term at a time: starting takes a per-term advisory lock and refuses
 * while another run of the term is running.
 */

type Run = typeof billingRuns.$inferSelect;

/**
 * A run still `running` after this long was cut off (the server stopped mid-run); it no longer
 * blocks a new start, which bills what it left (a family takes milliseconds: thousands fit).
 */
const STALE_AFTER_MS = 15 * 60 * 1000;

/** A family's bill with its GST worked out as the ledger will (per line, the supplier's registration). */
function invoiceOf(bill: FamilyBill, gstRegistered: boolean) {
  const lines = bill.lines.map((line) => {
    const amount = line.quantity * line.unitAmount;
    return { ...line, amount, gst: gstIn(amount, { gstRegistered, gstFree: line.gstFree }) };
  });
  return {
    lines,
    total: lines.reduce((sum, l) => sum + l.amount, 0),
    gst: lines.reduce((sum, l) => sum + l.gst, 0),
    credit: bill.credits.reduce((sum, c) => sum + c.amount, 0),
  };
}

/** Every family's invoice-to-be for the term (or one family's), with names: the preview's and the run's. */
async function familyInvoices(db: Db, tenant: Tenant, termId: number, parentId?: number) {
  const bills = await billableEnrolments(db, tenant, termId, parentId);
  const { gstRegistered } = await billingProfileOf(db, tenant);
  const contacts = await contactsByIds(
    db,
    tenant,
    bills.map((b) => b.parentId),
  );
  return bills
    .map((bill) => ({
      bill,
      family: contacts.get(bill.parentId)?.fullName ?? '',
      ...invoiceOf(bill, gstRegistered),
    }))
    .sort((a, b) => a.family.localeCompare(b.family) || a.bill.parentId - b.bill.parentId);
}

function runView(run: Run): BillingRun {
  return {
    id: run.id,
    term_id: run.termId,
    status: run.status,
    families: run.families,
    processed: run.processed,
    issued: run.issued,
    total: run.total,
    error: run.error,
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
  };
}

async function termOrNotFound(db: Db, tenant: Tenant, termId: number) {
  const term = await termOf(db, tenant, termId);
  if (!term) throw new NotFoundError(says.termNotFound);
  return term;
}

/** The latest run of the term, if any. */
async function lastRunOf(db: Db, tenant: Tenant, termId: number) {
  const [run] = await db
    .select()
    .from(billingRuns)
    .where(tenant.where(billingRuns, eq(billingRuns.termId, termId)))
    .orderBy(desc(billingRuns.startedAt), desc(billingRuns.id))
    .limit(1);
  return run;
}

/** Every family's invoice-to-be and the run's totals; writes nothing. */
export async function previewBillingRun(db: Db, tenant: Tenant, termId: number): Promise<BillingRunPreview> {
  const term = await termOrNotFound(db, tenant, termId);
  const { currency } = await companyOf(db, tenant);
  const invoices = await familyInvoices(db, tenant, termId);
  const families: BillingRunFamily[] = invoices.map((f) => ({
    parent_id: f.bill.parentId,
    family: f.family,
    children: f.bill.children,
    lines: f.lines.map((l) => ({
      description: l.description,
      detail: l.detail,
      quantity: l.quantity,
      unit_amount: l.unitAmount,
      amount: l.amount,
      gst_free: l.gstFree,
      gst: l.gst,
    })),
    total: f.total,
    gst: f.gst,
    credit: f.credit,
  }));
  const issuing = invoices.filter((f) => f.lines.length > 0);
  const last = await lastRunOf(db, tenant, termId);
  return {
    term: { id: term.id, name: term.name },
    currency,
    families,
    totals: {
      families: families.length,
      invoices: issuing.length,
      amount: issuing.reduce((sum, f) => sum + f.total, 0),
      gst: issuing.reduce((sum, f) => sum + f.gst, 0),
    },
    last_run: last ? runView(last) : null,
  };
}

/** A run's progress; 404 for another company's run. */
export async function billingRunOf(db: Db, tenant: Tenant, runId: number): Promise<BillingRun> {
  const [run] = await db.select().from(billingRuns).where(tenant.byId(billingRuns, runId));
  if (!run) throw new NotFoundError(says.runNotFound);
  return runView(run);
}

/**
 * Starts billing the term: a `billing_runs` row (409 while another run of the term is running),
 * then family by family in the background. Answers at once with the run; `finished` settles when
 * the run is done or failed (a failure is written on the run; what was issued stays issued).
 */
export async function startBillingRun(
  deps: AppDeps,
  auth: AuthContext,
  termId: number,
): Promise<{ run: BillingRun; finished: Promise<void> }> {
  const { tenant } = auth;
  const { db } = deps.database;
  await termOrNotFound(db, tenant, termId);
  const families = (await familyInvoices(db, tenant, termId)).map((f) => ({
    parentId: f.bill.parentId,
    name: f.family,
  }));
  const run = await db.transaction(async (tx) => {
    // One starter per term at a time decides whether a run is already going.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`billing-run:${tenant.companyId}:${termId}`}))`,
    );
    await tx
      .update(billingRuns)
      .set({ status: 'failed', error: says.interrupted, finishedAt: new Date() })
      .where(
        tenant.where(
          billingRuns,
          and(
            eq(billingRuns.termId, termId),
            eq(billingRuns.status, 'running'),
            lt(billingRuns.startedAt, new Date(Date.now() - STALE_AFTER_MS)),
          ),
        ),
      );
    const [running] = await tx
      .select({ id: billingRuns.id })
      .from(billingRuns)
      .where(tenant.where(billingRuns, eq(billingRuns.termId, termId), eq(billingRuns.status, 'running')));
    if (running) throw new ConflictError(says.alreadyRunning);
    const [created] = await tx
      .insert(billingRuns)
      .values(tenant.values({ termId, families: families.length, startedBy: auth.userId }))
      .returning();
    await recordAudit(tx, auth, {
      action: 'start',
      entity: 'billing-runs',
      entityId: created!.id,
      after: created,
    });
    return created!;
  });
  return { run: runView(run), finished: issueRun(deps, tenant, run, families) };
}

/** Why a family could not be billed, in words for staff: the database's reason, not the failed SQL. */
function reasonOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

async function issueRun(
  deps: AppDeps,
  tenant: Tenant,
  run: Run,
  families: { parentId: number; name: string }[],
): Promise<void> {
  const { db } = deps.database;
  let current = '';
  try {
    const { timeZone } = await companyOf(db, tenant);
    for (const family of families) {
      current = family.name;
      await issueFamily(deps, tenant, run, family.parentId, todayIn(timeZone));
    }
    await db
      .update(billingRuns)
      .set({ status: 'done', finishedAt: new Date() })
      .where(tenant.byId(billingRuns, run.id));
  } catch (error) {
    await db
      .update(billingRuns)
      .set({
        status: 'failed',
        error: `${current ? `Billing ${current} failed: ` : ''}${reasonOf(error)}.`,
        finishedAt: new Date(),
      })
      .where(tenant.byId(billingRuns, run.id));
  }
  await deps.jobs.nudge(queues.mailDeliver);
}

/**
 * One family, whole or nothing: its bill priced again under this transaction, the invoice issued
 * today (made once by its source key), credits that exceed the charges moved to family credit, the
 * family's credit applied, the mail queued, the adjustments settled and the run's progress moved on.
 * Locks: the invoice (new) and the billing profile's sequence, then the family account.
 */
async function issueFamily(deps: AppDeps, tenant: Tenant, run: Run, parentId: number, today: string) {
  const { db } = deps.database;
  await db.transaction(async (tx) => {
    const [found] = await familyInvoices(tx, tenant, run.termId, parentId);
    let issued = 0;
    let total = 0;
    if (found) {
      const { bill } = found;
      let invoiceId: number | null = null;
      if (bill.lines.length > 0) {
        const n = (await termInvoiceCount(tx, tenant, run.termId, parentId)) + 1;
        const { invoice, created } = await createInvoice(tx, tenant, {
          parentId,
          kind: 'term',
          termId: run.termId,
          billingRunId: run.id,
          sourceKey: `term:${run.termId}:family:${parentId}:${n}`,
          lines: bill.lines,
          createdBy: run.startedBy,
          issueOn: today,
        });
        if (created) {
          invoiceId = invoice.id;
          issued = 1;
          total = invoice.total;
        }
      }
      for (const credit of bill.credits)
        await moveFamilyCredit(tx, tenant, {
          parentId,
          amount: credit.amount,
          reason: credit.reason,
          sourceKey: `adjustment:${credit.adjustmentId}`,
          createdBy: run.startedBy,
        });
      if (invoiceId !== null) {
        await applyFamilyCredit(tx, tenant, invoiceId, today);
        await queueInvoiceMail(deps, tx, tenant, invoiceId);
      }
      await settleAdjustments(tx, tenant, bill.settles);
    }
    await tx
      .update(billingRuns)
      .set({
        processed: sql`${billingRuns.processed} + 1`,
        issued: sql`${billingRuns.issued} + ${issued}`,
        total: sql`${billingRuns.total} + ${total}`,
      })
      .where(tenant.byId(billingRuns, run.id));
  });
}
