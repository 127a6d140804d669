import { z } from 'zod';
import { errorResponse, formResponse } from './http.ts';

/**
 * Payments after checkout (issue 15): staff record money taken at the desk or by bank transfer,
 * and a parent pays an invoice online, in full or by a payment plan. Amounts are integer cents,
 * dates YYYY-MM-DD in the company's time zone.
 */

const id = z.coerce.number().int().positive().max(2_147_483_647);

/** A real calendar date, YYYY-MM-DD (2026-02-30 is refused, never handed to the database). */
const isoDate = (message: string) =>
  z
    .string({ message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((value) => {
      const parsed = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
    }, message);

/** What staff record by hand (a card payment is always the provider's). */
export const recordedMethods = ['cash', 'bank_transfer', 'eftpos', 'voucher'] as const;
export type RecordedMethod = (typeof recordedMethods)[number];

/** Methods whose payment cannot be traced without what staff type: the transfer's description, the voucher's code. */
export const referenceRequired: readonly RecordedMethod[] = ['bank_transfer', 'voucher'];

export const paymentMessages = {
  family: 'Please choose the family who paid.',
  method: 'Please choose how it was paid.',
  amount: 'Please enter the amount received.',
  receivedOn: 'Please enter the date it was received.',
  future: 'The date received cannot be in the future.',
  reference: {
    bank_transfer: 'Please enter the bank transfer’s reference.',
    voucher: 'Please enter the voucher’s code.',
  } as Record<string, string>,
  partyWithInvoices: 'A party balance is paid on its own: untick the invoices or the party.',
  partyMore: (balance: string) => `That is more than the party's balance of ${balance}.`,
  partyPaid: 'This party has no balance left to pay.',
  invoiceChoice: 'Please choose invoices of this family that are still owing.',
} as const;

/** POST /api/v1/admin/payments/record: the same schema checks the page's form. */
export const recordPaymentRequest = z
  .object({
    parent_id: z
      .number({ message: paymentMessages.family })
      .int(paymentMessages.family)
      .positive(paymentMessages.family)
      .max(2_147_483_647, paymentMessages.family),
    method: z.enum(recordedMethods, { message: paymentMessages.method }),
    amount: z
      .number({ message: paymentMessages.amount })
      .int(paymentMessages.amount)
      .min(1, paymentMessages.amount)
      .max(100_000_000, paymentMessages.amount),
    received_on: isoDate(paymentMessages.receivedOn),
    reference: z.string().trim().max(120, 'Please keep the reference under 120 characters.').default(''),
    /** Open invoices of the family to pay, in the order given; what is left becomes family credit. */
    invoice_ids: z.array(id).max(100).default([]),
    /** A party booking of the family whose balance this pays (then no invoices). */
    party_booking_id: id.nullable().default(null),
  })
  .superRefine((value, ctx) => {
    if (referenceRequired.includes(value.method) && value.reference === '')
      ctx.addIssue({
        code: 'custom',
        path: ['reference'],
        message: paymentMessages.reference[value.method]!,
      });
    if (value.party_booking_id !== null && value.invoice_ids.length > 0)
      ctx.addIssue({ code: 'custom', path: ['invoice_ids'], message: paymentMessages.partyWithInvoices });
  });
export type RecordPaymentInput = z.output<typeof recordPaymentRequest>;
export type RecordPaymentForm = z.input<typeof recordPaymentRequest>;

/** A refused form: the first message as `message` (every 400 carries one) and each field's messages. */
export const paymentFormError = errorResponse.extend({
  valid: z.boolean().optional(),
  error: formResponse.shape.error,
});
export type PaymentFormError = z.infer<typeof paymentFormError>;

export const recordPaymentResponse = z.object({
  valid: z.literal(true),
  payment_id: z.number(),
  allocated: z.array(z.object({ invoice_id: z.number(), code: z.string(), amount: z.number() })),
  credit: z.number(),
  message: z.string(),
});
export type RecordPaymentResponse = z.infer<typeof recordPaymentResponse>;

/** GET /api/v1/admin/payments/record/options: what the page offers for a family. */
export const recordPaymentOptionsQuery = z.object({
  family: id.optional(),
  invoice: id.optional(),
  party_booking: id.optional(),
});

export const openInvoice = z.object({
  id: z.number(),
  code: z.string(),
  issued_on: z.string().nullable(),
  due_on: z.string().nullable(),
  total: z.number(),
  balance: z.number(),
  status: z.string(),
});
export type OpenInvoice = z.infer<typeof openInvoice>;

export const partyWithBalance = z.object({
  id: z.number(),
  code: z.string(),
  date: z.string(),
  total: z.number(),
  balance: z.number(),
});
export type PartyWithBalance = z.infer<typeof partyWithBalance>;

export const recordPaymentOptions = z.object({
  /** Today in the company's time zone: the default (and latest) date received. */
  today: z.string(),
  currency: z.string(),
  family: z.object({ id: z.number(), name: z.string(), email: z.string() }).nullable(),
  credit_balance: z.number(),
  /** Open invoices, oldest due first. */
  invoices: z.array(openInvoice),
  /** The family's confirmed parties with a balance left. */
  parties: z.array(partyWithBalance),
  /** What the link named (?invoice, ?party_booking), ticked when the page opens. */
  selected: z.object({ invoice_id: z.number().nullable(), party_booking_id: z.number().nullable() }),
});
export type RecordPaymentOptions = z.infer<typeof recordPaymentOptions>;

/**
 * How a payment meets the ticked invoices, oldest first, as the server will do it: the page shows
 * the same split before saving ("$20.00 will be kept as credit").
 */
export function splitPayment(
  amount: number,
  invoices: { id: number; balance: number }[],
): { allocated: { invoice_id: number; amount: number }[]; credit: number } {
  let left = Math.max(0, amount);
  const allocated: { invoice_id: number; amount: number }[] = [];
  for (const invoice of invoices) {
    const share = Math.min(left, invoice.balance);
    if (share <= 0) continue;
    allocated.push({ invoice_id: invoice.id, amount: share });
    left -= share;
  }
  return { allocated, credit: left };
}

// —— A parent pays an invoice online (SPEC student/payment) ——

/** Instalments a payment plan may have. */
export const PLAN_COUNTS = [2, 3, 4] as const;
/** A plan is offered from this balance (cents) … */
export const PLAN_MIN_BALANCE = 10_000;
/** … and when the invoice is due at least this many days away; instalments fall this far apart. */
export const PLAN_INTERVAL_DAYS = 14;

/**
 * A plan's instalments: equal amounts (the last takes the cents left over), the first due today,
 * then every 14 days. Only plans whose last instalment falls on or before the invoice's due date
 * are offered: a plan never stretches a bill past the date it was due.
 */
export function planInstalments(
  balance: number,
  count: number,
  today: string,
): { position: number; due_on: string; amount: number }[] {
  const each = Math.floor(balance / count);
  return Array.from({ length: count }, (_, i) => ({
    position: i + 1,
    due_on: addDaysIso(today, i * PLAN_INTERVAL_DAYS),
    amount: i === count - 1 ? balance - each * (count - 1) : each,
  }));
}

/** The plan sizes offered for an invoice's balance and due date (empty: pay in full only). */
export function planCountsFor(balance: number, dueOn: string | null, today: string): number[] {
  if (balance < PLAN_MIN_BALANCE || dueOn === null) return [];
  if (addDaysIso(today, PLAN_INTERVAL_DAYS) > dueOn) return [];
  return PLAN_COUNTS.filter((count) => addDaysIso(today, (count - 1) * PLAN_INTERVAL_DAYS) <= dueOn);
}

function addDaysIso(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

const pricingDetail = z.object({
  label: z.string(),
  description: z.string(),
  value: z.number(),
  formatted: z.string(),
});

/** One instalment of a plan; `position` counts from 1 within the plan. */
export const planInstalment = z.object({
  position: z.number(),
  due_on: z.string(),
  amount: z.number(),
  status: z.enum(['due', 'paid', 'failed', 'cancelled']),
});
export type PlanInstalment = z.infer<typeof planInstalment>;

/** One way to pay offered on the page, with its price lines (the card surcharge when the company charges one). */
export const paymentChoice = z.object({
  /** 'full', 'plan_2' … 'plan_4', or 'instalment' (the next one of an existing plan). */
  key: z.string(),
  label: z.string(),
  amount_due: z.number(),
  pricing_details: z.record(z.string(), pricingDetail),
  /** A new plan's instalments (empty for 'full' and 'instalment'). */
  instalments: z.array(planInstalment),
});
export type PaymentChoice = z.infer<typeof paymentChoice>;

/** GET /api/v1/students/invoice-payment?invoice=<id>: the parent's own invoice and how they may pay it. */
export const invoicePaymentResponse = z.object({
  invoice: z.object({
    id: z.number(),
    code: z.string(),
    status: z.string(),
    issued_on: z.string().nullable(),
    due_on: z.string().nullable(),
    total: z.number(),
    paid: z.number(),
    balance: z.number(),
    lines: z.array(z.object({ description: z.string(), detail: z.string().nullable(), amount: z.number() })),
  }),
  currency: z.string(),
  /** The invoice's payment plan (instalment 1 of n first), empty without one. */
  plan: z.array(planInstalment),
  /** A card payment of the parent's is still being confirmed (the page waits for it). */
  pending_payment: z.boolean(),
  choices: z.array(paymentChoice),
});
export type InvoicePaymentResponse = z.infer<typeof invoicePaymentResponse>;

/** POST /api/v1/students/invoice-payment/checkout. */
export const invoiceCheckoutRequest = z.object({
  invoice_id: id,
  choice: z.enum(['full', 'plan_2', 'plan_3', 'plan_4', 'instalment'], {
    message: 'Please choose how to pay.',
  }),
  /** What the parent saw as due now, cents (checked against the server's amount). */
  amount: z.coerce.number().int().min(0).max(100_000_000),
});
export type InvoiceCheckoutRequest = z.infer<typeof invoiceCheckoutRequest>;
