/**
 * What the ledger hands an accounting package, already mapped to the company's account codes and
 * tax types (accounting.service.ts reads the ledger and maps it). Amounts are integer cents, GST
 * included (decision 017); dates are the company's calendar dates (YYYY-MM-DD).
 *
 * Two adapters implement `AccountingExport`: the CSV files of Xero's import screens (xero-csv.ts)
 * and the Xero API sync (xero-sync.ts). Another package (MYOB, QuickBooks) would be a third.
 */

export interface ExportContact {
  parentId: number;
  name: string;
  email: string;
}

export interface ExportLine {
  description: string;
  quantity: number;
  /** Cents per unit; `amount` = quantity × unitAmount; `gst` is the GST inside `amount`. */
  unitAmount: number;
  amount: number;
  gst: number;
  accountCode: string;
  /** A Xero tax type code (OUTPUT, EXEMPTOUTPUT, BASEXCLUDED, …). */
  taxType: string;
}

export interface ExportInvoice {
  id: number;
  /** Our number, e.g. INV-000123: the same number in Xero. */
  code: string;
  date: string;
  dueDate: string;
  contact: ExportContact;
  lines: ExportLine[];
  total: number;
  /** VOIDED once the invoice is voided here (only ever for an invoice nobody paid). */
  status: 'AUTHORISED' | 'VOIDED';
}

export interface ExportCreditNote {
  id: number;
  /** CN-000007 */
  code: string;
  date: string;
  invoiceId: number;
  invoiceCode: string;
  contact: ExportContact;
  lines: ExportLine[];
  amount: number;
  reason: string;
}

/** One share of a payment on one invoice (a payment allocation): Xero pays invoices one at a time. */
export interface ExportPayment {
  id: number;
  paymentId: number;
  invoiceId: number;
  invoiceCode: string;
  contact: ExportContact;
  date: string;
  amount: number;
  /** The bank or clearing account the money landed in (card or cash/transfer/EFTPOS/voucher). */
  accountCode: string;
  method: string;
  reference: string;
}

/** Money paid back to the family's card for a payment on an invoice. */
export interface ExportRefund {
  id: number;
  paymentId: number;
  invoiceId: number;
  invoiceCode: string;
  contact: ExportContact;
  date: string;
  amount: number;
  accountCode: string;
  reason: string;
}

export interface AccountingExport {
  invoice(invoice: ExportInvoice): Promise<void>;
  creditNote(note: ExportCreditNote): Promise<void>;
  payment(payment: ExportPayment): Promise<void>;
  refund(refund: ExportRefund): Promise<void>;
}

/** 12345 → "123.45", -5 → "-0.05": Xero reads amounts as plain decimal dollars. */
export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
