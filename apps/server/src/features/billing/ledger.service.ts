import { gstIn, invoiceBalance } from '@tumble/contracts/billing';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { share } from '../../platform/money.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { companyOf, contactOf } from '../accounts/accounts.service.ts';
import {
  billingProfiles,
  creditNotes,
  familyAccounts,
  familyCreditEntries,
  invoiceLines,
  invoices,
  paymentAllocations,
} from './ledger.tables.ts';

/**
 * The ledger (decision 017): the one place invoices are numbered, issued and refreshed, payments
 * allocated, credit notes issued and family credit moved. Every function here runs inside the
 * caller's transaction (`tx`) so a billing run, a payment or a refund changes everything or nothing.
 */

export type Invoice = typeof invoices.$inferSelect;
export type InvoiceLine = typeof invoiceLines.$inferSelect;
export type BillingProfile = typeof billingProfiles.$inferSelect;

export interface NewInvoiceLine {
  description: string;
  /** How the line was worked out, in words a parent reads (sessions × rate, dates not charged, …). */
  detail?: string | null;
  quantity?: number;
  /** Cents per unit, GST included. */
  unitAmount: number;
  gstFree?: boolean;
  enrolmentId?: number | null;
  adjustmentId?: number | null;
  purchaseKind?: InvoiceLine['purchaseKind'];
  purchaseId?: number | null;
}

/**
 * The company's billing profile, or, before staff saved one, what it would be: the company's name
 * and the table's defaults (id 0, not stored: reading never writes).
 */
export async function billingProfileOf(db: Db, tenant: Tenant): Promise<BillingProfile> {
  const [found] = await db.select().from(billingProfiles).where(tenant.where(billingProfiles));
  if (found) return found;
  const company = await companyOf(db, tenant);
  return {
    id: 0,
    companyId: tenant.companyId,
    legalName: company.name,
    abn: null,
    gstRegistered: true,
    address: null,
    invoicePrefix: 'INV-',
    nextInvoiceNumber: 1,
    nextCreditNoteNumber: 1,
    daysUntilDue: 14,
    bankAccountName: null,
    bsb: null,
    bankAccountNumber: null,
    lateFeePolicy: null,
    logoPath: null,
  };
}

/** The stored billing profile, made from the company's name the first time something writes it. */
export async function ensureBillingProfile(tx: Db, tenant: Tenant): Promise<BillingProfile> {
  const profile = await billingProfileOf(tx, tenant);
  if (profile.id !== 0) return profile;
  await tx
    .insert(billingProfiles)
    .values(tenant.values({ legalName: profile.legalName }))
    .onConflictDoNothing();
  const [made] = await tx.select().from(billingProfiles).where(tenant.where(billingProfiles));
  return made!;
}

/** INV-000123: the prefix, then the number padded to six digits. */
export function invoiceCode(prefix: string, number: number): string {
  return `${prefix}${String(number).padStart(6, '0')}`;
}

/**
 * Takes the next number of a sequence. The UPDATE locks the profile row until the transaction
 * ends, so simultaneous issuers queue, and a rolled-back transaction gives its number back: no gaps,
 * no repeats.
 */
async function nextNumber(tx: Db, tenant: Tenant, sequence: 'invoice' | 'credit_note') {
  await ensureBillingProfile(tx, tenant);
  const column =
    sequence === 'invoice' ? billingProfiles.nextInvoiceNumber : billingProfiles.nextCreditNoteNumber;
  const [row] = await tx
    .update(billingProfiles)
    .set(
      sequence === 'invoice'
        ? { nextInvoiceNumber: sql`${column} + 1` }
        : { nextCreditNoteNumber: sql`${column} + 1` },
    )
    .where(tenant.where(billingProfiles))
    .returning({ next: column, prefix: billingProfiles.invoicePrefix });
  const number = row!.next - 1;
  return {
    number,
    code: sequence === 'invoice' ? invoiceCode(row!.prefix, number) : invoiceCode('CN-', number),
  };
}

/**
 * Writes an invoice with its lines (GST worked out per line) as a draft, or issued at once with
 * `issueOn`. With a `sourceKey` it is made once: a second call finds the first and says so.
 */
export async function createInvoice(
  tx: Db,
  tenant: Tenant,
  input: {
    parentId: number;
    kind: Invoice['kind'];
    lines: NewInvoiceLine[];
    sourceKey?: string;
    termId?: number | null;
    billingRunId?: number | null;
    notes?: string | null;
    createdBy?: number | null;
    /** Issue it on this date (company time zone); leave out for a draft. */
    issueOn?: string;
    /** Defaults to the issue date plus the profile's days until due. */
    dueOn?: string;
  },
): Promise<{ invoice: Invoice; created: boolean }> {
  if (input.lines.length === 0) throw new BadRequestError('An invoice needs at least one line.');
  const profile = await billingProfileOf(tx, tenant);
  const buyer = await contactOf(tx, tenant, input.parentId);
  const lines = input.lines.map((line, position) => {
    const quantity = line.quantity ?? 1;
    const amount = quantity * line.unitAmount;
    const gstFree = line.gstFree ?? false;
    return {
      position,
      description: line.description,
      detail: line.detail ?? null,
      quantity,
      unitAmount: line.unitAmount,
      amount,
      gstFree,
      gst: gstIn(amount, { gstRegistered: profile.gstRegistered, gstFree }),
      enrolmentId: line.enrolmentId ?? null,
      adjustmentId: line.adjustmentId ?? null,
      purchaseKind: line.purchaseKind ?? null,
      purchaseId: line.purchaseId ?? null,
    };
  });
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  if (total < 0) throw new BadRequestError('An invoice cannot come to less than nothing.');
  const [invoice] = await tx
    .insert(invoices)
    .values(
      tenant.values({
        parentId: input.parentId,
        kind: input.kind,
        sourceKey: input.sourceKey ?? null,
        termId: input.termId ?? null,
        billingRunId: input.billingRunId ?? null,
        buyerName: buyer.fullName,
        buyerEmail: buyer.email,
        gstRegistered: profile.gstRegistered,
        total,
        gst: lines.reduce((sum, line) => sum + line.gst, 0),
        notes: input.notes ?? null,
        createdBy: input.createdBy ?? null,
        dueOn: input.dueOn ?? null,
      }),
    )
    .onConflictDoNothing()
    .returning();
  if (!invoice) {
    const [existing] = await tx
      .select()
      .from(invoices)
      .where(tenant.where(invoices, eq(invoices.sourceKey, input.sourceKey ?? '')));
    return { invoice: existing!, created: false };
  }
  await tx
    .insert(invoiceLines)
    .values(lines.map((line) => tenant.values({ ...line, invoiceId: invoice.id })));
  if (input.issueOn === undefined) return { invoice, created: true };
  return { invoice: await issueInvoice(tx, tenant, invoice.id, input.issueOn), created: true };
}

/** Locks an invoice row for a change; 404 when it is not the tenant's. */
export async function lockInvoice(tx: Db, tenant: Tenant, invoiceId: number): Promise<Invoice> {
  const [invoice] = await tx.select().from(invoices).where(tenant.byId(invoices, invoiceId)).for('update');
  if (!invoice) throw new NotFoundError();
  return invoice;
}

/** A draft becomes a numbered tax invoice dated `today`; issuing twice changes nothing. */
export async function issueInvoice(
  tx: Db,
  tenant: Tenant,
  invoiceId: number,
  today: string,
): Promise<Invoice> {
  const invoice = await lockInvoice(tx, tenant, invoiceId);
  if (invoice.status !== 'draft') return invoice;
  const profile = await billingProfileOf(tx, tenant);
  const { number, code } = await nextNumber(tx, tenant, 'invoice');
  await tx
    .update(invoices)
    .set({
      number,
      code,
      status: 'issued',
      issuedOn: today,
      dueOn: invoice.dueOn ?? addDays(today, profile.daysUntilDue),
      issuedAt: sql`now()`,
    })
    .where(tenant.byId(invoices, invoiceId));
  return refreshInvoice(tx, tenant, invoiceId, today);
}

/**
 * Recomputes what was paid and credited from the allocations and credit notes, and the status
 * from them and the due date (`today` in the company's time zone). Draft and void stay as they are.
 */
export async function refreshInvoice(
  tx: Db,
  tenant: Tenant,
  invoiceId: number,
  today: string,
): Promise<Invoice> {
  const [[paid], [credited]] = await Promise.all([
    tx
      .select({ sum: sql<number>`coalesce(sum(${paymentAllocations.amount}), 0)::int` })
      .from(paymentAllocations)
      .where(tenant.where(paymentAllocations, eq(paymentAllocations.invoiceId, invoiceId))),
    tx
      .select({ sum: sql<number>`coalesce(sum(${creditNotes.amount}), 0)::int` })
      .from(creditNotes)
      .where(tenant.where(creditNotes, eq(creditNotes.invoiceId, invoiceId))),
  ]);
  const invoice = await lockInvoice(tx, tenant, invoiceId);
  const amounts = { total: invoice.total, amountPaid: paid!.sum, amountCredited: credited!.sum };
  const status = statusOf({ ...invoice, ...amounts }, today);
  const [updated] = await tx
    .update(invoices)
    .set({ amountPaid: amounts.amountPaid, amountCredited: amounts.amountCredited, status })
    .where(tenant.byId(invoices, invoiceId))
    .returning();
  return updated!;
}

/** An invoice's status from its amounts and due date. */
export function statusOf(
  invoice: Pick<Invoice, 'status' | 'total' | 'amountPaid' | 'amountCredited' | 'dueOn'>,
  today: string,
): Invoice['status'] {
  if (invoice.status === 'draft' || invoice.status === 'void') return invoice.status;
  if (invoiceBalance(invoice) === 0) return 'paid';
  if (invoice.dueOn !== null && invoice.dueOn < today) return 'overdue';
  return invoice.amountPaid > 0 ? 'part_paid' : 'issued';
}

/** The family's account row, locked: every use of its credit or card goes through this lock. */
export async function lockFamilyAccount(tx: Db, tenant: Tenant, parentId: number) {
  await tx.insert(familyAccounts).values(tenant.values({ parentId })).onConflictDoNothing();
  const [account] = await tx
    .select()
    .from(familyAccounts)
    .where(tenant.where(familyAccounts, eq(familyAccounts.parentId, parentId)))
    .for('update');
  return account!;
}

/**
 * Adds to (positive) or takes from (negative) a family's credit, with its reason. With a
 * `sourceKey` (an adjustment or cancelled booking) it happens once: false when it already had.
 */
export async function moveFamilyCredit(
  tx: Db,
  tenant: Tenant,
  entry: {
    parentId: number;
    amount: number;
    reason: string;
    paymentId?: number | null;
    refundId?: number | null;
    creditNoteId?: number | null;
    invoiceId?: number | null;
    sourceKey?: string | null;
    createdBy?: number | null;
  },
): Promise<boolean> {
  const account = await lockFamilyAccount(tx, tenant, entry.parentId);
  if (account.creditBalance + entry.amount < 0)
    throw new BadRequestError('The family does not have that much credit.');
  const inserted = await tx
    .insert(familyCreditEntries)
    .values(tenant.values({ ...entry }))
    .onConflictDoNothing()
    .returning({ id: familyCreditEntries.id });
  if (inserted.length === 0) return false;
  await tx
    .update(familyAccounts)
    .set({ creditBalance: account.creditBalance + entry.amount })
    .where(tenant.byId(familyAccounts, account.id));
  return true;
}

/** Uses the family's credit on an issued invoice, as far as both go. Returns the cents used. */
export async function applyFamilyCredit(
  tx: Db,
  tenant: Tenant,
  invoiceId: number,
  today: string,
): Promise<number> {
  const invoice = await lockInvoice(tx, tenant, invoiceId);
  if (invoice.status === 'draft' || invoice.status === 'void') return 0;
  const account = await lockFamilyAccount(tx, tenant, invoice.parentId);
  const used = Math.min(account.creditBalance, invoiceBalance(invoice));
  if (used <= 0) return 0;
  await tx.insert(paymentAllocations).values(tenant.values({ invoiceId, kind: 'credit', amount: used }));
  await moveFamilyCredit(tx, tenant, {
    parentId: invoice.parentId,
    amount: -used,
    reason: `Used on invoice ${invoice.code}`,
    invoiceId,
  });
  await refreshInvoice(tx, tenant, invoiceId, today);
  return used;
}

/**
 * Shares a received payment among the family's invoices: the ones named, in the order given, or
 * else the oldest open ones first; what is left over becomes family credit ("Overpayment").
 */
export async function allocatePayment(
  tx: Db,
  tenant: Tenant,
  payment: { id: number; parentId: number; amount: number },
  today: string,
  invoiceIds?: number[],
): Promise<{ allocated: { invoiceId: number; amount: number }[]; credit: number }> {
  const open = await tx
    .select()
    .from(invoices)
    .where(
      tenant.where(
        invoices,
        eq(invoices.parentId, payment.parentId),
        inArray(invoices.status, ['issued', 'part_paid', 'overdue']),
        invoiceIds ? inArray(invoices.id, invoiceIds.length > 0 ? invoiceIds : [0]) : undefined,
      ),
    )
    .orderBy(asc(invoices.dueOn), asc(invoices.id))
    .for('update');
  if (invoiceIds && open.length !== invoiceIds.length)
    throw new BadRequestError('Please choose invoices of this family that are still owing.');
  const ordered = invoiceIds ? invoiceIds.map((id) => open.find((invoice) => invoice.id === id)!) : open;
  let left = payment.amount;
  const allocated: { invoiceId: number; amount: number }[] = [];
  for (const invoice of ordered) {
    const amount = Math.min(left, invoiceBalance(invoice));
    if (amount <= 0) continue;
    await tx
      .insert(paymentAllocations)
      .values(tenant.values({ invoiceId: invoice.id, kind: 'payment', paymentId: payment.id, amount }));
    await refreshInvoice(tx, tenant, invoice.id, today);
    allocated.push({ invoiceId: invoice.id, amount });
    left -= amount;
  }
  if (left > 0)
    await moveFamilyCredit(tx, tenant, {
      parentId: payment.parentId,
      amount: left,
      reason: 'Overpayment',
      paymentId: payment.id,
    });
  return { allocated, credit: left };
}

/**
 * An ATO adjustment note: lowers what an issued invoice asks for by `amount` (GST in proportion to
 * the invoice's). If the family had already paid more than the invoice now asks, the difference
 * becomes their credit.
 */
export async function issueCreditNote(
  tx: Db,
  tenant: Tenant,
  input: { invoiceId: number; amount: number; reason: string; createdBy?: number | null },
  today: string,
) {
  const invoice = await lockInvoice(tx, tenant, input.invoiceId);
  if (invoice.status === 'draft' || invoice.status === 'void')
    throw new BadRequestError('Only an issued invoice can be credited.');
  if (
    !Number.isInteger(input.amount) ||
    input.amount <= 0 ||
    input.amount > invoice.total - invoice.amountCredited
  )
    throw new BadRequestError('A credit note cannot be more than what is left on the invoice.');
  const { number, code } = await nextNumber(tx, tenant, 'credit_note');
  const [note] = await tx
    .insert(creditNotes)
    .values(
      tenant.values({
        invoiceId: invoice.id,
        parentId: invoice.parentId,
        number,
        code,
        amount: input.amount,
        gst: invoice.total === 0 ? 0 : share(invoice.gst, input.amount, invoice.total),
        reason: input.reason,
        issuedOn: today,
        createdBy: input.createdBy ?? null,
      }),
    )
    .returning();
  const refreshed = await refreshInvoice(tx, tenant, invoice.id, today);
  const overpaid = refreshed.amountPaid + refreshed.amountCredited - refreshed.total;
  if (overpaid > 0) {
    // The excess leaves the invoice as credit: take it off the invoice's paid amount so both agree.
    await tx
      .insert(paymentAllocations)
      .values(tenant.values({ invoiceId: invoice.id, kind: 'credit', amount: -overpaid }));
    await moveFamilyCredit(tx, tenant, {
      parentId: invoice.parentId,
      amount: overpaid,
      reason: `Credit note ${code}`,
      creditNoteId: note!.id,
      createdBy: input.createdBy ?? null,
    });
    await refreshInvoice(tx, tenant, invoice.id, today);
  }
  return note!;
}

/** Voids an issued invoice nobody has paid (else: a credit note); what it billed can be billed again. */
export async function voidInvoice(
  tx: Db,
  tenant: Tenant,
  invoiceId: number,
  reason: string,
): Promise<Invoice> {
  const invoice = await lockInvoice(tx, tenant, invoiceId);
  if (invoice.status === 'void') return invoice;
  if (invoice.amountPaid !== 0 || invoice.amountCredited !== 0)
    throw new BadRequestError('This invoice has payments or credit notes: issue a credit note instead.');
  await tx
    .update(invoiceLines)
    .set({ voided: true })
    .where(tenant.where(invoiceLines, eq(invoiceLines.invoiceId, invoiceId)));
  const [voided] = await tx
    .update(invoices)
    .set({ status: 'void', voidedAt: sql`now()`, voidReason: reason })
    .where(tenant.byId(invoices, invoiceId))
    .returning();
  return voided!;
}

/** An invoice with its lines in order (views, PDF, mail); null when it is not the tenant's. */
export async function invoiceWithLines(db: Db, tenant: Tenant, invoiceId: number) {
  const [invoice] = await db.select().from(invoices).where(tenant.byId(invoices, invoiceId));
  if (!invoice) return null;
  const lines = await db
    .select()
    .from(invoiceLines)
    .where(tenant.where(invoiceLines, eq(invoiceLines.invoiceId, invoiceId)))
    .orderBy(asc(invoiceLines.position));
  return { invoice, lines };
}

/** Open invoices of a family (owing), oldest due first. */
export function openInvoicesOf(db: Db, tenant: Tenant, parentId: number) {
  return db
    .select()
    .from(invoices)
    .where(
      and(
        tenant.where(invoices, eq(invoices.parentId, parentId)),
        inArray(invoices.status, ['issued', 'part_paid', 'overdue']),
      ),
    )
    .orderBy(asc(invoices.dueOn), asc(invoices.id));
}

/**
 * Issued and part-paid invoices whose due date has passed become overdue (the sweep: nothing else
 * touches an invoice nobody pays). Each company's today is its own time zone's, so the query takes
 * every invoice due before tomorrow in UTC and refreshInvoice decides by the company's date.
 */
export async function markOverdueInvoices(db: Db, now = new Date()): Promise<number> {
  const candidates = await db
    .select({ id: invoices.id, companyId: invoices.companyId, dueOn: invoices.dueOn })
    .from(invoices)
    // cross-tenant: the sweep finds every company's invoices near their due date; each is refreshed in its tenant.
    .where(
      and(
        inArray(invoices.status, ['issued', 'part_paid']),
        sql`${invoices.dueOn} < ${addDays(now.toISOString().slice(0, 10), 1)}`,
      ),
    );
  const todayOf = new Map<number, string>();
  let overdue = 0;
  for (const invoice of candidates) {
    const tenant = new Tenant(invoice.companyId);
    if (!todayOf.has(invoice.companyId))
      todayOf.set(invoice.companyId, todayIn((await companyOf(db, tenant)).timeZone, now));
    const today = todayOf.get(invoice.companyId)!;
    if (invoice.dueOn === null || invoice.dueOn >= today) continue;
    await db.transaction((tx) => refreshInvoice(tx, tenant, invoice.id, today));
    overdue++;
  }
  return overdue;
}
