import { count, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { BadRequestError, ConflictError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { couponRedemptions, coupons, nswSettings, promotionalCodes } from './billing.tables.ts';

/**
 * Discounts, the one place they are validated, claimed and released (decision 010). The coupon
 * field of every checkout takes a coupon or a promotional code:
 * - a coupon is a private code with limits (dates, events, total uses, uses per parent);
 * - a promotional code is a public campaign code (its description names the campaign): no usage
 *   limits, only dates, active and what it applies to; its uses are counted per code.
 * An NSW voucher is a government code with a value per child, usable once while its purchase lives.
 * Every purchase that uses a discount has one redemption row naming it (kind + id).
 */

/** What a purchase is, as discounts see it. */
export type PurchaseKind = 'event' | 'party' | 'enrolment' | 'private_lesson' | 'invoice' | 'uniform';

/** Where a code is used: coupons may be limited to events, promotional codes to events or parties. */
export type DiscountScope =
  | { kind: 'event'; eventId: number }
  | { kind: 'party' }
  | { kind: 'classes' }
  | { kind: 'private_lesson' }
  | { kind: 'uniform' };

/** What a promotional code's `appliesTo` calls each scope. */
const promoScope = {
  event: 'events',
  party: 'parties',
  classes: 'classes',
  private_lesson: 'classes',
  // Uniforms are no campaign's product: only an "all" promotional code applies to them.
  uniform: 'none',
} as const;

/** A coupon or promotional code found valid, as the pricing module takes it. */
export interface FoundCode {
  source: 'coupon' | 'promotional';
  id: number;
  code: string;
  discountType: 'percent' | 'fixed';
  amount: number;
}

export interface FoundDiscounts {
  code: FoundCode | null;
  voucher: { code: string; valuePerChild: number } | null;
  /** The messages shown beside the fields (SPEC.md's summary `errors`). */
  errors: { invalid_coupon_code_message?: string; invalid_nsw_coupon_code_message?: string };
}

const amountOf = (row: {
  discountType: 'percent' | 'fixed';
  percentOff: number | null;
  amountOff: number | null;
}) => (row.discountType === 'percent' ? row.percentOff : row.amountOff) ?? 0;

const outsideDates = (row: { validFrom: string | null; validTo: string | null }, today: string) =>
  (row.validFrom !== null && today < row.validFrom) || (row.validTo !== null && today > row.validTo);

/** Redemptions of one coupon by one parent (counted under the coupon's lock when claiming). */
async function parentUses(db: Db, tenant: Tenant, couponId: number, parentId: number) {
  const [used] = await db
    .select({ n: count() })
    .from(couponRedemptions)
    .where(
      tenant.where(
        couponRedemptions,
        eq(couponRedemptions.couponId, couponId),
        eq(couponRedemptions.parentId, parentId),
      ),
    );
  return used?.n ?? 0;
}

const messages = {
  invalid: 'This coupon code is not valid.',
  notToday: 'This coupon code is not valid today.',
  notThisEvent: 'This coupon code is not valid for this event.',
  usedUp: 'This coupon code has been used up.',
  perParent: 'You have already used this coupon code as often as it allows.',
  voucherNotAccepted: 'NSW vouchers are not accepted here.',
  voucherInvalid: 'This voucher code is not valid.',
  voucherUsed: 'This voucher code has already been used.',
  both: 'Please use either a coupon code or an NSW voucher, not both.',
} as const;

export const discountMessages = messages;

/** A coupon, else a promotional code, by the code typed in the coupon field. */
async function findCode(
  db: Db,
  tenant: Tenant,
  typed: string,
  context: { scope: DiscountScope; parentId: number | null; today: string },
): Promise<FoundCode | { error: string }> {
  const code = typed.trim().toUpperCase();
  const [coupon] = await db
    .select()
    .from(coupons)
    .where(tenant.where(coupons, eq(coupons.code, code), isNull(coupons.archivedAt)));
  if (coupon) {
    if (outsideDates(coupon, context.today)) return { error: messages.notToday };
    // Coupons limited to events never apply to other kinds of sale.
    const eventId = context.scope.kind === 'event' ? context.scope.eventId : 0;
    if (coupon.eventIds.length > 0 && !coupon.eventIds.includes(eventId))
      return { error: messages.notThisEvent };
    if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit)
      return { error: messages.usedUp };
    if (
      context.parentId !== null &&
      coupon.perParentLimit !== null &&
      (await parentUses(db, tenant, coupon.id, context.parentId)) >= coupon.perParentLimit
    )
      return { error: messages.perParent };
    return {
      source: 'coupon',
      id: coupon.id,
      code: coupon.code,
      discountType: coupon.discountType,
      amount: amountOf(coupon),
    };
  }
  const [promo] = await db
    .select()
    .from(promotionalCodes)
    .where(tenant.where(promotionalCodes, sql`upper(${promotionalCodes.code}) = ${code}`));
  if (!promo?.active) return { error: messages.invalid };
  if (outsideDates(promo, context.today)) return { error: messages.notToday };
  const applies = promo.appliesTo === 'all' || promo.appliesTo === promoScope[context.scope.kind];
  if (!applies) return { error: messages.invalid };
  return {
    source: 'promotional',
    id: promo.id,
    code: promo.code.toUpperCase(),
    discountType: promo.discountType,
    amount: amountOf(promo),
  };
}

/** An NSW voucher code in the company's format, not used by another live purchase. */
async function findVoucher(db: Db, tenant: Tenant, code: string) {
  const [settings] = await db.select().from(nswSettings).where(tenant.where(nswSettings));
  if (!settings?.enabled) return { error: messages.voucherNotAccepted };
  if (!new RegExp(settings.codeFormat).test(code)) return { error: messages.voucherInvalid };
  const [used] = await db
    .select({ n: count() })
    .from(couponRedemptions)
    .where(tenant.where(couponRedemptions, eq(couponRedemptions.voucherCode, code)));
  if ((used?.n ?? 0) > 0) return { error: messages.voucherUsed };
  return { code, valuePerChild: settings.voucherValue };
}

/**
 * Validates the codes typed at a checkout or in the price summary. Invalid codes come back as
 * field messages (the summary shows them; checkout refuses with them).
 */
export async function findDiscounts(
  db: Db,
  tenant: Tenant,
  input: {
    couponCode: string;
    nswCode: string;
    scope: DiscountScope;
    parentId: number | null;
    today: string;
  },
): Promise<FoundDiscounts> {
  const found: FoundDiscounts = { code: null, voucher: null, errors: {} };
  if (input.couponCode && input.nswCode) throw new BadRequestError(messages.both);
  if (input.couponCode) {
    const code = await findCode(db, tenant, input.couponCode, input);
    if ('error' in code) found.errors.invalid_coupon_code_message = code.error;
    else found.code = code;
  }
  if (input.nswCode) {
    const voucher = await findVoucher(db, tenant, input.nswCode);
    if ('error' in voucher) found.errors.invalid_nsw_coupon_code_message = voucher.error;
    else found.voucher = voucher;
  }
  return found;
}

/**
 * Inside the purchase's transaction: claims the discounts found for it. A coupon's row is locked
 * FOR UPDATE first, then its total and per-parent uses are counted under that lock, so two
 * simultaneous checkouts (by one parent, of any kinds) cannot both pass a limit. Writes the one
 * redemption row of the purchase. Throws ConflictError with the field's message when a limit was
 * reached meanwhile (the transaction then rolls back everything it did).
 */
export async function claimDiscounts(
  tx: Db,
  tenant: Tenant,
  found: Pick<FoundDiscounts, 'code' | 'voucher'>,
  purchase: { kind: PurchaseKind; id: number; parentId: number },
): Promise<void> {
  if (!found.code && !found.voucher) return;
  if (found.code?.source === 'coupon') {
    const [coupon] = await tx
      .select()
      .from(coupons)
      .where(tenant.where(coupons, eq(coupons.id, found.code.id)))
      .for('update');
    if (!coupon || (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit))
      throw new ConflictError(messages.usedUp);
    if (
      coupon.perParentLimit !== null &&
      (await parentUses(tx, tenant, coupon.id, purchase.parentId)) >= coupon.perParentLimit
    )
      throw new ConflictError(messages.perParent);
    await tx
      .update(coupons)
      .set({ usedCount: sql`${coupons.usedCount} + 1` })
      .where(tenant.byId(coupons, coupon.id));
  }
  const inserted = await tx
    .insert(couponRedemptions)
    .values(
      tenant.values({
        couponId: found.code?.source === 'coupon' ? found.code.id : null,
        promotionalCodeId: found.code?.source === 'promotional' ? found.code.id : null,
        voucherCode: found.voucher?.code ?? null,
        parentId: purchase.parentId,
        purchaseKind: purchase.kind,
        purchaseId: purchase.id,
      }),
    )
    // The voucher's unique index decides between two checkouts using one voucher at once.
    .onConflictDoNothing()
    .returning({ id: couponRedemptions.id });
  if (inserted.length === 0) throw new ConflictError(messages.voucherUsed);
}

/** Inside the releasing transaction: gives back what an unpaid purchase claimed. */
export async function releaseDiscounts(
  tx: Db,
  tenant: Tenant,
  purchase: { kind: PurchaseKind; id: number },
): Promise<void> {
  const released = await tx
    .delete(couponRedemptions)
    .where(
      tenant.where(
        couponRedemptions,
        eq(couponRedemptions.purchaseKind, purchase.kind),
        eq(couponRedemptions.purchaseId, purchase.id),
      ),
    )
    .returning({ couponId: couponRedemptions.couponId });
  for (const { couponId } of released) {
    if (couponId === null) continue;
    await tx
      .update(coupons)
      .set({ usedCount: sql`greatest(${coupons.usedCount} - 1, 0)` })
      .where(tenant.where(coupons, eq(coupons.id, couponId)));
  }
}
