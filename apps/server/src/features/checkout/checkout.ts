import type { ChargesResponse, CheckoutResponse } from '@tumble/contracts/booking';
import type { Db } from '../../db/client.ts';
import { pgCode } from '../../platform/db-errors.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import {
  expireOpenCheckouts,
  expireOpenPayments,
  openCardPayment,
  registerPurchase,
  stillHolding,
} from '../../platform/payments/settlement.ts';
import { randomToken } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { contactOf } from '../accounts/accounts.service.ts';
import {
  claimDiscounts,
  type FoundDiscounts,
  findDiscounts,
  releaseDiscounts,
} from '../billing/discounts.service.ts';
import { createChildren } from '../students/children.service.ts';
import type { Hold, PlanBase, Priced, SaleKind } from './sale-kind.ts';

/**
 * The purchase pipeline (decision 010): the steps every sale takes, in this order.
 * validate (kind.plan) → find discounts → price (kind.price) → check the client's amount → ONE
 * transaction (kind.lock, create new children, kind.insert, claim discounts) → open the card
 * payment → settle, release or expire (settlement.ts calls back through `registerSaleKind`).
 */

// biome-ignore lint/suspicious/noExplicitAny: a registry of kinds of any input and plan
type AnyKind = SaleKind<any, any>;
const kinds = new Map<string, AnyKind>();

/** Unambiguous alphabet of short references: no 0/O/1/I. */
const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

export function newCode(prefix: string): string {
  const bytes = Buffer.from(randomToken(8));
  let code = '';
  for (let i = 0; i < 5; i++) code += CODE_ALPHABET[bytes[i]! % CODE_ALPHABET.length];
  return `${prefix}-${code}`;
}

/** Plugs a kind of sale into settlement (webhooks, the test card page) and the expiry job. */
export function registerSaleKind(kind: AnyKind): void {
  kinds.set(kind.kind, kind);
  registerPurchase(kind.kind, {
    paid: (deps, tx, tenant, id) => confirmPaid(deps, tx, tenant, kind, id),
    async expired(_deps, tx, tenant, id) {
      await endPurchase(tx, tenant, kind, id, 'expired');
    },
    afterRelease: (deps, tenant, id) => kind.afterRelease(deps, tenant, id),
    async failed(deps, tx, tenant, id) {
      await kind.failed?.(deps, tx, tenant, id);
    },
  });
}

/** Finds the codes typed for a plan (the summary shows their messages; checkout refuses them). */
export function discountsFor(
  deps: AppDeps,
  tenant: Tenant,
  plan: Pick<PlanBase, 'company' | 'couponCode' | 'nswCode' | 'scope'> & { parentId: number | null },
) {
  return findDiscounts(deps.database.db, tenant, {
    couponCode: plan.couponCode,
    nswCode: plan.nswCode,
    scope: plan.scope,
    parentId: plan.parentId,
    today: todayIn(plan.company.timeZone),
  });
}

/** The price summary response of SPEC.md (calculate-charges-summary) for priced lines. */
export function chargesResponse(
  result: { lines: { key: string; label: string; description: string; value: number; formatted: string }[] },
  found: FoundDiscounts,
): ChargesResponse {
  return {
    pricing_details: Object.fromEntries(
      result.lines.map((l) => [
        l.key,
        { label: l.label, description: l.description, value: l.value, formatted: l.formatted },
      ]),
    ),
    additional_information: {
      coupon_code: found.code?.code ?? null,
      coupon_kind: found.code?.source ?? null,
      nsw_coupon_code: found.voucher?.code ?? null,
    },
    errors: found.errors,
  };
}

/**
 * Runs one checkout of `kind` for a signed-in parent. `origin` is where the browser comes back to
 * after the card page (the origin the parent is using; config.ts).
 */
export async function checkout<Input, Plan extends PlanBase>(
  deps: AppDeps,
  tenant: Tenant,
  parentId: number,
  kind: SaleKind<Input, Plan>,
  input: Input,
  origin: string,
): Promise<CheckoutResponse> {
  const { db } = deps.database;
  const plan = await kind.plan(deps, tenant, parentId, input);
  const found = await discountsFor(deps, tenant, plan);
  const codeError = found.errors.invalid_coupon_code_message ?? found.errors.invalid_nsw_coupon_code_message;
  if (codeError) throw new BadRequestError(codeError);
  const priced = await kind.price(deps, tenant, plan, found);
  if (plan.clientAmount !== priced.amountDue)
    throw new ConflictError(kind.priceChanged(priced.amountDue, plan.company));

  const free = priced.amountDue === 0;
  const holdExpiresAt = free ? null : new Date(Date.now() + kind.holdMinutes * 60_000);
  const reference = randomToken(12);
  const purchase = await db.transaction(async (tx) => {
    await kind.lock(tx, tenant, plan);
    const childIds = await createChildren(tx, tenant, parentId, plan.children);
    const hold: Omit<Hold, 'code'> = {
      parentId,
      reference,
      status: free ? 'confirmed' : 'pending',
      holdExpiresAt,
      childIds,
    };
    const inserted = await insertWithCode(tx, kind, (code) =>
      kind.insert(tx, tenant, plan, priced, { ...hold, code }),
    );
    if (!inserted) return null;
    await claimDiscounts(tx, tenant, found, { kind: kind.kind, id: inserted.id, parentId });
    if (free) await kind.confirmed(deps, tx, tenant, inserted.id);
    return inserted;
  });

  if (!purchase || free) {
    await deps.jobs.nudge(queues.mailDeliver);
    return { valid: true, booking_hash: purchase?.reference ?? reference };
  }
  const parent = await contactOf(db, tenant, parentId);
  const { description, returnPath } = kind.cardPayment(plan, priced, purchase.reference);
  return openCardPayment(deps, tenant, {
    provider: plan.company.paymentMethod,
    purchase: { kind: kind.kind, id: purchase.id },
    parentId: plan.parentId,
    request: {
      reference: purchase.reference,
      amount: priced.amountDue,
      currency: plan.company.currency,
      description,
      customerEmail: parent.email,
      returnUrl: `${origin}${returnPath}`,
      expiresAt: holdExpiresAt!,
    },
    origin,
    release: () => releasePurchase(deps, tenant, kind, purchase.id, 'expired'),
  });
}

/**
 * Inserts with a fresh short reference, retrying on the rare clash with another purchase's code
 * (a savepoint, so the transaction survives the unique violation).
 */
async function insertWithCode<T>(tx: Db, kind: AnyKind, insert: (code: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await tx.transaction(() => insert(newCode(kind.codePrefix)));
    } catch (error) {
      const clash =
        pgCode(error) === '23505' &&
        String(
          (error as { cause?: { constraint?: string } }).cause?.constraint ??
            (error as { constraint?: string }).constraint ??
            '',
        ).endsWith('_code');
      if (!clash || attempt >= 4) throw error;
    }
  }
}

/** In a transaction: ends a pending purchase and gives back its discounts and open payments. */
async function endPurchase(
  tx: Db,
  tenant: Tenant,
  kind: AnyKind,
  id: number,
  status: 'expired' | 'cancelled',
) {
  const purchase = await kind.lockPurchase(tx, tenant, id);
  if (purchase?.status !== 'pending') return false;
  await kind.setStatus(tx, tenant, id, status);
  await kind.released?.(tx, tenant, id);
  await expireOpenPayments(tx, tenant, { kind: kind.kind, id });
  await releaseDiscounts(tx, tenant, { kind: kind.kind, id });
  return true;
}

/**
 * Settlement of a paid checkout, with the payment row locked: the purchase is confirmed while it
 * still holds what it took, or when that is still free after its hold lapsed; otherwise it is
 * flagged refund_due for staff. Never oversold.
 */
async function confirmPaid(
  deps: AppDeps,
  tx: Db,
  tenant: Tenant,
  kind: AnyKind,
  id: number,
): Promise<{ outcome: 'paid' | 'refund_due'; reference: string }> {
  const purchase = await kind.lockPurchase(tx, tenant, id);
  if (!purchase) throw new NotFoundError();
  const confirmable =
    stillHolding(purchase) ||
    ((purchase.status === 'pending' || purchase.status === 'expired') &&
      (await kind.stillFree(tx, tenant, id)));
  if (confirmable) {
    await kind.setStatus(tx, tenant, id, 'confirmed');
    await kind.confirmed(deps, tx, tenant, id);
    return { outcome: 'paid', reference: purchase.reference };
  }
  if (purchase.status !== 'confirmed') await kind.setStatus(tx, tenant, id, 'refund_due');
  return { outcome: 'refund_due', reference: purchase.reference };
}

/** Ends a pending purchase (hold lapsed, card form closed, provider failed) and releases what it held. */
export async function releasePurchase(
  deps: AppDeps,
  tenant: Tenant,
  kind: AnyKind,
  id: number,
  status: 'expired' | 'cancelled',
): Promise<boolean> {
  const released = await deps.database.db.transaction((tx) => endPurchase(tx, tenant, kind, id, status));
  if (released) await kind.afterRelease(deps, tenant, id);
  return released;
}

/** The hold-expiry job: ends lapsed holds of every kind and tells their providers to stop taking payment. */
export async function expireLapsedPurchases(deps: AppDeps): Promise<number> {
  let released = 0;
  for (const kind of kinds.values()) {
    for (const row of await kind.lapsed(deps.database.db)) {
      const tenant = new Tenant(row.companyId);
      await expireOpenCheckouts(deps, tenant, { kind: kind.kind, id: row.id });
      if (await releasePurchase(deps, tenant, kind, row.id, 'expired')) released++;
    }
  }
  return released;
}

export type { Priced };
