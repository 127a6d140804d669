import { xeroTaxTypeNames } from '@tumble/contracts/accounting';
import { stringify } from 'csv-stringify/sync';
import {
  type AccountingExport,
  dollars,
  type ExportCreditNote,
  type ExportInvoice,
  type ExportLine,
  type ExportPayment,
  type ExportRefund,
} from './accounting-export.ts';

/**
 * The CSV adapter: files for Xero's import screens, for a company without the API connection.
 * - Invoices: Xero's sales invoice template (Business › Invoices › Import), one row per line, the
 *   invoice's columns repeated; starred columns are the ones Xero requires.
 * - Credit notes: the same template on the credit notes import; the credit note's number in the
 *   number column, amounts positive (Xero knows a credit note is a credit).
 * - Payments and refunds: a bank statement (Date, Amount, Payee, Description, Reference) to import
 *   into the bank account and reconcile against the invoices; refunds are negative.
 * Amounts are GST inclusive: choose "Tax inclusive" when importing. Dates are DD/MM/YYYY (Xero AU).
 */
export const XERO_SALES_COLUMNS = [
  '*ContactName',
  'EmailAddress',
  'POAddressLine1',
  'POAddressLine2',
  'POAddressLine3',
  'POAddressLine4',
  'POCity',
  'PORegion',
  'POPostalCode',
  'POCountry',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  'Total',
  'InventoryItemCode',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  'Discount',
  '*AccountCode',
  '*TaxType',
  'TaxAmount',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
  'Currency',
  'BrandingTheme',
] as const;

export const BANK_STATEMENT_COLUMNS = ['Date', 'Amount', 'Payee', 'Description', 'Reference'] as const;

type SalesRow = Partial<Record<(typeof XERO_SALES_COLUMNS)[number], string>>;

/** 2030-02-01 → 01/02/2030 */
export function xeroDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
}

/**
 * Text a spreadsheet would run as a formula (=, +, -, @ first) is kept as text with a leading
 * apostrophe: these files are opened in Excel before they are imported (OWASP CSV injection).
 */
export function textCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The import screens name a tax rate by its display name (the API by its code). */
export const taxTypeName = (code: string) => xeroTaxTypeNames[code] ?? code;

export class XeroCsvExport implements AccountingExport {
  private readonly sales: SalesRow[] = [];
  private readonly credits: SalesRow[] = [];
  private readonly bank: string[][] = [];

  constructor(private readonly currency: string) {}

  private rows(
    head: {
      contact: ExportInvoice['contact'];
      number: string;
      reference: string;
      date: string;
      due: string;
      total: number;
    },
    lines: ExportLine[],
  ): SalesRow[] {
    return lines.map((line) => ({
      '*ContactName': textCell(head.contact.name),
      EmailAddress: textCell(head.contact.email),
      '*InvoiceNumber': head.number,
      Reference: textCell(head.reference),
      '*InvoiceDate': xeroDate(head.date),
      '*DueDate': xeroDate(head.due),
      Total: dollars(head.total),
      '*Description': textCell(line.description),
      '*Quantity': String(line.quantity),
      '*UnitAmount': dollars(line.unitAmount),
      '*AccountCode': line.accountCode,
      '*TaxType': taxTypeName(line.taxType),
      TaxAmount: dollars(line.gst),
      Currency: this.currency,
    }));
  }

  async invoice(invoice: ExportInvoice): Promise<void> {
    if (invoice.status === 'VOIDED') return;
    this.sales.push(
      ...this.rows(
        {
          contact: invoice.contact,
          number: invoice.code,
          reference: '',
          date: invoice.date,
          due: invoice.dueDate,
          total: invoice.total,
        },
        invoice.lines,
      ),
    );
  }

  async creditNote(note: ExportCreditNote): Promise<void> {
    this.credits.push(
      ...this.rows(
        {
          contact: note.contact,
          number: note.code,
          reference: note.invoiceCode,
          date: note.date,
          due: note.date,
          total: note.amount,
        },
        note.lines,
      ),
    );
  }

  async payment(payment: ExportPayment): Promise<void> {
    this.bank.push([
      xeroDate(payment.date),
      dollars(payment.amount),
      textCell(payment.contact.name),
      `Payment of ${payment.invoiceCode} (${payment.method})`,
      textCell(payment.reference || payment.invoiceCode),
    ]);
  }

  async refund(refund: ExportRefund): Promise<void> {
    this.bank.push([
      xeroDate(refund.date),
      dollars(-refund.amount),
      textCell(refund.contact.name),
      textCell(`Refund for ${refund.invoiceCode}: ${refund.reason}`),
      refund.invoiceCode,
    ]);
  }

  /** The file of one kind, header first. */
  file(kind: 'invoices' | 'credit-notes' | 'payments'): string {
    if (kind === 'payments') return stringify([[...BANK_STATEMENT_COLUMNS], ...this.bank]);
    const rows = kind === 'invoices' ? this.sales : this.credits;
    return stringify(rows, { header: true, columns: [...XERO_SALES_COLUMNS] });
  }
}
