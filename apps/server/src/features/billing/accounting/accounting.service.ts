import {
  type AccountingCsvQuery,
  type AccountingSettingsInput,
  type AccountingStatus,
  type AccountingSyncResponse,
  accountingMessages,
} from '@tumble/contracts/accounting';
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import type { AuthContext } from '../../../platform/auth.ts';
import type { AppDeps } from '../../../platform/deps.ts';
import { BadRequestError } from '../../../platform/errors.ts';
import { payments } from '../../../platform/payments/payments.tables.ts';
import { randomToken, sha256 } from '../../../platform/secrets.ts';
import { Tenant, type TenantRowTable } from '../../../platform/tenancy.ts';
import { todayIn } from '../../../platform/time.ts';
import { open, seal } from '../../../platform/token-box.ts';
import { companyOf } from '../../accounts/accounts.service.ts';
import { creditNotes, invoiceLines, invoices, paymentAllocations, refunds } from '../ledger.tables.ts';
import { accountingSettings, accountingSyncItems } from './accounting.tables.ts';
import type {
  AccountingExport,
  ExportContact,
  ExportCreditNote,
  ExportInvoice,
  ExportLine,
  ExportPayment,
  ExportRefund,
} from './accounting-export.ts';
import { XeroClient, XeroError, xeroAvailable } from './xero-client.ts';
import { XeroCsvExport } from './xero-csv.ts';
import { XeroSync } from './xero-sync.ts';

/**
 * The accounting export (issue 15, SPEC integrations/accounting): reads the ledger (decision 017)
 * as records mapped to the company's Xero account codes and tax types, and hands them to an
 * AccountingExport: the CSV files, or the Xero API sync (the job every minute and "Sync now").
 */

type Settings = typeof accountingSettings.$inferSelect;

/** Minutes an authorisation at Xero may take before its `state` is refused. */
const CONNECT_MINUTES = 15;
/** Refresh the access token when less than this is left of it (Xero's last 30 minutes). */
const REFRESH_MARGIN_MS = 2 * 60_000;
/** A sync that died is taken over after this. */
const LEASE_MINUTES = 5;

export const xeroCallbackPath = '/integrations/xero/callback';
const settingsPage = '/admin/integrations/accounting';

const clientOf = (deps: AppDeps) => new XeroClient(deps.config);
const redirectUri = (deps: AppDeps) => `${deps.config.publicUrl}${xeroCallbackPath}`;

/**
 * The company's accounting settings, or, before anything was saved, the Australian defaults (id 0,
 * not stored: reading never writes; ensureSettings makes the row when something does).
 */
export async function settingsOf(db: Db, tenant: Tenant): Promise<Settings> {
  const [found] = await db.select().from(accountingSettings).where(tenant.where(accountingSettings));
  if (found) return found;
  return {
    id: 0,
    companyId: tenant.companyId,
    salesAccountCode: '200',
    gstFreeSalesAccountCode: '200',
    cardAccountCode: '090',
    cashAccountCode: '090',
    refundAccountCode: '090',
    gstTaxType: 'OUTPUT',
    gstFreeTaxType: 'EXEMPTOUTPUT',
    noGstTaxType: 'BASEXCLUDED',
    syncFrom: null,
    oauthStateHash: null,
    oauthStartedBy: null,
    oauthStateExpiresAt: null,
    xeroTenantId: null,
    xeroTenantName: null,
    xeroConnectionId: null,
    accessToken: null,
    refreshToken: null,
    accessTokenExpiresAt: null,
    connectedAt: null,
    connectedBy: null,
    syncLeaseUntil: null,
    lastSyncAt: null,
    lastError: null,
  };
}

/** The stored settings row, made with the defaults the first time something writes them. */
async function ensureSettings(db: Db, tenant: Tenant): Promise<void> {
  await db.insert(accountingSettings).values(tenant.values({})).onConflictDoNothing();
}

function connectionState(deps: AppDeps, settings: Settings): AccountingStatus['connection']['state'] {
  if (settings.xeroTenantId && settings.refreshToken) return 'connected';
  if (settings.xeroTenantId) return 'expired';
  return xeroAvailable(deps.config) ? 'not_connected' : 'not_configured';
}

const settingsInput = (s: Settings): AccountingSettingsInput => ({
  sales_account_code: s.salesAccountCode,
  gst_free_sales_account_code: s.gstFreeSalesAccountCode,
  card_account_code: s.cardAccountCode,
  cash_account_code: s.cashAccountCode,
  refund_account_code: s.refundAccountCode,
  gst_tax_type: s.gstTaxType,
  gst_free_tax_type: s.gstFreeTaxType,
  no_gst_tax_type: s.noGstTaxType,
  sync_from: s.syncFrom,
});

/** What the settings page shows: settings, connection, last sync, and each record Xero refused. */
export async function accountingStatusOf(deps: AppDeps, tenant: Tenant): Promise<AccountingStatus> {
  const { db } = deps.database;
  const settings = await settingsOf(db, tenant);
  const [[counts], failed] = await Promise.all([
    db
      .select({ synced: sql<number>`count(*) filter (where ${accountingSyncItems.status} = 'synced')::int` })
      .from(accountingSyncItems)
      .where(tenant.where(accountingSyncItems)),
    db
      .select()
      .from(accountingSyncItems)
      .where(tenant.where(accountingSyncItems, eq(accountingSyncItems.status, 'failed')))
      .orderBy(desc(accountingSyncItems.updatedAt))
      .limit(50),
  ]);
  return {
    settings: settingsInput(settings),
    connection: {
      state: connectionState(deps, settings),
      organisation: settings.xeroTenantName,
      connected_at: settings.connectedAt?.toISOString() ?? null,
      available: xeroAvailable(deps.config),
    },
    last_sync_at: settings.lastSyncAt?.toISOString() ?? null,
    last_error: settings.lastError,
    synced: counts?.synced ?? 0,
    failed: await Promise.all(
      failed.map(async (item) => ({
        kind: item.kind,
        label: await labelOf(db, tenant, item),
        error: item.error ?? '',
        updated_at: item.updatedAt.toISOString(),
      })),
    ),
  };
}

/** What staff know a record by. */
async function labelOf(db: Db, tenant: Tenant, item: typeof accountingSyncItems.$inferSelect) {
  if (item.kind === 'invoice') {
    const [row] = await db
      .select({ code: invoices.code })
      .from(invoices)
      .where(tenant.byId(invoices, item.localId));
    return row?.code ?? `Invoice ${item.localId}`;
  }
  if (item.kind === 'credit_note') {
    const [row] = await db
      .select({ code: creditNotes.code })
      .from(creditNotes)
      .where(tenant.byId(creditNotes, item.localId));
    return row?.code ?? `Credit note ${item.localId}`;
  }
  if (item.kind === 'contact') {
    const [row] = await db
      .select({ name: invoices.buyerName })
      .from(invoices)
      .where(tenant.where(invoices, eq(invoices.parentId, item.localId)))
      .limit(1);
    return row?.name ?? `Family ${item.localId}`;
  }
  if (item.kind === 'payment') {
    const [row] = await db
      .select({ code: invoices.code })
      .from(paymentAllocations)
      .innerJoin(invoices, eq(invoices.id, paymentAllocations.invoiceId))
      .where(tenant.byId(paymentAllocations, item.localId));
    return `Payment on ${row?.code ?? 'an invoice'}`;
  }
  const [row] = await db
    .select({ code: invoices.code })
    .from(refunds)
    .innerJoin(invoices, eq(invoices.id, refunds.invoiceId))
    .where(tenant.byId(refunds, item.localId));
  return `Refund on ${row?.code ?? 'an invoice'}`;
}

export async function saveAccountingSettings(db: Db, tenant: Tenant, input: AccountingSettingsInput) {
  await ensureSettings(db, tenant);
  await db
    .update(accountingSettings)
    .set({
      salesAccountCode: input.sales_account_code,
      gstFreeSalesAccountCode: input.gst_free_sales_account_code,
      cardAccountCode: input.card_account_code,
      cashAccountCode: input.cash_account_code,
      refundAccountCode: input.refund_account_code,
      gstTaxType: input.gst_tax_type,
      gstFreeTaxType: input.gst_free_tax_type,
      noGstTaxType: input.no_gst_tax_type,
      syncFrom: input.sync_from,
    })
    .where(tenant.where(accountingSettings));
}

/** Step 1 of Xero's authorisation code flow: a one-time `state`, and Xero's login page to go to. */
export async function startXeroConnect(deps: AppDeps, auth: AuthContext): Promise<{ url: string }> {
  if (!xeroAvailable(deps.config)) throw new BadRequestError(accountingMessages.notAvailable);
  const { db } = deps.database;
  await ensureSettings(db, auth.tenant);
  const state = randomToken();
  await db
    .update(accountingSettings)
    .set({
      oauthStateHash: sha256(state),
      oauthStartedBy: auth.userId,
      oauthStateExpiresAt: new Date(Date.now() + CONNECT_MINUTES * 60_000),
    })
    .where(auth.tenant.where(accountingSettings));
  return { url: clientOf(deps).authorizeUrl(state, redirectUri(deps)) };
}

/**
 * Step 2: Xero sends the browser back with `code` and our `state`. The state names the company
 * (it is checked, not the session: the callback arrives from Xero's site). Tokens are sealed, the
 * organisation read from GET /connections. Answers where to send the browser.
 */
export async function finishXeroConnect(
  deps: AppDeps,
  query: { code?: string; state?: string; error?: string },
): Promise<string> {
  const fail = (message: string) => `${settingsPage}?error=${encodeURIComponent(message)}`;
  if (!query.state) return fail('Xero did not say which connection this was. Please connect again.');
  const { db } = deps.database;
  const [settings] = await db
    .select()
    .from(accountingSettings)
    // cross-tenant: the one-time state (256 random bits, stored hashed) is what finds the company.
    .where(eq(accountingSettings.oauthStateHash, sha256(query.state)));
  if (!settings?.oauthStateExpiresAt || settings.oauthStateExpiresAt < new Date())
    return fail('This Xero sign-in has expired. Please connect again.');
  const tenant = new Tenant(settings.companyId);
  await db
    .update(accountingSettings)
    .set({ oauthStateHash: null, oauthStateExpiresAt: null })
    .where(tenant.where(accountingSettings));
  if (query.error || !query.code) return fail('Xero was not connected: access was not allowed.');
  const client = clientOf(deps);
  try {
    const tokens = await client.exchangeCode(query.code, redirectUri(deps));
    const organisations = (await client.connections(tokens.accessToken)).filter(
      (c) => c.tenantType === 'ORGANISATION',
    );
    const organisation = organisations[0];
    if (!organisation) return fail('No Xero organisation was chosen. Please connect again and pick one.');
    await db
      .update(accountingSettings)
      .set({
        xeroTenantId: organisation.tenantId,
        xeroTenantName: organisation.tenantName,
        xeroConnectionId: organisation.id,
        accessToken: seal(deps.config, tokens.accessToken),
        refreshToken: seal(deps.config, tokens.refreshToken),
        accessTokenExpiresAt: tokens.expiresAt,
        connectedAt: new Date(),
        connectedBy: settings.oauthStartedBy,
        lastError: null,
        // A new connection starts from today unless staff chose a date: older years are already in Xero.
        syncFrom: settings.syncFrom ?? todayIn((await companyOf(db, tenant)).timeZone),
      })
      .where(tenant.where(accountingSettings));
    return `${settingsPage}?connected=1`;
  } catch (error) {
    if (error instanceof XeroError) return fail(error.message);
    throw error;
  }
}

/** Forgets the connection; tells Xero too when it still answers (a failure there changes nothing here). */
export async function disconnectXero(deps: AppDeps, tenant: Tenant): Promise<void> {
  const { db } = deps.database;
  const settings = await settingsOf(db, tenant);
  if (settings.accessToken && settings.xeroConnectionId && xeroAvailable(deps.config)) {
    try {
      const session = await sessionOf(deps, tenant, settings);
      await clientOf(deps).deleteConnection(await session.accessToken(), settings.xeroConnectionId);
    } catch (error) {
      if (!(error instanceof XeroError)) throw error;
    }
  }
  await db
    .update(accountingSettings)
    .set({
      xeroTenantId: null,
      xeroTenantName: null,
      xeroConnectionId: null,
      accessToken: null,
      refreshToken: null,
      accessTokenExpiresAt: null,
      connectedAt: null,
      connectedBy: null,
      lastError: null,
    })
    .where(tenant.where(accountingSettings));
}

/**
 * The access token for API calls, refreshed when it is about to run out. Xero rotates the refresh
 * token on every use, so the new pair is stored at once; a refused refresh ends the connection's
 * tokens (state "Connection expired") and staff connect again.
 */
async function sessionOf(deps: AppDeps, tenant: Tenant, settings: Settings) {
  const { db } = deps.database;
  const client = clientOf(deps);
  let access = settings.accessToken ? open(deps.config, settings.accessToken) : '';
  let expiresAt = settings.accessTokenExpiresAt ?? new Date(0);
  let refreshToken = settings.refreshToken ? open(deps.config, settings.refreshToken) : '';
  const renew = async () => {
    if (!refreshToken)
      throw new XeroError(401, 'Xero no longer accepts this connection: please connect again.');
    try {
      const tokens = await client.refresh(refreshToken);
      access = tokens.accessToken;
      expiresAt = tokens.expiresAt;
      refreshToken = tokens.refreshToken;
      await db
        .update(accountingSettings)
        .set({
          accessToken: seal(deps.config, tokens.accessToken),
          refreshToken: seal(deps.config, tokens.refreshToken),
          accessTokenExpiresAt: tokens.expiresAt,
        })
        .where(tenant.where(accountingSettings));
      return access;
    } catch (error) {
      if (error instanceof XeroError && (error.status === 400 || error.status === 401)) {
        refreshToken = '';
        await db
          .update(accountingSettings)
          .set({ accessToken: null, refreshToken: null, accessTokenExpiresAt: null })
          .where(tenant.where(accountingSettings));
      }
      throw error;
    }
  };
  return {
    tenantId: settings.xeroTenantId ?? '',
    accessToken: async () =>
      expiresAt.getTime() - Date.now() > REFRESH_MARGIN_MS && access ? access : renew(),
    renew,
  };
}

// ---- Reading the ledger as export records -------------------------------------------------------

interface Mapping {
  settings: Settings;
  timeZone: string;
}

function lineOf(mapping: Mapping, gstRegistered: boolean, line: { gstFree: boolean }) {
  const { settings } = mapping;
  return {
    accountCode: line.gstFree ? settings.gstFreeSalesAccountCode : settings.salesAccountCode,
    taxType: !gstRegistered
      ? settings.noGstTaxType
      : line.gstFree
        ? settings.gstFreeTaxType
        : settings.gstTaxType,
  };
}

const contactOfInvoice = (invoice: {
  parentId: number;
  buyerName: string;
  buyerEmail: string;
}): ExportContact => ({
  parentId: invoice.parentId,
  name: invoice.buyerName,
  email: invoice.buyerEmail,
});

async function exportInvoices(
  db: Db,
  tenant: Tenant,
  mapping: Mapping,
  rows: (typeof invoices.$inferSelect)[],
): Promise<ExportInvoice[]> {
  if (rows.length === 0) return [];
  const lines = await db
    .select()
    .from(invoiceLines)
    .where(
      tenant.where(
        invoiceLines,
        inArray(
          invoiceLines.invoiceId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.position));
  return rows.map((invoice) => ({
    id: invoice.id,
    code: invoice.code ?? '',
    date: invoice.issuedOn ?? '',
    dueDate: invoice.dueOn ?? invoice.issuedOn ?? '',
    contact: contactOfInvoice(invoice),
    total: invoice.total,
    status: invoice.status === 'void' ? 'VOIDED' : 'AUTHORISED',
    lines: lines
      .filter((line) => line.invoiceId === invoice.id)
      .map(
        (line): ExportLine => ({
          description: line.detail ? `${line.description}: ${line.detail}` : line.description,
          quantity: line.quantity,
          unitAmount: line.unitAmount,
          amount: line.amount,
          gst: line.gst,
          ...lineOf(mapping, invoice.gstRegistered, line),
        }),
      ),
  }));
}

/**
 * A credit note's lines: the part carrying GST (eleven times its GST) and the GST-free rest, so a
 * note on an invoice with GST-free lines keeps the GST the ledger gave it (in proportion).
 */
function creditNoteLines(
  mapping: Mapping,
  note: { amount: number; gst: number; reason: string },
  invoice: { code: string | null; gstRegistered: boolean },
): ExportLine[] {
  const taxed = Math.min(note.amount, note.gst * 11);
  const parts = [
    { amount: taxed, gst: note.gst, gstFree: false },
    { amount: note.amount - taxed, gst: 0, gstFree: true },
  ].filter((part) => part.amount > 0);
  return parts.map((part) => ({
    description: `Credit on ${invoice.code}: ${note.reason}`,
    quantity: 1,
    unitAmount: part.amount,
    amount: part.amount,
    gst: part.gst,
    // An unregistered supplier has no GST at all: every line is BAS Excluded, not GST-free.
    ...lineOf(mapping, invoice.gstRegistered, { gstFree: invoice.gstRegistered && part.gstFree }),
  }));
}

/** The record has not reached Xero yet (no synced item for it). */
const notSynced = (kind: (typeof accountingSyncItems.$inferSelect)['kind'], table: TenantRowTable) =>
  sql`not exists (select 1 from ${accountingSyncItems} where ${accountingSyncItems.companyId} = ${table.companyId} and ${accountingSyncItems.kind} = ${kind} and ${accountingSyncItems.localId} = ${table.id} and ${accountingSyncItems.status} = 'synced')`;

/** Everything a sync still has to send, oldest first within each kind. */
async function pendingRecords(db: Db, tenant: Tenant, mapping: Mapping) {
  const from = mapping.settings.syncFrom ?? '1970-01-01';
  const issued = inArray(invoices.status, ['issued', 'part_paid', 'paid', 'overdue']);
  const invoiceRows = await db
    .select()
    .from(invoices)
    .where(
      tenant.where(
        invoices,
        gte(invoices.issuedOn, from),
        or(
          and(issued, notSynced('invoice', invoices)),
          // Voided here after it reached Xero: void it there too.
          and(
            eq(invoices.status, 'void'),
            sql`exists (select 1 from ${accountingSyncItems} where ${accountingSyncItems.companyId} = ${invoices.companyId} and ${accountingSyncItems.kind} = 'invoice' and ${accountingSyncItems.localId} = ${invoices.id} and ${accountingSyncItems.sent} = 'AUTHORISED')`,
          ),
        ),
      ),
    )
    .orderBy(asc(invoices.issuedOn), asc(invoices.id));
  const notes = await db
    .select({ note: creditNotes, invoice: invoices })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .where(
      tenant.where(
        creditNotes,
        gte(creditNotes.issuedOn, from),
        gte(invoices.issuedOn, from),
        notSynced('credit_note', creditNotes),
      ),
    )
    .orderBy(asc(creditNotes.id));
  const allocations = await paymentRows(db, tenant, [notSynced('payment', paymentAllocations)]);
  const refundRows = await refundRowsOf(db, tenant, [notSynced('refund', refunds)]);
  const date = (at: Date) => todayIn(mapping.timeZone, at);
  return {
    invoices: await exportInvoices(db, tenant, mapping, invoiceRows),
    creditNotes: notes.map(({ note, invoice }) => creditNoteOf(mapping, note, invoice)),
    // What pays or refunds an invoice older than the sync's start stays out with that invoice.
    payments: allocations
      .filter((row) => date(row.at) >= from && (row.invoice.issuedOn ?? '') >= from)
      .map((row) => paymentOf(mapping, row)),
    refunds: refundRows
      .filter((row) => date(row.at) >= from && (row.invoice.issuedOn ?? '') >= from)
      .map((row) => refundOf(mapping, row)),
  };
}

function creditNoteOf(
  mapping: Mapping,
  note: typeof creditNotes.$inferSelect,
  invoice: typeof invoices.$inferSelect,
): ExportCreditNote {
  return {
    id: note.id,
    code: note.code,
    date: note.issuedOn,
    invoiceId: invoice.id,
    invoiceCode: invoice.code ?? '',
    contact: contactOfInvoice(invoice),
    lines: creditNoteLines(mapping, note, invoice),
    amount: note.amount,
    reason: note.reason,
  };
}

/** A payment's shares of invoices (kind `payment`): each is one Xero payment on one invoice. */
function paymentRows(db: Db, tenant: Tenant, conditions: ReturnType<typeof sql>[]) {
  return db
    .select({
      id: paymentAllocations.id,
      paymentId: paymentAllocations.paymentId,
      amount: paymentAllocations.amount,
      at: sql<Date>`coalesce(${payments.paidAt}, ${paymentAllocations.createdAt})`.mapWith(
        (v) => new Date(v),
      ),
      method: payments.method,
      reference: payments.reference,
      invoice: invoices,
    })
    .from(paymentAllocations)
    .innerJoin(invoices, eq(invoices.id, paymentAllocations.invoiceId))
    .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
    .where(
      tenant.where(
        paymentAllocations,
        eq(paymentAllocations.kind, 'payment'),
        isNotNull(paymentAllocations.paymentId),
        sql`${paymentAllocations.amount} > 0`,
        ...conditions,
      ),
    )
    .orderBy(asc(paymentAllocations.id));
}

type PaymentRow = Awaited<ReturnType<typeof paymentRows>>[number];

function paymentOf(mapping: Mapping, row: PaymentRow): ExportPayment {
  const { settings } = mapping;
  return {
    id: row.id,
    paymentId: row.paymentId ?? 0,
    invoiceId: row.invoice.id,
    invoiceCode: row.invoice.code ?? '',
    contact: contactOfInvoice(row.invoice),
    date: todayIn(mapping.timeZone, row.at),
    amount: row.amount,
    accountCode: row.method === 'card' ? settings.cardAccountCode : settings.cashAccountCode,
    method: row.method,
    reference: row.reference ?? '',
  };
}

/** Refunds to the card that went through, for a payment on an invoice (money that left the bank). */
function refundRowsOf(db: Db, tenant: Tenant, conditions: ReturnType<typeof sql>[]) {
  return db
    .select({
      refund: refunds,
      at: sql<Date>`coalesce(${refunds.settledAt}, ${refunds.createdAt})`.mapWith((v) => new Date(v)),
      invoice: invoices,
    })
    .from(refunds)
    .innerJoin(invoices, eq(invoices.id, refunds.invoiceId))
    .where(
      tenant.where(refunds, eq(refunds.destination, 'card'), eq(refunds.status, 'succeeded'), ...conditions),
    )
    .orderBy(asc(refunds.id));
}

type RefundRow = Awaited<ReturnType<typeof refundRowsOf>>[number];

function refundOf(mapping: Mapping, row: RefundRow): ExportRefund {
  return {
    id: row.refund.id,
    paymentId: row.refund.paymentId,
    invoiceId: row.invoice.id,
    invoiceCode: row.invoice.code ?? '',
    contact: contactOfInvoice(row.invoice),
    date: todayIn(mapping.timeZone, row.at),
    amount: row.refund.amount,
    accountCode: mapping.settings.refundAccountCode,
    reason: row.refund.reason,
  };
}

async function mappingOf(db: Db, tenant: Tenant): Promise<Mapping & { currency: string }> {
  const [settings, company] = await Promise.all([settingsOf(db, tenant), companyOf(db, tenant)]);
  return { settings, timeZone: company.timeZone, currency: company.currency };
}

/** Feeds records to an export in the order Xero needs them: invoices before what pays or credits them. */
async function feed(
  target: AccountingExport,
  records: {
    invoices: ExportInvoice[];
    creditNotes: ExportCreditNote[];
    payments: ExportPayment[];
    refunds: ExportRefund[];
  },
) {
  for (const invoice of records.invoices) await target.invoice(invoice);
  for (const payment of records.payments) await target.payment(payment);
  for (const note of records.creditNotes) await target.creditNote(note);
  for (const refund of records.refunds) await target.refund(refund);
}

// ---- CSV ----------------------------------------------------------------------------------------

/** One CSV file of what happened between two dates (company time zone), for Xero's import screens. */
export async function accountingCsv(
  db: Db,
  tenant: Tenant,
  query: AccountingCsvQuery,
): Promise<{ filename: string; body: string }> {
  const mapping = await mappingOf(db, tenant);
  const csv = new XeroCsvExport(mapping.currency);
  const inRange = (date: string) => date >= query.from && date <= query.to;
  if (query.kind === 'invoices') {
    const rows = await db
      .select()
      .from(invoices)
      .where(
        tenant.where(
          invoices,
          inArray(invoices.status, ['issued', 'part_paid', 'paid', 'overdue']),
          gte(invoices.issuedOn, query.from),
          lte(invoices.issuedOn, query.to),
        ),
      )
      .orderBy(asc(invoices.number));
    await feed(csv, {
      invoices: await exportInvoices(db, tenant, mapping, rows),
      creditNotes: [],
      payments: [],
      refunds: [],
    });
  } else if (query.kind === 'credit-notes') {
    const notes = await db
      .select({ note: creditNotes, invoice: invoices })
      .from(creditNotes)
      .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
      .where(
        tenant.where(creditNotes, gte(creditNotes.issuedOn, query.from), lte(creditNotes.issuedOn, query.to)),
      )
      .orderBy(asc(creditNotes.number));
    await feed(csv, {
      invoices: [],
      creditNotes: notes.map(({ note, invoice }) => creditNoteOf(mapping, note, invoice)),
      payments: [],
      refunds: [],
    });
  } else {
    const [paid, refunded] = await Promise.all([paymentRows(db, tenant, []), refundRowsOf(db, tenant, [])]);
    await feed(csv, {
      invoices: [],
      creditNotes: [],
      payments: paid.map((row) => paymentOf(mapping, row)).filter((p) => inRange(p.date)),
      refunds: refunded.map((row) => refundOf(mapping, row)).filter((r) => inRange(r.date)),
    });
  }
  return { filename: `xero-${query.kind}-${query.from}-to-${query.to}.csv`, body: csv.file(query.kind) };
}

// ---- API sync -----------------------------------------------------------------------------------

/** Takes the company's sync lease (one sync at a time: the job and "Sync now"); false when another runs. */
async function takeLease(db: Db, tenant: Tenant): Promise<boolean> {
  const taken = await db
    .update(accountingSettings)
    .set({ syncLeaseUntil: sql`now() + make_interval(mins => ${LEASE_MINUTES})` })
    .where(
      tenant.where(
        accountingSettings,
        or(isNull(accountingSettings.syncLeaseUntil), sql`${accountingSettings.syncLeaseUntil} < now()`),
      ),
    )
    .returning({ id: accountingSettings.id });
  return taken.length > 0;
}

/**
 * Sends what changed since the last sync. Nothing pending: no call to Xero at all. Each record's
 * refusal is stored on it (shown on the page) and the others go on; only a connection problem
 * (refused token, Xero unreachable) stops the run, recorded as the last error.
 */
export async function syncAccounting(deps: AppDeps, tenant: Tenant): Promise<AccountingSyncResponse> {
  const { db } = deps.database;
  // Read, not made: a refused request writes nothing.
  const [settings] = await db.select().from(accountingSettings).where(tenant.where(accountingSettings));
  if (!settings || connectionState(deps, settings) !== 'connected')
    throw new BadRequestError(accountingMessages.notConnected);
  if (!(await takeLease(db, tenant)))
    return { sent: 0, failed: 0, message: 'A sync is already running; it will finish in a moment.' };
  try {
    const mapping = await mappingOf(db, tenant);
    const records = await pendingRecords(db, tenant, mapping);
    const count =
      records.invoices.length + records.creditNotes.length + records.payments.length + records.refunds.length;
    if (count === 0) {
      await db
        .update(accountingSettings)
        .set({ lastSyncAt: new Date() })
        .where(tenant.where(accountingSettings));
      return { sent: 0, failed: 0, message: accountingMessages.nothingToSend };
    }
    const sync = new XeroSync(db, tenant, clientOf(deps), await sessionOf(deps, tenant, settings));
    let lastError: string | null = null;
    try {
      await feed(sync, records);
    } catch (error) {
      if (!(error instanceof XeroError)) throw error;
      lastError = error.message;
    }
    if (!lastError && sync.failed > 0)
      lastError =
        sync.failed === 1
          ? '1 record could not be sent to Xero: see below.'
          : `${sync.failed} records could not be sent to Xero: see below.`;
    await db
      .update(accountingSettings)
      .set({ lastSyncAt: new Date(), lastError })
      .where(tenant.where(accountingSettings));
    return {
      sent: sync.sent,
      failed: sync.failed,
      message:
        lastError ?? (sync.sent === 1 ? 'Sent 1 record to Xero.' : `Sent ${sync.sent} records to Xero.`),
    };
  } finally {
    await db.update(accountingSettings).set({ syncLeaseUntil: null }).where(tenant.where(accountingSettings));
  }
}

/** The job: every connected company, one after the other; one company's trouble never stops the rest. */
export async function syncConnectedCompanies(deps: AppDeps): Promise<void> {
  const { db } = deps.database;
  const connected = await db
    .select({ companyId: accountingSettings.companyId })
    .from(accountingSettings)
    // cross-tenant: the job finds the companies that connected Xero.
    .where(and(isNotNull(accountingSettings.xeroTenantId), isNotNull(accountingSettings.refreshToken)));
  for (const { companyId } of connected) {
    try {
      await syncAccounting(deps, new Tenant(companyId));
    } catch (error) {
      console.error(`[accounting.sync] company ${companyId}`, error);
      await db
        .update(accountingSettings)
        .set({ lastError: 'The last sync stopped unexpectedly; it will be tried again.' })
        .where(new Tenant(companyId).where(accountingSettings));
    }
  }
}
