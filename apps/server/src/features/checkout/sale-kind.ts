import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import type { Company } from '../accounts/accounts.service.ts';
import type { DiscountScope, FoundDiscounts, PurchaseKind } from '../billing/discounts.service.ts';
import type { NewChild } from '../students/children.service.ts';

export type { PurchaseKind };

/**
 * What every checkout's plan carries for the pipeline (features/checkout/checkout.ts). A kind's
 * own plan adds what it locks and inserts.
 */
export interface PlanBase {
  company: Company;
  parentId: number;
  couponCode: string;
  nswCode: string;
  /** Where the coupon field's code must be valid. */
  scope: DiscountScope;
  /** The amount the client showed the parent (checked against the server's, never trusted). */
  clientAmount: number;
  /** The children of the purchase: an existing child of the parent (checked) or one to create. */
  children: ({ id: number } | NewChild)[];
}

/** The server's price of a plan (the pure pricing module's result). */
export interface Priced {
  lines: { key: string; value: number }[];
  /** What the card payment takes now. */
  amountDue: number;
}

/** What the pipeline decided for the purchase before the kind inserts it. */
export interface Hold {
  parentId: number;
  /** The link secret (waiver and guest links, `booking_hash`). */
  reference: string;
  /** The short human reference (`BK-7F3K2`). */
  code: string;
  /** Confirmed at once when nothing is due; else pending until `holdExpiresAt`. */
  status: 'pending' | 'confirmed';
  holdExpiresAt: Date | null;
  childIds: number[];
}

export type PurchaseStatus = 'pending' | 'confirmed' | 'cancelled' | 'expired' | 'refund_due';

/** What settlement and release read of a purchase, under its row lock. */
export interface PurchaseState {
  status: PurchaseStatus;
  holdExpiresAt: Date | null;
  reference: string;
}

/**
 * One kind of sale (decision 010): only what differs between kinds. The pipeline owns the order
 * of the steps, the transaction, discounts, new children, the card payment and settlement.
 */
export interface SaleKind<Input, Plan extends PlanBase = PlanBase> {
  readonly kind: PurchaseKind;
  /** Prefix of the short reference: BK (event booking), BP (party booking). */
  readonly codePrefix: string;
  /** Minutes a pending purchase holds what it took while the card payment is open. */
  readonly holdMinutes: number;
  /** Validates the request and reads what pricing and the hold need (no locks yet). */
  plan(deps: AppDeps, tenant: Tenant, parentId: number, input: Input): Promise<Plan>;
  /** The server's price with the discounts found. */
  price(deps: AppDeps, tenant: Tenant, plan: Plan, discounts: FoundDiscounts): Promise<Priced>;
  /** The 409 message when the client's amount is not the server's. */
  priceChanged(amountDue: number, company: Company): string;
  /** In the purchase's transaction: locks what is counted, in a fixed order, and checks it still fits. */
  lock(tx: Db, tenant: Tenant, plan: Plan): Promise<void>;
  /**
   * In the transaction, after the locks: inserts the purchase and its rows with `hold.code`.
   * Null when nothing is bought (e.g. waitlist days only).
   */
  insert(
    tx: Db,
    tenant: Tenant,
    plan: Plan,
    priced: Priced,
    hold: Hold,
  ): Promise<{ id: number; reference: string } | null>;
  /**
   * The card payment's description and where the browser returns to (a path with query; it may
   * name the purchase's `reference`, e.g. for a page that has lost it, out of an embed's frame).
   */
  cardPayment(plan: Plan, priced: Priced, reference: string): { description: string; returnPath: string };
  /** Reads the purchase under its row lock (settlement and release); null when it is not the tenant's. */
  lockPurchase(tx: Db, tenant: Tenant, id: number): Promise<PurchaseState | null>;
  /**
   * A paid purchase whose hold lapsed: locks what is counted and says whether what it took is
   * still free (then it is confirmed; else refund_due, never oversold).
   */
  stillFree(tx: Db, tenant: Tenant, id: number): Promise<boolean>;
  /** Sets the purchase's status; `confirmed` also stamps it and ends its hold. */
  setStatus(tx: Db, tenant: Tenant, id: number, status: PurchaseStatus): Promise<void>;
  /** In the confirming transaction (paid, or nothing due): its mail and what confirming means. */
  confirmed(deps: AppDeps, tx: Db, tenant: Tenant, id: number): Promise<void>;
  /** In the releasing transaction: releases what only this purchase holds (e.g. waitlist entries it made). */
  released?(tx: Db, tenant: Tenant, id: number): Promise<void>;
  /** After commit, once released (e.g. offer freed places to the waitlist). */
  afterRelease(deps: AppDeps, tenant: Tenant, id: number): Promise<void>;
  /**
   * In the settling transaction, once per failed payment: a card was declined or an asynchronous
   * payment failed. The purchase stays pending until its hold lapses (the parent may try again).
   */
  failed?(deps: AppDeps, tx: Db, tenant: Tenant, id: number): Promise<void>;
  /** Pending purchases whose hold lapsed, every company (the expiry job). */
  lapsed(db: Db): Promise<{ id: number; companyId: number }[]>;
}
