import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { children } from '../students/students.tables.ts';
import { uniformSizes } from './uniforms.tables.ts';

/**
 * A uniform order for one child (the pipeline's kind `uniform`, code `UO-…`). Its stock is taken
 * when it is written (also while `pending` for a card payment, until `holdExpiresAt`) and given
 * back when it is released, expired or cancelled.
 */
export const uniformOrders = pgTable(
  'uniform_orders',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    childId: integer()
      .notNull()
      .references(() => children.id),
    reference: text().notNull().unique(),
    code: text().notNull(),
    status: text({ enum: ['pending', 'confirmed', 'cancelled', 'expired', 'refund_due'] })
      .notNull()
      .default('pending'),
    /** How it is paid: by card online, at the desk (cash, EFTPOS) or on an invoice. */
    paidHow: text({ enum: ['card', 'cash', 'eftpos', 'invoice'] }).notNull(),
    /** Cents: the items' total, the coupon's discount, the card surcharge, what is charged. */
    subtotal: integer().notNull(),
    discount: integer().notNull().default(0),
    surcharge: integer().notNull().default(0),
    amountDue: integer().notNull(),
    couponCode: text(),
    /** The invoice it was added to (`paidHow` invoice, or the desk's receipt invoice). */
    invoiceId: integer(),
    /** The desk payment (cash, EFTPOS) recorded for it. */
    paymentId: integer(),
    holdExpiresAt: timestamp({ withTimezone: true }),
    createdBy: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp({ withTimezone: true }),
    collectedAt: timestamp({ withTimezone: true }),
    cancelledAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('uniform_orders_company_code').on(t.companyId, t.code),
    index('uniform_orders_parent').on(t.companyId, t.parentId),
    index('uniform_orders_child').on(t.companyId, t.childId),
  ],
);

/** What an order takes off the shelf: a size and how many, at the type's price when ordered. */
export const uniformOrderLines = pgTable(
  'uniform_order_lines',
  {
    ...tenantKey(),
    orderId: integer()
      .notNull()
      .references(() => uniformOrders.id),
    sizeId: integer()
      .notNull()
      .references(() => uniformSizes.id),
    quantity: integer().notNull(),
    /** Cents each, GST included. */
    unitPrice: integer().notNull(),
  },
  (t) => [
    index('uniform_order_lines_order').on(t.companyId, t.orderId),
    index('uniform_order_lines_size').on(t.companyId, t.sizeId),
  ],
);
