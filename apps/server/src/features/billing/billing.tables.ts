import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';

/**
 * Insurance products. `daily`: priced per booked session-day per child. `full`: a product bought
 * once per child (e.g. term cover), chosen by id at checkout.
 */
export const insurances = pgTable(
  'insurances',
  {
    ...tenantKey(),
    name: text().notNull(),
    kind: text({ enum: ['daily', 'full'] }).notNull(),
    price: integer().notNull(),
    description: text(),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('insurances_company').on(t.companyId)],
);

/** Coupon codes: a whole percent or a fixed amount (cents) off, with validity and usage limits. */
export const coupons = pgTable(
  'coupons',
  {
    ...tenantKey(),
    code: text().notNull(),
    discountType: text({ enum: ['percent', 'fixed'] }).notNull(),
    /** Whole percent off, for discountType percent. */
    percentOff: integer(),
    /** Cents off, for discountType fixed. */
    amountOff: integer(),
    validFrom: date(),
    validTo: date(),
    usageLimit: integer(),
    perParentLimit: integer(),
    /** Empty: every event. */
    eventIds: integer().array().notNull().default([]),
    usedCount: integer().notNull().default(0),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('coupons_company_code').on(t.companyId, t.code)],
);

/** Marketing codes for parties or events (no per-event restriction or usage counting). */
export const promotionalCodes = pgTable(
  'promotional_codes',
  {
    ...tenantKey(),
    code: text().notNull(),
    description: text(),
    discountType: text({ enum: ['percent', 'fixed'] }).notNull(),
    percentOff: integer(),
    amountOff: integer(),
    appliesTo: text({ enum: ['all', 'events', 'parties', 'classes'] })
      .notNull()
      .default('all'),
    validFrom: date(),
    validTo: date(),
    active: boolean().notNull().default(true),
  },
  (t) => [uniqueIndex('promotional_codes_company_code').on(t.companyId, t.code)],
);

/** NSW Active Kids / Creative Kids style vouchers: one settings row per company. */
export const nswSettings = pgTable(
  'nsw_settings',
  {
    ...tenantKey(),
    name: text().notNull().default('NSW voucher'),
    enabled: boolean().notNull().default(false),
    /** Cents per child. */
    voucherValue: integer().notNull().default(5000),
    /** A regular expression the code must match, e.g. ^[0-9]{8}$ */
    codeFormat: text().notNull().default('^[A-Za-z0-9]{6,20}$'),
  },
  (t) => [uniqueIndex('nsw_settings_company').on(t.companyId)],
);

/** Card surcharge per payment method: percent in basis points (150 = 1.5%) or fixed cents. */
export const surcharges = pgTable(
  'surcharges',
  {
    ...tenantKey(),
    name: text().notNull(),
    paymentMethod: text({ enum: ['stripe', 'square', 'test'] }).notNull(),
    kind: text({ enum: ['percent', 'fixed'] }).notNull(),
    amount: integer().notNull(),
  },
  (t) => [uniqueIndex('surcharges_company_method').on(t.companyId, t.paymentMethod)],
);

/**
 * Payment terms shown at checkout. One default per kind of sale (`isDefault`); an event may pick
 * other terms of its kind (`events.paymentTermsId`).
 */
export const paymentTerms = pgTable(
  'payment_terms',
  {
    ...tenantKey(),
    name: text().notNull(),
    appliesTo: text({ enum: ['events', 'parties', 'classes'] }).notNull(),
    content: text().notNull(),
    isDefault: boolean().notNull().default(false),
  },
  (t) => [
    uniqueIndex('payment_terms_company_kind_default').on(t.companyId, t.appliesTo).where(sql`${t.isDefault}`),
  ],
);

/** The card payment providers a company takes; checkout uses the enabled default one. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    ...tenantKey(),
    provider: text({ enum: ['stripe', 'square', 'test'] }).notNull(),
    label: text().notNull(),
    enabled: boolean().notNull().default(true),
    isDefault: boolean().notNull().default(false),
  },
  (t) => [uniqueIndex('payment_methods_company_provider').on(t.companyId, t.provider)],
);

/**
 * The discounts one purchase used (features/billing/discounts.service.ts): a coupon or a
 * promotional code, and/or an NSW voucher, for every kind of sale; at most one row per purchase. Counted per parent for a coupon's per-parent limit
 * and per code for the usage report; deleted when the purchase is released unpaid.
 */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    ...tenantKey(),
    couponId: integer(),
    promotionalCodeId: integer(),
    /** An NSW voucher used by the purchase: unique while its purchase lives, so it is used once. */
    voucherCode: text(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    purchaseKind: text({
      enum: ['event', 'party', 'enrolment', 'private_lesson', 'invoice', 'uniform'],
    }).notNull(),
    purchaseId: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('coupon_redemptions_purchase').on(t.companyId, t.purchaseKind, t.purchaseId),
    index('coupon_redemptions_parent').on(t.couponId, t.parentId),
    index('coupon_redemptions_promotional_code').on(t.promotionalCodeId),
    uniqueIndex('coupon_redemptions_voucher').on(t.companyId, t.voucherCode),
  ],
);
