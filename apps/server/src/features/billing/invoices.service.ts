import { invoiceBalance, paymentMethodLabels } from '@tumble/contracts/billing';
import {
  type BillingProfileUpdate,
  type BillingProfileView,
  type CreditNoteRequest,
  type InvoiceDetail,
  type InvoiceList,
  type InvoiceRow,
  type invoiceListQuery,
  type NewInvoice,
  nextNumberBackwards,
} from '@tumble/contracts/invoices';
import { and, asc, count, desc, eq, ilike, max, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { newFileKey, sniffImage } from '../../platform/files.ts';
import { queues } from '../../platform/jobs.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { companyOf, logoUrl } from '../accounts/accounts.service.ts';
import { parentOf } from '../accounts/parents.service.ts';
import { queueInvoiceMail } from './invoice-mail.ts';
import {
  billingProfileOf,
  createInvoice,
  ensureBillingProfile,
  type Invoice,
  invoiceWithLines,
  issueCreditNote,
  issueInvoice,
  voidInvoice,
} from './ledger.service.ts';
import { billingProfiles, creditNotes, invoices, paymentAllocations } from './ledger.tables.ts';

/**
 * Staff work on invoices (issue 15, SPEC billing-profile and invoices): the billing profile, the
 * invoice list and view, one-off invoices, issuing, mailing, credit notes and voids. Every write
 * goes through ledger.service inside one transaction and is audited.
 */

const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Today in the company's time zone: the date invoices and credit notes are issued on. */
export async function companyToday(db: Db, tenant: Tenant): Promise<string> {
  return todayIn((await companyOf(db, tenant)).timeZone);
}

/** One past the highest invoice number given so far: the next number may never go below it. */
async function lowestNextNumber(db: Db, tenant: Tenant): Promise<number> {
  const [row] = await db
    .select({ highest: max(invoices.number) })
    .from(invoices)
    .where(tenant.where(invoices));
  return (row?.highest ?? 0) + 1;
}

function profileView(
  profile: Awaited<ReturnType<typeof billingProfileOf>>,
  lowest: number,
): BillingProfileView {
  return {
    legal_name: profile.legalName,
    abn: profile.abn ?? '',
    gst_registered: profile.gstRegistered,
    address: profile.address ?? '',
    invoice_prefix: profile.invoicePrefix,
    next_invoice_number: profile.nextInvoiceNumber,
    days_until_due: profile.daysUntilDue,
    bank_account_name: profile.bankAccountName ?? '',
    bsb: profile.bsb ?? '',
    bank_account_number: profile.bankAccountNumber ?? '',
    late_fee_policy: profile.lateFeePolicy ?? '',
    logo: logoUrl(profile.logoPath),
    lowest_next_number: Math.max(lowest, profile.nextInvoiceNumber),
  };
}

/** GET /api/v1/admin/billing-profile (made from the company's name on the first visit). */
export async function getBillingProfile(deps: AppDeps, tenant: Tenant): Promise<BillingProfileView> {
  const { db } = deps.database;
  const profile = await billingProfileOf(db, tenant);
  return profileView(profile, await lowestNextNumber(db, tenant));
}

/**
 * POST /api/v1/admin/billing-profile. The profile row is locked (the same lock issuing takes), so
 * the next number is compared with the sequence as it stands: it may only move forward.
 */
export async function saveBillingProfile(
  deps: AppDeps,
  auth: AuthContext,
  input: BillingProfileUpdate,
): Promise<BillingProfileView> {
  const { tenant } = auth;
  return deps.database.db.transaction(async (tx) => {
    await ensureBillingProfile(tx, tenant);
    const [before] = await tx
      .select()
      .from(billingProfiles)
      .where(tenant.where(billingProfiles))
      .for('update');
    const lowest = Math.max(before!.nextInvoiceNumber, await lowestNextNumber(tx, tenant));
    if (input.next_invoice_number < lowest) throw new BadRequestError(nextNumberBackwards(lowest));
    const [after] = await tx
      .update(billingProfiles)
      .set({
        legalName: input.legal_name,
        abn: input.abn || null,
        gstRegistered: input.gst_registered,
        address: input.address || null,
        invoicePrefix: input.invoice_prefix,
        nextInvoiceNumber: input.next_invoice_number,
        daysUntilDue: input.days_until_due,
        bankAccountName: input.bank_account_name || null,
        bsb: input.bsb || null,
        bankAccountNumber: input.bank_account_number || null,
        lateFeePolicy: input.late_fee_policy || null,
      })
      .where(tenant.byId(billingProfiles, before!.id))
      .returning();
    await recordAudit(tx, auth, {
      action: 'update',
      entity: 'billing_profile',
      entityId: before!.id,
      before,
      after,
    });
    return profileView(after!, lowest);
  });
}

export const BILLING_LOGO_MAX_BYTES = 2 * 1024 * 1024;

/** A new logo for invoices: PNG or JPEG (what a PDF can embed), up to 2 MB; the old one is removed. */
export async function replaceBillingLogo(deps: AppDeps, auth: AuthContext, data: Buffer) {
  if (data.length > BILLING_LOGO_MAX_BYTES) throw new BadRequestError('The logo must be at most 2 MB.');
  const image = sniffImage(data);
  if (!image || !['png', 'jpg'].includes(image.extension))
    throw new BadRequestError('The logo on invoices must be a PNG or JPEG image.');
  const { tenant } = auth;
  const key = newFileKey('public', tenant.companyId, image.extension);
  await deps.files.put(key, data);
  const old = await setLogo(deps, auth, key);
  if (old) await deps.files.delete(old);
  return { logo: logoUrl(key)! };
}

export async function deleteBillingLogo(deps: AppDeps, auth: AuthContext) {
  const old = await setLogo(deps, auth, null);
  if (old) await deps.files.delete(old);
}

/** Points the profile at a logo file; answers the file it pointed at before. */
async function setLogo(deps: AppDeps, auth: AuthContext, key: string | null) {
  const { tenant } = auth;
  return deps.database.db.transaction(async (tx) => {
    // Removing a logo there is none of changes nothing (and makes no profile).
    if (key === null && (await billingProfileOf(tx, tenant)).logoPath === null) return null;
    const before = await ensureBillingProfile(tx, tenant);
    const [after] = await tx
      .update(billingProfiles)
      .set({ logoPath: key })
      .where(tenant.byId(billingProfiles, before.id))
      .returning();
    await recordAudit(tx, auth, {
      action: key ? 'upload logo' : 'remove logo',
      entity: 'billing_profile',
      entityId: before.id,
      before: { logoPath: before.logoPath },
      after: { logoPath: after!.logoPath },
    });
    return before.logoPath;
  });
}

function row(invoice: Invoice): InvoiceRow {
  return {
    id: invoice.id,
    code: invoice.code,
    kind: invoice.kind,
    status: invoice.status,
    parent_id: invoice.parentId,
    family: invoice.buyerName,
    email: invoice.buyerEmail,
    issued_on: invoice.issuedOn,
    due_on: invoice.dueOn,
    total: invoice.total,
    gst: invoice.gst,
    paid: invoice.amountPaid,
    credited: invoice.amountCredited,
    balance: invoice.status === 'void' || invoice.status === 'draft' ? 0 : invoiceBalance(invoice),
    term_id: invoice.termId,
  };
}

/** GET /api/v1/admin/invoices: filtered by status, term and kind; searched by number or family. */
export async function listInvoices(
  db: Db,
  tenant: Tenant,
  query: z.infer<typeof invoiceListQuery>,
): Promise<InvoiceList> {
  const q = query.q ? `%${escapeLike(query.q)}%` : undefined;
  const where = tenant.where(
    invoices,
    query.status ? eq(invoices.status, query.status) : undefined,
    query.kind ? eq(invoices.kind, query.kind) : undefined,
    query.term ? eq(invoices.termId, query.term) : undefined,
    q ? or(ilike(invoices.code, q), ilike(invoices.buyerName, q), ilike(invoices.buyerEmail, q)) : undefined,
  );
  const order: SQL[] =
    query.order === 'oldest'
      ? [asc(invoices.createdAt), asc(invoices.id)]
      : query.order === 'due'
        ? [asc(invoices.dueOn), asc(invoices.id)]
        : [desc(invoices.createdAt), desc(invoices.id)];
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(invoices)
      .where(where)
      .orderBy(...order)
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db.select({ n: count() }).from(invoices).where(where),
  ]);
  return { data: rows.map(row), total: total?.n ?? 0 };
}

/** Everything an invoice's page and PDF show; 404 when it is not the tenant's (or not `parentId`'s). */
export async function invoiceDetail(
  db: Db,
  tenant: Tenant,
  invoiceId: number,
  parentId?: number,
): Promise<InvoiceDetail> {
  const found = await invoiceWithLines(db, tenant, invoiceId);
  if (!found || (parentId !== undefined && found.invoice.parentId !== parentId)) throw new NotFoundError();
  const { invoice, lines } = found;
  const [allocations, notes, company] = await Promise.all([
    db
      .select({
        kind: paymentAllocations.kind,
        amount: paymentAllocations.amount,
        createdAt: paymentAllocations.createdAt,
        method: payments.method,
        provider: payments.provider,
        reference: payments.reference,
        paidAt: payments.paidAt,
      })
      .from(paymentAllocations)
      .leftJoin(payments, eq(payments.id, paymentAllocations.paymentId))
      .where(tenant.where(paymentAllocations, eq(paymentAllocations.invoiceId, invoiceId)))
      .orderBy(asc(paymentAllocations.createdAt), asc(paymentAllocations.id)),
    db
      .select()
      .from(creditNotes)
      .where(tenant.where(creditNotes, eq(creditNotes.invoiceId, invoiceId)))
      .orderBy(asc(creditNotes.id)),
    companyOf(db, tenant),
  ]);
  return {
    ...row(invoice),
    gst_registered: invoice.gstRegistered,
    notes: invoice.notes ?? '',
    void_reason: invoice.voidReason ?? '',
    created_at: invoice.createdAt.toISOString(),
    lines: lines.map((line) => ({
      description: line.description,
      detail: line.detail ?? '',
      quantity: line.quantity,
      unit_amount: line.unitAmount,
      amount: line.amount,
      gst: line.gst,
      gst_free: line.gstFree,
    })),
    allocations: allocations.map((a) => ({
      date: todayIn(company.timeZone, a.paidAt ?? a.createdAt),
      description:
        a.kind === 'credit'
          ? a.amount < 0
            ? 'Moved to family credit'
            : 'Family credit used'
          : a.kind === 'refund'
            ? 'Refund'
            : `Payment (${a.method ? paymentMethodLabels[a.method] : 'Card'}${a.reference ? `, ${a.reference}` : ''})`,
      amount: a.amount,
    })),
    credit_notes: notes.map((note) => ({
      id: note.id,
      code: note.code,
      issued_on: note.issuedOn,
      amount: note.amount,
      gst: note.gst,
      reason: note.reason,
    })),
    currency: company.currency,
  };
}

/** The due date a new invoice gets today from the profile's days until due. */
export async function newInvoiceDefaults(db: Db, tenant: Tenant) {
  const [profile, company] = await Promise.all([billingProfileOf(db, tenant), companyOf(db, tenant)]);
  const today = todayIn(company.timeZone);
  return { today, due_on: addDays(today, profile.daysUntilDue), currency: company.currency };
}

/** After a commit that queued mail: send it now rather than at the next sweep. */
async function sendQueuedMail(deps: AppDeps) {
  await deps.jobs.nudge(queues.mailDeliver);
}

/** POST /api/v1/admin/invoices: a one-off invoice for a family, as a draft or issued and mailed. */
export async function createOneOffInvoice(deps: AppDeps, auth: AuthContext, input: NewInvoice) {
  const { tenant } = auth;
  const { db } = deps.database;
  const parent = await parentOf(db, tenant, input.parent_id);
  if (!parent) throw new BadRequestError('Please choose a family.');
  const today = await companyToday(db, tenant);
  if (input.due_on < today) throw new BadRequestError('The due date cannot be in the past.');
  const invoice = await db.transaction(async (tx) => {
    const { invoice: made } = await createInvoice(tx, tenant, {
      parentId: parent.id,
      kind: 'one_off',
      lines: input.lines.map((line) => ({
        description: line.description,
        detail: line.detail || null,
        quantity: line.quantity,
        unitAmount: line.unit_amount,
        gstFree: line.gst_free,
      })),
      notes: input.notes || null,
      createdBy: auth.userId,
      dueOn: input.due_on,
      issueOn: input.issue ? today : undefined,
    });
    await recordAudit(tx, auth, {
      action: input.issue ? 'create and issue' : 'create draft',
      entity: 'invoice',
      entityId: made.id,
      after: made,
    });
    if (input.issue) await queueInvoiceMail(deps, tx, tenant, made.id);
    return made;
  });
  if (input.issue) await sendQueuedMail(deps);
  return {
    id: invoice.id,
    message: input.issue
      ? `Invoice ${invoice.code} was issued and emailed to ${parent.fullName}.`
      : 'The draft invoice was saved.',
  };
}

/** POST /api/v1/admin/invoices/:id/issue: a draft gets its number and date. */
export async function issueDraft(deps: AppDeps, auth: AuthContext, invoiceId: number) {
  const { tenant } = auth;
  const { db } = deps.database;
  const today = await companyToday(db, tenant);
  const issued = await db.transaction(async (tx) => {
    const before = await lockDraftOrIssued(tx, tenant, invoiceId);
    if (before.status !== 'draft') throw new BadRequestError('This invoice has already been issued.');
    const after = await issueInvoice(tx, tenant, invoiceId, today);
    await recordAudit(tx, auth, { action: 'issue', entity: 'invoice', entityId: invoiceId, before, after });
    return after;
  });
  return { id: issued.id, message: `Invoice ${issued.code} was issued.` };
}

async function lockDraftOrIssued(tx: Db, tenant: Tenant, invoiceId: number) {
  const [invoice] = await tx.select().from(invoices).where(tenant.byId(invoices, invoiceId)).for('update');
  if (!invoice) throw new NotFoundError();
  if (invoice.status === 'void') throw new BadRequestError('This invoice is void.');
  return invoice;
}

/** POST /api/v1/admin/invoices/:id/email: the invoice mail to the family again. */
export async function emailInvoice(deps: AppDeps, auth: AuthContext, invoiceId: number) {
  const { tenant } = auth;
  const invoice = await deps.database.db.transaction(async (tx) => {
    const found = await lockDraftOrIssued(tx, tenant, invoiceId);
    if (found.status === 'draft') throw new BadRequestError('Please issue the invoice before emailing it.');
    await queueInvoiceMail(deps, tx, tenant, invoiceId);
    await recordAudit(tx, auth, {
      action: 'email',
      entity: 'invoice',
      entityId: invoiceId,
      after: { to: found.buyerEmail },
    });
    return found;
  });
  await sendQueuedMail(deps);
  return { id: invoice.id, message: `Invoice ${invoice.code} was emailed to ${invoice.buyerEmail}.` };
}

/** POST /api/v1/admin/invoices/:id/credit-notes: an adjustment note lowering what the invoice asks. */
export async function creditInvoice(
  deps: AppDeps,
  auth: AuthContext,
  invoiceId: number,
  input: CreditNoteRequest,
) {
  const { tenant } = auth;
  const { db } = deps.database;
  const today = await companyToday(db, tenant);
  const note = await db.transaction(async (tx) => {
    const made = await issueCreditNote(
      tx,
      tenant,
      { invoiceId, amount: input.amount, reason: input.reason, createdBy: auth.userId },
      today,
    );
    await recordAudit(tx, auth, { action: 'issue', entity: 'credit_note', entityId: made.id, after: made });
    return made;
  });
  return { id: invoiceId, message: `Credit note ${note.code} was issued.`, credit_note_id: note.id };
}

/** POST /api/v1/admin/invoices/:id/void: only an invoice nobody has paid or credited. */
export async function voidUnpaidInvoice(deps: AppDeps, auth: AuthContext, invoiceId: number, reason: string) {
  const { tenant } = auth;
  const voided = await deps.database.db.transaction(async (tx) => {
    const [before] = await tx.select().from(invoices).where(tenant.byId(invoices, invoiceId)).for('update');
    if (!before) throw new NotFoundError();
    if (before.status === 'void') throw new BadRequestError('This invoice is already void.');
    const after = await voidInvoice(tx, tenant, invoiceId, reason);
    await recordAudit(tx, auth, { action: 'void', entity: 'invoice', entityId: invoiceId, before, after });
    return after;
  });
  return { id: voided.id, message: `Invoice ${voided.code ?? '(draft)'} was voided.` };
}

/** A credit note of the tenant with its invoice's number, or 404 (the adjustment note PDF). */
export async function creditNoteOf(db: Db, tenant: Tenant, creditNoteId: number, parentId?: number) {
  const [note] = await db
    .select({ note: creditNotes, invoice: invoices })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .where(
      and(
        tenant.byId(creditNotes, creditNoteId),
        tenant.where(invoices),
        parentId === undefined ? undefined : eq(creditNotes.parentId, parentId),
      ),
    );
  if (!note) throw new NotFoundError();
  return note;
}
