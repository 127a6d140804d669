import { z } from 'zod';
import { invoiceStatuses, paymentMethods } from './billing.ts';

/**
 * A family's account (issue 15): what they owe, their credit and saved card, their invoices, and
 * one dated statement of everything that moved money (decision 017). Amounts are integer cents,
 * dates YYYY-MM-DD in the company's time zone.
 */

/** A real calendar date, YYYY-MM-DD (2026-02-30 is refused, never handed to the database). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter a date as YYYY-MM-DD.')
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
  }, 'Please enter a date as YYYY-MM-DD.');

/** ?from=&to=: the statement's period (both optional, inclusive). */
export const statementQuery = z
  .object({ from: isoDate.optional(), to: isoDate.optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'The period must end on or after its first day.',
    path: ['to'],
  });
export type StatementQuery = z.infer<typeof statementQuery>;

/**
 * What a line of the statement is. `purchase` is something paid at checkout without an invoice
 * (an event booking, a party's deposit or balance): its charge and its payment are both listed.
 */
export const statementEntryKinds = [
  'invoice',
  'void',
  'purchase',
  'payment',
  'credit_note',
  'refund',
  'credit',
] as const;
export type StatementEntryKind = (typeof statementEntryKinds)[number];

export const statementEntry = z.object({
  date: z.string(),
  kind: z.enum(statementEntryKinds),
  description: z.string(),
  /** The invoice, credit note or payment reference people read out (INV-000012, CN-000003, the bank reference). */
  reference: z.string().nullable(),
  /** For payments and refunds: how the money moved. */
  method: z.enum(paymentMethods).nullable(),
  /** What this line does to the balance: + charges and refunds to the card, − payments and credit notes. */
  amount: z.number(),
  /** What it does to the family's credit (+ kept as credit, − credit used); 0 for most lines. */
  credit: z.number(),
  /** The family's balance after this line: what they owe less their credit (negative: in credit). */
  balance: z.number(),
  /** A refund's state while the provider works on it. */
  status: z.enum(['pending', 'succeeded', 'failed']).nullable(),
});
export type StatementEntry = z.infer<typeof statementEntry>;

export const statementInvoice = z.object({
  id: z.number(),
  code: z.string().nullable(),
  status: z.enum(invoiceStatuses),
  issued_on: z.string().nullable(),
  due_on: z.string().nullable(),
  total: z.number(),
  paid: z.number(),
  credited: z.number(),
  /** What is still owing. */
  balance: z.number(),
});
export type StatementInvoice = z.infer<typeof statementInvoice>;

export const savedCard = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().nullable(),
  exp_year: z.number().nullable(),
  autopay: z.boolean(),
});

/** GET /api/v1/admin/parents/:id/statement and GET /api/v1/students/statement. */
export const familyStatementResponse = z.object({
  family: z.object({ id: z.number(), name: z.string(), email: z.string() }),
  currency: z.string(),
  today: z.string(),
  /** The sum of the open invoices' balances. */
  owing: z.number(),
  /** The part of `owing` past its due date. */
  overdue: z.number(),
  credit: z.number(),
  saved_card: savedCard.nullable(),
  /** Newest first; drafts are not the family's to see. */
  invoices: z.array(statementInvoice),
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** The balance before the period's first line (0 without a period). */
  opening_balance: z.number(),
  /** Oldest first, each with the running balance. */
  entries: z.array(statementEntry),
  closing_balance: z.number(),
});
export type FamilyStatement = z.infer<typeof familyStatementResponse>;

/** GET /api/v1/students/payments: every payment of the family (card and recorded by staff). */
export const familyPaymentsResponse = z.array(
  z.object({
    id: z.number(),
    description: z.string(),
    /** Cents. */
    amount: z.number(),
    status: z.string(),
    method: z.enum(paymentMethods),
    /** 'Card (Stripe)', 'Test card', 'Cash', 'Bank transfer', … */
    method_label: z.string(),
    /** What staff typed (a bank reference, a voucher code); null for card payments. */
    reference: z.string().nullable(),
    /** Kept for older clients: the provider, or the method when staff recorded it. */
    provider: z.string(),
    paid_at: z.string().nullable(),
    /** The day it was paid in the company's time zone, YYYY-MM-DD; null while unpaid. */
    paid_on: z.string().nullable(),
    /** Refunds of this payment, oldest first (failed ones too, so the parent sees what happened). */
    refunds: z.array(
      z.object({
        id: z.number(),
        date: z.string(),
        amount: z.number(),
        destination: z.enum(['card', 'credit']),
        status: z.enum(['pending', 'succeeded', 'failed']),
        reason: z.string(),
      }),
    ),
    /** GET with the session token: application/pdf. */
    receipt_url: z.string(),
  }),
);
export type FamilyPayments = z.infer<typeof familyPaymentsResponse>;

/** Words both the staff and the parent pages use. */
export const statementLabels: Record<StatementEntryKind, string> = {
  invoice: 'Invoice',
  void: 'Invoice voided',
  purchase: 'Booking',
  payment: 'Payment',
  credit_note: 'Credit note',
  refund: 'Refund',
  credit: 'Credit',
};
