import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { payments } from '../../platform/payments/payments.tables.ts';
import { tenantKey, users } from '../accounts/accounts.tables.ts';

/**
 * The money ledger after checkout (decision 017): what a family is billed (invoices and their
 * lines), what reduces it (payments allocated, credit notes, family credit used), and money going
 * back (refunds). Every amount is integer cents, GST-inclusive as Australian prices are.
 */

/** The company as a supplier on its tax invoices: one row per company (SPEC billing-profile). */
export const billingProfiles = pgTable(
  'billing_profiles',
  {
    ...tenantKey(),
    legalName: text().notNull(),
    /** 11 digits, no spaces; checked with the ATO's checksum (contracts/billing.ts validAbn). */
    abn: text(),
    gstRegistered: boolean().notNull().default(true),
    address: text(),
    invoicePrefix: text().notNull().default('INV-'),
    /** The number the next issued invoice takes; moved on inside the issuing transaction (no gaps). */
    nextInvoiceNumber: integer().notNull().default(1),
    /** Credit notes (ATO adjustment notes) have their own sequence with the prefix `CN-`. */
    nextCreditNoteNumber: integer().notNull().default(1),
    daysUntilDue: integer().notNull().default(14),
    bankAccountName: text(),
    bsb: text(),
    bankAccountNumber: text(),
    /** Plain words printed on invoices, e.g. "A $10 late fee applies 7 days after the due date." */
    lateFeePolicy: text(),
    /** A stored file path (platform/files.ts), printed at the top of invoices. */
    logoPath: text(),
  },
  (t) => [uniqueIndex('billing_profiles_company').on(t.companyId)],
);

/**
 * One bill to one family (the parent user). `number`/`code` are given when issued and never change;
 * an issued invoice's lines never change either (corrections are credit notes). `amountPaid` and
 * `amountCredited` are kept by ledger.service's refreshInvoice from allocations and credit notes.
 */
export const invoices = pgTable(
  'invoices',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    /** `term`: a term billing run; `one_off`: staff wrote it; `party`: a party's balance. */
    kind: text({ enum: ['term', 'one_off', 'party'] }).notNull(),
    status: text({ enum: ['draft', 'issued', 'part_paid', 'paid', 'overdue', 'void'] })
      .notNull()
      .default('draft'),
    number: integer(),
    /** invoicePrefix + number, e.g. INV-000123 (null while draft). */
    code: text(),
    /** What the invoice was made for, so making it again finds it (e.g. `term:12:parent:40:1`). */
    sourceKey: text(),
    termId: integer(),
    billingRunId: integer(),
    /** The buyer and supplier as they were when issued (an issued tax invoice never changes). */
    buyerName: text().notNull(),
    buyerEmail: text().notNull(),
    gstRegistered: boolean().notNull(),
    issuedOn: date(),
    dueOn: date(),
    /** Cents, GST included; `gst` is the GST inside `total`. */
    total: integer().notNull().default(0),
    gst: integer().notNull().default(0),
    amountPaid: integer().notNull().default(0),
    amountCredited: integer().notNull().default(0),
    notes: text(),
    createdBy: integer().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    issuedAt: timestamp({ withTimezone: true }),
    voidedAt: timestamp({ withTimezone: true }),
    voidReason: text(),
  },
  (t) => [
    uniqueIndex('invoices_company_number').on(t.companyId, t.number),
    uniqueIndex('invoices_company_source').on(t.companyId, t.sourceKey),
    index('invoices_parent').on(t.companyId, t.parentId, t.createdAt),
    index('invoices_company_status').on(t.companyId, t.status, t.dueOn),
  ],
);

/** A line that explains itself: `description` names it, `detail` says how it was worked out. */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    ...tenantKey(),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id),
    position: integer().notNull(),
    description: text().notNull(),
    /** e.g. "10 sessions × $22.00 · not charged: 26 Jan (Australia Day) · from 3 Feb (pro rata)". */
    detail: text(),
    quantity: integer().notNull().default(1),
    /** Cents per unit; `amount` = quantity × unitAmount, negative for a discount or credit used. */
    unitAmount: integer().notNull(),
    amount: integer().notNull(),
    gstFree: boolean().notNull().default(false),
    gst: integer().notNull().default(0),
    /** What the line bills, so it is billed once (a class place, a staff adjustment, a purchase). */
    enrolmentId: integer(),
    adjustmentId: integer(),
    purchaseKind: text({ enum: ['event', 'party', 'enrolment', 'private_lesson', 'uniform'] }),
    purchaseId: integer(),
    /** Set when its invoice is voided, so what it billed can be billed again. */
    voided: boolean().notNull().default(false),
  },
  (t) => [
    index('invoice_lines_invoice').on(t.invoiceId, t.position),
    uniqueIndex('invoice_lines_enrolment_once')
      .on(t.companyId, t.enrolmentId)
      .where(sql`${t.enrolmentId} is not null and not ${t.voided}`),
    uniqueIndex('invoice_lines_adjustment_once')
      .on(t.companyId, t.adjustmentId)
      .where(sql`${t.adjustmentId} is not null and not ${t.voided}`),
  ],
);

/** An ATO adjustment note against an issued invoice: it lowers what the invoice asks for. */
export const creditNotes = pgTable(
  'credit_notes',
  {
    ...tenantKey(),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    number: integer().notNull(),
    /** CN-000007 */
    code: text().notNull(),
    /** Cents, GST included, positive; `gst` is the GST inside it. */
    amount: integer().notNull(),
    gst: integer().notNull(),
    reason: text().notNull(),
    issuedOn: date().notNull(),
    createdBy: integer().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('credit_notes_company_number').on(t.companyId, t.number),
    index('credit_notes_invoice').on(t.invoiceId),
  ],
);

/**
 * How money meets invoices: a payment's share (`payment`), family credit used (`credit`), or a
 * refund taking a payment's share back (`refund`, negative). An invoice's amountPaid is their sum.
 */
export const paymentAllocations = pgTable(
  'payment_allocations',
  {
    ...tenantKey(),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id),
    kind: text({ enum: ['payment', 'credit', 'refund'] }).notNull(),
    paymentId: integer().references(() => payments.id),
    refundId: integer(),
    amount: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_allocations_invoice').on(t.invoiceId),
    index('payment_allocations_payment').on(t.paymentId),
  ],
);

/**
 * A family's account: its credit balance (the sum of its credit entries, kept here so one row lock
 * serialises every use of it) and its saved card for autopay.
 */
export const familyAccounts = pgTable(
  'family_accounts',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    creditBalance: integer().notNull().default(0),
    autopay: boolean().notNull().default(false),
    /** The saved card: the provider, its customer and payment-method ids, what the parent sees. */
    cardProvider: text({ enum: ['stripe', 'square', 'test'] }),
    cardCustomerRef: text(),
    cardRef: text(),
    cardBrand: text(),
    cardLast4: text(),
    cardExpMonth: integer(),
    cardExpYear: integer(),
    cardSavedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('family_accounts_parent').on(t.companyId, t.parentId)],
);

/** Every change to a family's credit: + an overpayment, a credit note's excess, a refund to credit; − used on an invoice. */
export const familyCreditEntries = pgTable(
  'family_credit_entries',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    amount: integer().notNull(),
    reason: text().notNull(),
    paymentId: integer(),
    refundId: integer(),
    creditNoteId: integer(),
    invoiceId: integer(),
    /** An enrolment adjustment or cancelled booking whose credit this is (billed once). */
    sourceKey: text(),
    createdBy: integer().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('family_credit_entries_parent').on(t.companyId, t.parentId, t.createdAt),
    uniqueIndex('family_credit_entries_source').on(t.companyId, t.sourceKey),
  ],
);

/**
 * Money going back: to the card through the provider (its state follows the provider's webhooks)
 * or to family credit (succeeded at once). Never more than the payment minus its other refunds
 * (checked under the payment's row lock).
 */
export const refunds = pgTable(
  'refunds',
  {
    ...tenantKey(),
    paymentId: integer()
      .notNull()
      .references(() => payments.id),
    parentId: integer().references(() => users.id),
    /** The invoice whose payment this takes back (its allocation is reversed), if any. */
    invoiceId: integer(),
    amount: integer().notNull(),
    reason: text().notNull(),
    destination: text({ enum: ['card', 'credit'] }).notNull(),
    status: text({ enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    provider: text({ enum: ['stripe', 'square', 'test'] }),
    providerRefundRef: text(),
    failureReason: text(),
    createdBy: integer().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('refunds_payment').on(t.paymentId),
    index('refunds_company_created').on(t.companyId, t.createdAt),
    uniqueIndex('refunds_provider_ref').on(t.provider, t.providerRefundRef),
  ],
);

/** A payment plan: an invoice paid in instalments with due dates (autopay charges them). */
export const invoiceInstalments = pgTable(
  'invoice_instalments',
  {
    ...tenantKey(),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id),
    position: integer().notNull(),
    dueOn: date().notNull(),
    amount: integer().notNull(),
    status: text({ enum: ['due', 'paid', 'failed', 'cancelled'] })
      .notNull()
      .default('due'),
    /** Failed automatic charges so far; retried on days 3, 5 and 8 after the due date. */
    attempts: integer().notNull().default(0),
    nextAttemptOn: date(),
    lastError: text(),
    paymentId: integer(),
    paidAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('invoice_instalments_position').on(t.invoiceId, t.position),
    index('invoice_instalments_due').on(t.companyId, t.status, t.nextAttemptOn),
  ],
);

/** A term billing run: the preview staff saw and the progress of issuing it. */
export const billingRuns = pgTable(
  'billing_runs',
  {
    ...tenantKey(),
    termId: integer().notNull(),
    status: text({ enum: ['running', 'done', 'failed'] })
      .notNull()
      .default('running'),
    families: integer().notNull().default(0),
    processed: integer().notNull().default(0),
    issued: integer().notNull().default(0),
    total: integer().notNull().default(0),
    error: text(),
    startedBy: integer().references(() => users.id),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('billing_runs_term').on(t.companyId, t.termId, t.startedAt)],
);
