import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { invoiceInstalments, invoices } from './ledger.tables.ts';

/**
 * A parent paying an invoice (or one instalment of its plan) by card: the purchase row of the
 * pipeline's `invoice` kind (invoice-sale.ts). `amount` is what goes on the invoice; the card is
 * charged `amountDue` (amount + the company's card surcharge, which is not the invoice's).
 */
export const invoiceCheckouts = pgTable(
  'invoice_checkouts',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id),
    /** The instalment this pays (a plan's first when the checkout made the plan). */
    instalmentId: integer().references(() => invoiceInstalments.id),
    /** The checkout made the invoice's payment plan: an unpaid end cancels that plan again. */
    madePlan: boolean().notNull().default(false),
    amount: integer().notNull(),
    surcharge: integer().notNull().default(0),
    amountDue: integer().notNull(),
    status: text({ enum: ['pending', 'confirmed', 'expired', 'cancelled', 'refund_due'] })
      .notNull()
      .default('pending'),
    /** The link secret of the pipeline (`booking_hash`). */
    reference: text().notNull(),
    /** Short reference `IP-7F3K2`. */
    code: text().notNull(),
    holdExpiresAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('invoice_checkouts_reference').on(t.reference),
    uniqueIndex('invoice_checkouts_company_code').on(t.companyId, t.code),
    index('invoice_checkouts_invoice').on(t.companyId, t.invoiceId),
    index('invoice_checkouts_pending').on(t.status, t.holdExpiresAt),
  ],
);
