import { z } from 'zod';
import { abnField, invoiceStatuses } from './billing.ts';

/**
 * Staff screens of the ledger (issue 15, SPEC billing-profile and invoices): the company's billing
 * profile, the invoice list and view, one-off invoices, credit notes and voids. The server and the
 * forms validate with these same schemas; a refused request answers 400 `{ message }` with the
 * first field's message and changes nothing.
 */

/** "062-000" or "062000" as typed; kept as six digits. */
export const bsbField = z
  .string()
  .trim()
  .refine((value) => value === '' || /^\d{3}[- ]?\d{3}$/.test(value), 'Please enter a 6-digit BSB.')
  .transform((value) => value.replace(/[- ]/g, ''));

/** 062000 → "062-000", as banks print a BSB. */
export function formatBsb(bsb: string): string {
  return bsb.length === 6 ? `${bsb.slice(0, 3)}-${bsb.slice(3)}` : bsb;
}

export const gstNeedsAbn = 'Please enter the ABN: GST-registered businesses must show it on tax invoices.';
export const nextNumberBackwards = (lowest: number) =>
  `The next invoice number cannot go back: invoice numbers up to ${lowest - 1} are already used or reserved, so it must be ${lowest} or more.`;

/** POST /api/v1/admin/billing-profile (SPEC billing-profile). */
export const billingProfileUpdate = z
  .object({
    legal_name: z.string().trim().min(1, 'Please enter the legal name.').max(200),
    abn: abnField,
    gst_registered: z.boolean('Please say whether the business is registered for GST.'),
    address: z.string().trim().max(300, 'The address is too long.'),
    invoice_prefix: z
      .string()
      .trim()
      .max(12, 'The prefix can be at most 12 characters.')
      .regex(/^[A-Za-z0-9/-]*$/, 'The prefix may only use letters, numbers, - and /.'),
    next_invoice_number: z
      .number('Please enter the next invoice number.')
      .int('Please enter a whole number.')
      .min(1, 'The next invoice number must be at least 1.')
      .max(99_999_999, 'The next invoice number is too large.'),
    days_until_due: z
      .number('Please enter the days until due.')
      .int('Please enter a whole number of days.')
      .min(0, 'Days until due must be between 0 and 120.')
      .max(120, 'Days until due must be between 0 and 120.'),
    bank_account_name: z.string().trim().max(120, 'The account name is too long.'),
    bsb: bsbField,
    bank_account_number: z
      .string()
      .trim()
      .refine(
        (value) => value === '' || /^\d{4,10}$/.test(value),
        'Please enter an account number of 4 to 10 digits.',
      ),
    late_fee_policy: z.string().trim().max(500, 'The late-fee policy can be at most 500 characters.'),
  })
  .superRefine((value, context) => {
    if (value.gst_registered && value.abn === '')
      context.addIssue({ code: 'custom', path: ['abn'], message: gstNeedsAbn });
  });
export type BillingProfileUpdate = z.infer<typeof billingProfileUpdate>;
export type BillingProfileInput = z.input<typeof billingProfileUpdate>;

/** GET /api/v1/admin/billing-profile */
export const billingProfileView = z.object({
  legal_name: z.string(),
  abn: z.string(),
  gst_registered: z.boolean(),
  address: z.string(),
  invoice_prefix: z.string(),
  next_invoice_number: z.number(),
  days_until_due: z.number(),
  bank_account_name: z.string(),
  bsb: z.string(),
  bank_account_number: z.string(),
  late_fee_policy: z.string(),
  /** The logo printed on invoices (a data URL of the stored image), or null. */
  logo: z.string().nullable(),
  /** The lowest next number allowed: one past the highest number issued. */
  lowest_next_number: z.number(),
});
export type BillingProfileView = z.infer<typeof billingProfileView>;

export const invoiceKinds = ['term', 'one_off', 'party'] as const;
export const invoiceKindLabels: Record<(typeof invoiceKinds)[number], string> = {
  term: 'Term billing',
  one_off: 'One-off',
  party: 'Party',
};

/** GET /api/v1/admin/invoices: newest first by default. */
export const invoiceListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
  status: z.enum(invoiceStatuses).optional(),
  kind: z.enum(invoiceKinds).optional(),
  term: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  /** An invoice number (or part of it) or a family's name or email. */
  q: z.string().trim().max(100).optional(),
  order: z.enum(['newest', 'oldest', 'due']).default('newest'),
});
/** What the list page asks for (the query string the server parses with invoiceListQuery). */
export type InvoiceListQuery = {
  page: number;
  per_page: number;
  status?: (typeof invoiceStatuses)[number];
  kind?: (typeof invoiceKinds)[number];
  term?: number;
  q?: string;
};

const invoiceRow = z.object({
  id: z.number(),
  code: z.string().nullable(),
  kind: z.enum(invoiceKinds),
  status: z.enum(invoiceStatuses),
  parent_id: z.number(),
  family: z.string(),
  email: z.string(),
  issued_on: z.string().nullable(),
  due_on: z.string().nullable(),
  total: z.number(),
  gst: z.number(),
  paid: z.number(),
  credited: z.number(),
  balance: z.number(),
  term_id: z.number().nullable(),
});
export type InvoiceRow = z.infer<typeof invoiceRow>;

export const invoiceList = z.object({ data: z.array(invoiceRow), total: z.number() });
export type InvoiceList = z.infer<typeof invoiceList>;

/** GET /api/v1/admin/invoices/:id: the invoice as the parent sees it, with what reduced it. */
export const invoiceDetail = invoiceRow.extend({
  gst_registered: z.boolean(),
  notes: z.string(),
  void_reason: z.string(),
  created_at: z.string(),
  lines: z.array(
    z.object({
      description: z.string(),
      detail: z.string(),
      quantity: z.number(),
      unit_amount: z.number(),
      amount: z.number(),
      gst: z.number(),
      gst_free: z.boolean(),
    }),
  ),
  /** Payments, credit used and refunds against it (refunds negative), oldest first. */
  allocations: z.array(z.object({ date: z.string(), description: z.string(), amount: z.number() })),
  credit_notes: z.array(
    z.object({
      id: z.number(),
      code: z.string(),
      issued_on: z.string(),
      amount: z.number(),
      gst: z.number(),
      reason: z.string(),
    }),
  ),
  currency: z.string(),
});
export type InvoiceDetail = z.infer<typeof invoiceDetail>;

const cents = (label: string) =>
  z
    .number(`Please enter the ${label}.`)
    .int(`The ${label} must be in whole cents.`)
    .min(-10_000_000, `The ${label} is too large.`)
    .max(10_000_000, `The ${label} is too large.`);

const isoDate = z
  .string('Please choose the due date.')
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please choose the due date.')
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'Please choose the due date.',
  );

/** One line of a one-off invoice: quantity × unit price (GST included), maybe GST-free. */
export const invoiceLineInput = z.object({
  description: z
    .string()
    .trim()
    .min(1, 'Please describe each line.')
    .max(200, 'A line’s description can be at most 200 characters.'),
  detail: z.string().trim().max(500, 'A line’s detail can be at most 500 characters.').default(''),
  quantity: z
    .number('Please enter the quantity.')
    .int('The quantity must be a whole number.')
    .min(1, 'The quantity must be between 1 and 1000.')
    .max(1000, 'The quantity must be between 1 and 1000.'),
  unit_amount: cents('unit price').refine((value) => value !== 0, 'Please enter the unit price.'),
  gst_free: z.boolean().default(false),
});
export type InvoiceLineInput = z.input<typeof invoiceLineInput>;

/** POST /api/v1/admin/invoices: a one-off invoice, saved as a draft or issued and emailed. */
export const newInvoice = z
  .object({
    parent_id: z
      .number('Please choose a family.')
      .int()
      .positive('Please choose a family.')
      .max(2_147_483_647),
    lines: z
      .array(invoiceLineInput, 'Please add a line.')
      .min(1, 'Please add a line.')
      .max(50, 'An invoice can have at most 50 lines.'),
    due_on: isoDate,
    notes: z.string().trim().max(1000, 'The notes can be at most 1000 characters.').default(''),
    issue: z.boolean().default(false),
  })
  .refine((value) => value.lines.reduce((sum, line) => sum + line.quantity * line.unit_amount, 0) >= 0, {
    path: ['lines'],
    message: 'An invoice cannot come to less than nothing.',
  });
export type NewInvoice = z.infer<typeof newInvoice>;
export type NewInvoiceInput = z.input<typeof newInvoice>;

/** POST /api/v1/admin/invoices/:id/credit-notes: an ATO adjustment note. */
export const creditNoteRequest = z.object({
  amount: z
    .number('Please enter the amount.')
    .int('The amount must be in whole cents.')
    .min(1, 'Please enter an amount above zero.')
    .max(100_000_000, 'A credit note cannot be more than what is left on the invoice.'),
  reason: z
    .string('Please give the reason.')
    .trim()
    .min(1, 'Please give the reason.')
    .max(500, 'The reason can be at most 500 characters.'),
});
export type CreditNoteRequest = z.infer<typeof creditNoteRequest>;

/** POST /api/v1/admin/invoices/:id/void */
export const voidRequest = z.object({
  reason: z
    .string('Please give the reason.')
    .trim()
    .min(1, 'Please give the reason.')
    .max(500, 'The reason can be at most 500 characters.'),
});
export type VoidRequest = z.infer<typeof voidRequest>;

/** What each write answers: the invoice's new state and a sentence for staff. */
export const invoiceActionResponse = z.object({
  id: z.number(),
  message: z.string(),
  credit_note_id: z.number().optional(),
});
export type InvoiceActionResponse = z.infer<typeof invoiceActionResponse>;

/** GET /api/v1/admin/invoices/families?q=: parents to bill, by name or email. */
export const familyOptions = z.array(z.object({ id: z.number(), name: z.string(), email: z.string() }));
export type FamilyOptions = z.infer<typeof familyOptions>;

/** GET /api/v1/admin/invoices/new-defaults: the due date the profile gives today. */
export const newInvoiceDefaults = z.object({ due_on: z.string(), today: z.string(), currency: z.string() });
