import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies, tenantKey } from '../../features/accounts/accounts.tables.ts';

/**
 * Checkouts of the `test` provider: the local card page of the demo and the tests. `mode: 'setup'`
 * is a "save a card" page (no amount; `saved` once a card was saved, `failed` when refused).
 */
export const testCheckouts = pgTable('test_checkouts', {
  id: text().primaryKey(),
  companyId: integer()
    .notNull()
    .references(() => companies.id),
  mode: text({ enum: ['payment', 'setup'] })
    .notNull()
    .default('payment'),
  reference: text().notNull(),
  amount: integer().notNull(),
  currency: text().notNull(),
  description: text().notNull(),
  returnUrl: text().notNull(),
  /** `failed`: the last card typed was declined; the page still takes another until it expires. */
  status: text({ enum: ['open', 'paid', 'expired', 'failed', 'saved'] })
    .notNull()
    .default('open'),
  /** Setup mode: the family's test customer, and the card saved on it once `saved`. */
  customerRef: text(),
  cardRef: text(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Cards saved on the test card page (setup mode), charged later off-session. */
export const testCards = pgTable('test_cards', {
  id: text().primaryKey(),
  companyId: integer()
    .notNull()
    .references(() => companies.id),
  customerRef: text().notNull(),
  last4: text().notNull(),
  /** 4000 0000 0000 0341: saves fine, but every later charge is declined. */
  declinesCharges: boolean().notNull(),
  expMonth: integer().notNull(),
  expYear: integer().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Off-session charges of a saved test card; one per idempotency key, as at a real provider. */
export const testCharges = pgTable(
  'test_charges',
  {
    id: text().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id),
    cardRef: text().notNull(),
    customerRef: text().notNull(),
    amount: integer().notNull(),
    currency: text().notNull(),
    description: text().notNull(),
    reference: text().notNull(),
    idempotencyKey: text().notNull(),
    status: text({ enum: ['paid', 'failed'] }).notNull(),
    failureReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('test_charges_idempotency_key').on(t.companyId, t.idempotencyKey)],
);

/**
 * Refunds of the test provider: `pending` when asked for, then `succeeded` (or `failed` for an
 * amount ending in 13 cents) when the provider "delivers its webhook". One per idempotency key.
 */
export const testRefunds = pgTable(
  'test_refunds',
  {
    id: text().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id),
    /** A test checkout's session id or a test charge's id. */
    paymentRef: text().notNull(),
    amount: integer().notNull(),
    currency: text().notNull(),
    reason: text().notNull(),
    idempotencyKey: text().notNull(),
    status: text({ enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    failureReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('test_refunds_idempotency_key').on(t.companyId, t.idempotencyKey)],
);

/**
 * Square card setups (autopay): Square has no hosted "save a card" page, so the parent types the
 * card on ours (/payments/square-card), Square's Web Payments SDK turns it into a token, and the
 * server saves it on the family's Square customer (`cards.create`). The row is the session.
 */
export const squareCardSetups = pgTable('square_card_setups', {
  id: text().primaryKey(),
  companyId: integer()
    .notNull()
    .references(() => companies.id),
  reference: text().notNull(),
  customerEmail: text().notNull(),
  customerName: text().notNull(),
  /** The family's Square customer: given, or created when the card is saved. */
  customerRef: text(),
  returnUrl: text().notNull(),
  status: text({ enum: ['open', 'saved'] })
    .notNull()
    .default('open'),
  /** Square's card on file once saved. */
  cardRef: text(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Money received or expected. A card payment is one row per provider checkout; (provider,
 * providerRef) is unique, so a webhook delivered twice records the payment once. Staff record
 * cash, bank transfer, EFTPOS and voucher payments here too (`method`, no provider), paid at once.
 * A payment pays for a purchase (`purchaseKind` + `purchaseId`: a kind of sale, or an invoice's
 * checkout) and/or is allocated to invoices (billing's payment_allocations).
 */
export const payments = pgTable(
  'payments',
  {
    ...tenantKey(),
    /** What the payment pays for: the kind of sale (features/checkout) and that purchase's id. */
    purchaseKind: text({ enum: ['event', 'party', 'enrolment', 'private_lesson', 'invoice', 'uniform'] }),
    purchaseId: integer(),
    /** `card`: through `provider`; the others are recorded by staff with their `reference`. */
    method: text({ enum: ['card', 'cash', 'bank_transfer', 'eftpos', 'voucher'] })
      .notNull()
      .default('card'),
    provider: text({ enum: ['stripe', 'square', 'test'] }),
    providerRef: text(),
    /** The family the money came from (set for every new payment). */
    parentId: integer(),
    /** What staff typed: a receipt number, the bank transfer's description, the voucher code. */
    reference: text(),
    recordedBy: integer(),
    amount: integer().notNull(),
    /**
     * Cents refunded or being refunded (its refunds not failed), kept by billing's refunds.service
     * under this row's lock so the payments list can show it; the refunds rows are the record.
     */
    refunded: integer().notNull().default(0),
    /** `failed`: an attempt was declined; still payable (another card) until the purchase's hold ends. */
    status: text({ enum: ['open', 'paid', 'expired', 'refund_due', 'refunded', 'failed'] })
      .notNull()
      .default('open'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payments_provider_ref').on(t.provider, t.providerRef),
    // The admin payments list of a company, newest first (its default order), paged.
    index('payments_company_created').on(t.companyId, t.createdAt, t.id),
    // The same list sorted by each of its sortable columns (`ORDER BY column, id`, paged; issue 19).
    index('payments_company_paid').on(t.companyId, t.paidAt, t.id),
    index('payments_company_parent').on(t.companyId, t.parentId, t.id),
    index('payments_company_method').on(t.companyId, t.method, t.id),
    index('payments_company_reference').on(t.companyId, t.reference, t.id),
    index('payments_company_kind').on(t.companyId, t.purchaseKind, t.id),
    index('payments_company_amount').on(t.companyId, t.amount, t.id),
    index('payments_company_refunded').on(t.companyId, t.refunded, t.id),
    index('payments_company_status').on(t.companyId, t.status, t.id),
    // The list's search (ILIKE '%…%' on reference and provider reference); pg_trgm, as bookings.
    index('payments_reference_trgm').using('gin', t.reference.op('gin_trgm_ops')),
    index('payments_provider_ref_trgm').using('gin', t.providerRef.op('gin_trgm_ops')),
    index('payments_purchase').on(t.companyId, t.purchaseKind, t.purchaseId),
  ],
);
