import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies, tenantKey, users } from '../accounts/accounts.tables.ts';
import { classEnrolments } from './classes.tables.ts';

/**
 * A class enrolment purchase (decision 013): the kind `enrolment` of the purchase pipeline. Its
 * places are `class_enrolments` rows (through `enrolment_purchase_items`), `pending` until paid.
 * `refund_due`: paid after its hold lapsed and the places were gone (never oversold).
 */
export const enrolmentPurchases = pgTable(
  'enrolment_purchases',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    /** The link secret (`booking_hash`). */
    reference: text().notNull().unique(),
    /** Short human reference (`EN-7F3K2`). */
    code: text().notNull(),
    status: text({ enum: ['pending', 'confirmed', 'cancelled', 'expired', 'refund_due'] })
      .notNull()
      .default('pending'),
    /** The priced lines as computed on the server at checkout (cents). */
    pricing: jsonb().$type<Record<string, number>>().notNull(),
    total: integer().notNull(),
    couponCode: text(),
    nswCode: text(),
    /** The registration form it came through (features/registration), and the answers given there. */
    registrationFormId: integer(),
    answers: jsonb().$type<Record<string, unknown>>(),
    holdExpiresAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('enrolment_purchases_company_code').on(t.companyId, t.code),
    index('enrolment_purchases_parent').on(t.companyId, t.parentId),
    index('enrolment_purchases_hold').on(t.status, t.holdExpiresAt),
  ],
);

/** One place a purchase bought, with what it cost. */
export const enrolmentPurchaseItems = pgTable(
  'enrolment_purchase_items',
  {
    ...tenantKey(),
    purchaseId: integer()
      .notNull()
      .references(() => enrolmentPurchases.id),
    enrolmentId: integer()
      .notNull()
      .references(() => classEnrolments.id),
    /** Cents, after this place's discounts. */
    amount: integer().notNull(),
    /**
     * A held place taken up (an offer, a trial's link, a rollover place): the hold it had before the
     * checkout took it over, given back when the checkout ends unpaid (enrolment-sale.ts). Null for
     * a place the checkout created.
     */
    priorHeldFor: text({ enum: ['offer', 'trial_conversion', 'rollover'] }),
    priorHoldExpiresAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('enrolment_purchase_items_purchase').on(t.companyId, t.purchaseId),
    // Not unique: a held place released by an unpaid checkout goes back on its hold and may be
    // taken up again by a second purchase. "One live purchase per place" is enforced under the
    // class lock instead (enrolment-sale.ts lock(): the held rows must still be on their own hold,
    // and a checkout moves them to `checkout` in the same locked transaction). A partial unique
    // index cannot see the purchase's status, which lives on another table.
    index('enrolment_purchase_items_enrolment').on(t.companyId, t.enrolmentId),
  ],
);

/** A company's enrolment rules; a company without a row uses the defaults. */
export const enrolmentSettings = pgTable('enrolment_settings', {
  companyId: integer()
    .primaryKey()
    .references(() => companies.id),
  /** Off the second and later child's class fees in one family, in one term. */
  siblingDiscountPercent: integer().notNull().default(0),
  /** Off the second and later class of one child, in one term. */
  multiClassDiscountPercent: integer().notNull().default(0),
  /** What a withdrawal does with the sessions already paid for and not yet run. */
  withdrawalPolicy: text({ enum: ['credit', 'refund', 'none'] })
    .notNull()
    .default('credit'),
  /** How long a waitlist offer holds its place. */
  offerHoldHours: integer().notNull().default(24),
  /** How long a trial's "enrol" link holds the place after the trial. */
  trialConversionHoldHours: integer().notNull().default(48),
  /** Parents can mark an absence until this many hours before the session starts. */
  absenceCutoffHours: integer().notNull().default(2),
  /** Whether parents may join a waitlist from the public form when a class is full. */
  publicWaitlist: boolean().notNull().default(true),
});
