import { formatAbn } from '@tumble/contracts/billing';
import type { InvoiceDetail } from '@tumble/contracts/invoices';
import type { Db } from '../../db/client.ts';
import type { FileStorage } from '../../platform/files.ts';
import { formatMoney } from '../../platform/money.ts';
import { type PdfDocument, type PdfSection, renderPdf } from '../../platform/pdf.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { bankDetailsText, invoicePayLink } from './invoice-mail.ts';
import { creditNoteOf, invoiceDetail } from './invoices.service.ts';
import { type BillingProfile, billingProfileOf } from './ledger.service.ts';

/**
 * The tax invoice and the adjustment note as PDFs (ATO rules for a tax invoice: the words "Tax
 * invoice" when the supplier is GST-registered, the supplier's identity and ABN, the issue date, the
 * buyer, each item with its quantity and price, the GST per line and "Total price includes GST",
 * GST-free items marked). The document model is built by pure functions so tests can read it.
 */

export interface InvoicePdfContext {
  profile: Pick<
    BillingProfile,
    'legalName' | 'abn' | 'address' | 'bankAccountName' | 'bsb' | 'bankAccountNumber' | 'lateFeePolicy'
  >;
  /** Where the parent pays online. */
  payLink: string;
  logo?: Buffer;
}

const money = (cents: number, currency: string) => formatMoney(cents, currency);

function supplierRows(profile: InvoicePdfContext['profile']): [string, string][] {
  return [
    ['From', profile.legalName],
    ...(profile.abn ? ([['ABN', formatAbn(profile.abn)]] as [string, string][]) : []),
    ...(profile.address ? ([['Address', profile.address]] as [string, string][]) : []),
  ];
}

/** The invoice as a document: what the PDF prints, in order. */
export function invoiceDocument(invoice: InvoiceDetail, context: InvoicePdfContext): PdfDocument {
  const { profile } = context;
  const c = invoice.currency;
  const taxInvoice = invoice.gst_registered;
  const number = invoice.code ?? 'Draft';
  const hasGstFree = invoice.lines.some((line) => line.gst_free);
  const columns = taxInvoice
    ? [
        { label: 'Description', width: 0.46 },
        { label: 'Qty', width: 0.08, align: 'right' as const },
        { label: 'Unit price', width: 0.16, align: 'right' as const },
        { label: 'GST', width: 0.14, align: 'right' as const },
        { label: 'Amount', width: 0.16, align: 'right' as const },
      ]
    : [
        { label: 'Description', width: 0.6 },
        { label: 'Qty', width: 0.08, align: 'right' as const },
        { label: 'Unit price', width: 0.16, align: 'right' as const },
        { label: 'Amount', width: 0.16, align: 'right' as const },
      ];
  const lineRows = invoice.lines.map((line) => {
    const description = taxInvoice && line.gst_free ? `${line.description} (GST-free)` : line.description;
    const amounts = [String(line.quantity), money(line.unit_amount, c)];
    return {
      cells: taxInvoice
        ? [description, ...amounts, line.gst_free ? 'GST-free' : money(line.gst, c), money(line.amount, c)]
        : [description, ...amounts, money(line.amount, c)],
      note: line.detail || undefined,
    };
  });
  const totals: [string, string, boolean?][] = [
    [`Total${taxInvoice ? ' (GST included)' : ''}`, money(invoice.total, c), true],
    ...(taxInvoice ? ([['Total price includes GST of', money(invoice.gst, c)]] as [string, string][]) : []),
    ...invoice.allocations.map(
      (a) => [`${a.description}, ${displayDate(a.date)}`, money(-a.amount, c)] as [string, string],
    ),
    ...invoice.credit_notes.map(
      (n) => [`Credit note ${n.code}, ${displayDate(n.issued_on)}`, money(-n.amount, c)] as [string, string],
    ),
    ['Balance due', money(invoice.balance, c), true],
  ];
  const bank = invoice.code ? bankDetailsText(profile, invoice.code) : '';
  const howToPay = [
    invoice.status === 'void' || invoice.balance === 0 ? '' : `Pay online: ${context.payLink}`,
    bank ? `Bank transfer: ${bank}` : '',
  ].filter(Boolean);
  const sections: PdfSection[] = [
    { rows: supplierRows(profile) },
    {
      rows: [
        [taxInvoice ? 'Tax invoice number' : 'Invoice number', number],
        ['Date of issue', invoice.issued_on ? displayDate(invoice.issued_on) : 'Not issued yet'],
        ['Due date', invoice.due_on ? displayDate(invoice.due_on) : ''],
        ['Bill to', invoice.email ? `${invoice.family} <${invoice.email}>` : invoice.family],
        ...(invoice.status === 'void'
          ? ([['Status', `Void${invoice.void_reason ? `: ${invoice.void_reason}` : ''}`]] as [
              string,
              string,
            ][])
          : []),
      ],
    },
    { table: { columns, rows: lineRows } },
    {
      table: {
        columns: [
          { label: '', width: 0.7, align: 'right' },
          { label: '', width: 0.3, align: 'right' },
        ],
        rows: totals.map(([label, value, strong]) => ({ cells: [label, value], bold: strong ?? false })),
      },
    },
    ...(hasGstFree && taxInvoice ? [{ text: 'Items marked GST-free have no GST in their price.' }] : []),
    ...(invoice.notes ? [{ heading: 'Notes', text: invoice.notes }] : []),
    ...(howToPay.length > 0 && invoice.status !== 'draft'
      ? [{ heading: 'How to pay', text: howToPay.join('\n') }]
      : []),
    ...(profile.lateFeePolicy ? [{ heading: 'Late payment', text: profile.lateFeePolicy }] : []),
  ];
  return {
    title: taxInvoice ? 'Tax invoice' : 'Invoice',
    subtitle: `${profile.legalName} · ${number}`,
    sections,
    footer: taxInvoice
      ? `Total price includes GST. ${profile.legalName}${profile.abn ? `, ABN ${formatAbn(profile.abn)}` : ''}.`
      : `${profile.legalName} is not registered for GST; no GST is charged.`,
    logo: context.logo,
  };
}

/** The adjustment note (a credit note) as a document, naming the invoice it adjusts. */
export function creditNoteDocument(
  note: { code: string; issuedOn: string; amount: number; gst: number; reason: string },
  invoice: { code: string | null; buyerName: string; buyerEmail: string; gstRegistered: boolean },
  currency: string,
  context: Omit<InvoicePdfContext, 'payLink'>,
): PdfDocument {
  const { profile } = context;
  return {
    title: 'Adjustment note',
    subtitle: `${profile.legalName} · ${note.code}`,
    sections: [
      { rows: supplierRows(profile) },
      {
        rows: [
          ['Adjustment note number', note.code],
          ['Date of issue', displayDate(note.issuedOn)],
          ['Adjusts invoice', invoice.code ?? ''],
          ['Bill to', `${invoice.buyerName} <${invoice.buyerEmail}>`],
          ['Reason', note.reason],
        ],
      },
      {
        table: {
          columns: [
            { label: '', width: 0.7, align: 'right' },
            { label: '', width: 0.3, align: 'right' },
          ],
          rows: [
            { cells: ['Amount credited', money(note.amount, currency)], bold: true },
            ...(invoice.gstRegistered
              ? [{ cells: ['GST included in the adjustment', money(note.gst, currency)] }]
              : []),
          ],
        },
      },
    ],
    footer: `This note lowers what invoice ${invoice.code ?? ''} asks for by the amount above.`,
    logo: context.logo,
  };
}

/**
 * Others call invoicePdf(db, tenant, id) with the database only (the agreed seam), but the logo
 * lives in the file store and the pay link needs the public address: the invoice routes hand both
 * over once when the app starts (`configureInvoicePdf`).
 */
const assets: { files?: FileStorage; publicUrl: string } = { publicUrl: '' };
export function configureInvoicePdf(deps: { files: FileStorage; config: { publicUrl: string } }) {
  assets.files = deps.files;
  assets.publicUrl = deps.config.publicUrl;
}

/** The profile's logo file, if it has one. */
async function logoOf(profile: BillingProfile) {
  if (!assets.files || !profile.logoPath) return undefined;
  return (await assets.files.get(profile.logoPath)) ?? undefined;
}

/** The tax invoice PDF of one of the tenant's invoices (404 when it is not theirs). */
export async function invoicePdf(db: Db, tenant: Tenant, invoiceId: number): Promise<Buffer> {
  const [invoice, profile, company] = await Promise.all([
    invoiceDetail(db, tenant, invoiceId),
    billingProfileOf(db, tenant),
    companyOf(db, tenant),
  ]);
  return renderPdf(
    invoiceDocument(invoice, {
      profile,
      payLink: invoicePayLink(assets.publicUrl, invoice.id, company.authhash),
      logo: await logoOf(profile),
    }),
  );
}

/** The adjustment note PDF of one of the tenant's credit notes (404 when it is not theirs). */
export async function creditNotePdf(db: Db, tenant: Tenant, creditNoteId: number): Promise<Buffer> {
  const [{ note, invoice }, profile, company] = await Promise.all([
    creditNoteOf(db, tenant, creditNoteId),
    billingProfileOf(db, tenant),
    companyOf(db, tenant),
  ]);
  return renderPdf(
    creditNoteDocument(note, invoice, company.currency, {
      profile,
      logo: await logoOf(profile),
    }),
  );
}
