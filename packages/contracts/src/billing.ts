import { z } from 'zod';

/**
 * The ledger's shared words and rules (decision 017), used by the server and the pages alike.
 * Screens add their own request schemas in their own contract files (invoices.ts, refunds.ts, …).
 */

export const invoiceStatuses = ['draft', 'issued', 'part_paid', 'paid', 'overdue', 'void'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

export const invoiceStatusLabels: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  issued: 'Issued',
  part_paid: 'Part-paid',
  paid: 'Paid',
  overdue: 'Overdue',
  void: 'Void',
};

export const paymentMethods = ['card', 'cash', 'bank_transfer', 'eftpos', 'voucher'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

export const paymentMethodLabels: Record<PaymentMethod, string> = {
  card: 'Card',
  cash: 'Cash',
  bank_transfer: 'Bank transfer',
  eftpos: 'EFTPOS',
  voucher: 'Voucher',
};

/**
 * The ATO's ABN check: subtract 1 from the first digit, weight the digits 10, 1, 3, 5, …, 19,
 * and the sum divides by 89. Spaces are allowed as typed ("51 824 753 556").
 */
export function validAbn(value: string): boolean {
  const digits = value.replace(/\s/g, '');
  if (!/^\d{11}$/.test(digits)) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const sum = [...digits].reduce(
    (total, digit, i) => total + (Number(digit) - (i === 0 ? 1 : 0)) * weights[i]!,
    0,
  );
  return sum % 89 === 0;
}

/** 51824753556 → "51 824 753 556", as the ATO prints it. */
export function formatAbn(abn: string): string {
  const d = abn.replace(/\s/g, '');
  return `${d.slice(0, 2)} ${d.slice(2, 5)} ${d.slice(5, 8)} ${d.slice(8, 11)}`;
}

export const abnField = z
  .string()
  .trim()
  .refine((value) => value === '' || validAbn(value), 'Please enter a valid 11-digit ABN.')
  .transform((value) => value.replace(/\s/g, ''));

/** Whole cents, rounded half away from zero (so a discount's GST mirrors its price's). */
function roundCents(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/**
 * The GST inside a GST-inclusive amount: one eleventh, to the cent, per line (the ATO lets a
 * supplier round per line or per invoice; per line keeps each line's figure true on its own).
 * Nothing when the supplier is not registered or the line is GST-free.
 */
export function gstIn(amount: number, options: { gstRegistered: boolean; gstFree: boolean }): number {
  if (!options.gstRegistered || options.gstFree) return 0;
  return roundCents(amount / 11);
}

/** What an invoice still asks for: its total less payments and credit notes (never below 0). */
export function invoiceBalance(invoice: {
  total: number;
  amountPaid: number;
  amountCredited: number;
}): number {
  return Math.max(0, invoice.total - invoice.amountPaid - invoice.amountCredited);
}
