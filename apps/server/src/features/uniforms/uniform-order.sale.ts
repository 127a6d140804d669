import type { ChargesResponse } from '@tumble/contracts/booking';
import { type UniformCheckoutRequest, uniformOrderMessages } from '@tumble/contracts/uniform-orders';
import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { type Company, companyOf } from '../accounts/accounts.service.ts';
import { surchargeFor } from '../billing/billing.service.ts';
import type { FoundDiscounts } from '../billing/discounts.service.ts';
import { createInvoice } from '../billing/ledger.service.ts';
import { chargesResponse, checkout, discountsFor, releasePurchase } from '../checkout/checkout.ts';
import type { PlanBase, Priced, SaleKind } from '../checkout/sale-kind.ts';
import { discountOn, type PricingLine, surchargeLine } from '../pricing/pricing.ts';
import { assertOwnChildren } from '../students/children.service.ts';
import { uniformOrderLines, uniformOrders } from './uniform-orders.tables.ts';
import { uniformSizes, uniformTypes } from './uniforms.tables.ts';

/** How long a card order holds its stock while the card page is open. */
export const UNIFORM_HOLD_MINUTES = 30;

/** One line of an order: a size, how many, and (read from the catalogue) its names and price. */
export interface OrderLine {
  sizeId: number;
  quantity: number;
  unitPrice: number;
  typeName: string;
  sizeName: string;
  invoiceAllowed: boolean;
}

export interface UniformPrice extends Priced {
  lines: PricingLine[];
  subtotal: number;
  discount: number;
  surcharge: number;
}

/** The sizes' names, price and stock (archived types are no longer sold): null when one is missing. */
export async function catalogueLines(
  db: Db,
  tenant: Tenant,
  wanted: { sizeId: number; quantity: number }[],
): Promise<OrderLine[] | null> {
  const ids = [...new Set(wanted.map((w) => w.sizeId))];
  const rows = await db
    .select({
      sizeId: uniformSizes.id,
      sizeName: uniformSizes.name,
      typeName: uniformTypes.name,
      price: uniformTypes.price,
      invoiceAllowed: uniformTypes.invoiceAllowed,
    })
    .from(uniformSizes)
    .innerJoin(uniformTypes, eq(uniformTypes.id, uniformSizes.uniformTypeId))
    .where(tenant.where(uniformSizes, inArray(uniformSizes.id, ids), isNull(uniformTypes.archivedAt)));
  const lines: OrderLine[] = [];
  for (const w of wanted) {
    const row = rows.find((r) => r.sizeId === w.sizeId);
    if (!row) return null;
    lines.push({ ...row, quantity: w.quantity, unitPrice: row.price });
  }
  return lines;
}

/**
 * The one price of an order: the items, less the coupon or promotional code; paid by card, plus
 * the card surcharge and all due now; added to an invoice, nothing due now.
 */
export async function priceUniformOrder(
  db: Db,
  tenant: Tenant,
  company: Company,
  lines: OrderLine[],
  pay: 'card' | 'invoice',
  discounts: FoundDiscounts,
): Promise<UniformPrice> {
  const line = (key: PricingLine['key'], label: string, description: string, value: number): PricingLine => ({
    key,
    label,
    description,
    value,
    formatted: formatMoney(value, company.currency),
  });
  const subtotal = lines.reduce((sum, l) => sum + l.quantity * l.unitPrice, 0);
  const items = lines.map((l) => `${l.typeName}, ${l.sizeName} × ${l.quantity}`).join('; ');
  const out = [line('subtotal', 'Uniform', items, subtotal)];
  const coupon = discounts.code;
  const discount = coupon ? discountOn(subtotal, coupon) : 0;
  if (coupon && discount > 0)
    out.push(
      line('coupon', coupon.source === 'promotional' ? 'Promotional code' : 'Coupon', coupon.code, -discount),
    );
  const net = subtotal - discount;
  if (pay === 'invoice') {
    out.push(line('total', 'Added to your next invoice', 'Nothing to pay now', net));
    out.push(line('amount_due', 'To pay now', 'On your invoice', 0));
    return { lines: out, amountDue: 0, subtotal, discount, surcharge: 0 };
  }
  const surchargeDue = surchargeLine(net, await surchargeFor(db, tenant, company.paymentMethod));
  if (surchargeDue)
    out.push(line('surcharge', surchargeDue.label, surchargeDue.description, surchargeDue.amount));
  const surcharge = surchargeDue?.amount ?? 0;
  out.push(line('amount_due', 'To pay now', 'Charged to your card', net + surcharge));
  return { lines: out, amountDue: net + surcharge, subtotal, discount, surcharge };
}

/** Sizes and how many of each, summed per size. */
function perSize(wanted: { sizeId: number; quantity: number }[]) {
  const need = new Map<number, number>();
  for (const w of wanted) need.set(w.sizeId, (need.get(w.sizeId) ?? 0) + w.quantity);
  return need;
}

/**
 * In the order's transaction: locks the sizes' rows FOR UPDATE in id order (two orders lock them in
 * the same order, so they never deadlock) and counts the stock again under the lock. Answers the
 * out-of-stock message of the first size with fewer than asked, else null.
 */
export async function lockStock(
  tx: Db,
  tenant: Tenant,
  wanted: { sizeId: number; quantity: number }[],
): Promise<string | null> {
  const need = perSize(wanted);
  const sizes = await tx
    .select({ id: uniformSizes.id, name: uniformSizes.name, stock: uniformSizes.stock })
    .from(uniformSizes)
    .where(tenant.where(uniformSizes, inArray(uniformSizes.id, [...need.keys()])))
    .orderBy(asc(uniformSizes.id))
    .for('update');
  if (sizes.length !== need.size) throw new NotFoundError(uniformOrderMessages.size);
  const short = sizes.find((size) => size.stock < need.get(size.id)!);
  return short ? uniformOrderMessages.outOfStock(short.name, short.stock) : null;
}

/** After `lockStock` found enough, under its locks: takes the items off the shelf. */
async function takeStock(tx: Db, tenant: Tenant, wanted: { sizeId: number; quantity: number }[]) {
  for (const [sizeId, quantity] of perSize(wanted))
    await tx
      .update(uniformSizes)
      .set({ stock: sql`${uniformSizes.stock} - ${quantity}` })
      .where(tenant.byId(uniformSizes, sizeId));
}

/** The order's lines (size and quantity). */
export function linesOf(db: Db, tenant: Tenant, orderId: number) {
  return db
    .select({ sizeId: uniformOrderLines.sizeId, quantity: uniformOrderLines.quantity })
    .from(uniformOrderLines)
    .where(tenant.where(uniformOrderLines, eq(uniformOrderLines.orderId, orderId)));
}

/** In the releasing or cancelling transaction: the order's items go back on the shelf (sizes locked in id order). */
export async function giveBackStock(tx: Db, tenant: Tenant, orderId: number) {
  const lines = await linesOf(tx, tenant, orderId);
  const back = perSize(lines);
  const ids = [...back.keys()].sort((a, b) => a - b);
  if (ids.length === 0) return;
  await tx
    .select({ id: uniformSizes.id })
    .from(uniformSizes)
    .where(tenant.where(uniformSizes, inArray(uniformSizes.id, ids)))
    .orderBy(asc(uniformSizes.id))
    .for('update');
  for (const sizeId of ids)
    await tx
      .update(uniformSizes)
      .set({ stock: sql`${uniformSizes.stock} + ${back.get(sizeId)!}` })
      .where(tenant.byId(uniformSizes, sizeId));
}

/** What an order writes, by whoever places it (the parent's checkout or the desk). */
export interface OrderToWrite {
  parentId: number;
  childId: number;
  reference: string;
  code: string;
  status: 'pending' | 'confirmed';
  paidHow: 'card' | 'cash' | 'eftpos' | 'invoice';
  price: Pick<UniformPrice, 'subtotal' | 'discount' | 'surcharge' | 'amountDue'>;
  couponCode: string | null;
  holdExpiresAt: Date | null;
  createdBy: number | null;
  lines: OrderLine[];
}

/** In the transaction, after `lockStock` found enough: writes the order and its lines and takes the stock. */
export async function insertOrder(tx: Db, tenant: Tenant, order: OrderToWrite) {
  await takeStock(tx, tenant, order.lines);
  const [row] = await tx
    .insert(uniformOrders)
    .values(
      tenant.values({
        parentId: order.parentId,
        childId: order.childId,
        reference: order.reference,
        code: order.code,
        status: order.status,
        paidHow: order.paidHow,
        subtotal: order.price.subtotal,
        discount: order.price.discount,
        surcharge: order.price.surcharge,
        amountDue: order.price.amountDue,
        couponCode: order.couponCode,
        holdExpiresAt: order.holdExpiresAt,
        createdBy: order.createdBy,
        confirmedAt: order.status === 'confirmed' ? new Date() : null,
      }),
    )
    .returning({ id: uniformOrders.id, reference: uniformOrders.reference });
  await tx
    .insert(uniformOrderLines)
    .values(
      order.lines.map((l) =>
        tenant.values({ orderId: row!.id, sizeId: l.sizeId, quantity: l.quantity, unitPrice: l.unitPrice }),
      ),
    );
  return row!;
}

/**
 * In the confirming transaction of an order to be invoiced: an issued one-off invoice with the
 * order's items as `uniform` lines (and its discount as a line), made once per order.
 */
export async function invoiceOrder(tx: Db, tenant: Tenant, orderId: number, createdBy: number | null) {
  const [order] = await tx.select().from(uniformOrders).where(tenant.byId(uniformOrders, orderId));
  if (!order || order.invoiceId !== null) return order?.invoiceId ?? null;
  const items = await tx
    .select({
      quantity: uniformOrderLines.quantity,
      unitPrice: uniformOrderLines.unitPrice,
      sizeName: uniformSizes.name,
      typeName: uniformTypes.name,
    })
    .from(uniformOrderLines)
    .innerJoin(uniformSizes, eq(uniformSizes.id, uniformOrderLines.sizeId))
    .innerJoin(uniformTypes, eq(uniformTypes.id, uniformSizes.uniformTypeId))
    .where(tenant.where(uniformOrderLines, eq(uniformOrderLines.orderId, orderId)))
    .orderBy(asc(uniformOrderLines.id));
  const purchase = { purchaseKind: 'uniform' as const, purchaseId: orderId };
  const lines = items.map((i) => ({
    description: `${i.typeName}, ${i.sizeName}`,
    detail: `Uniform order ${order.code}`,
    quantity: i.quantity,
    unitAmount: i.unitPrice,
    ...purchase,
  }));
  if (order.discount > 0)
    lines.push({
      description: `Coupon ${order.couponCode ?? ''}`.trim(),
      detail: `Uniform order ${order.code}`,
      quantity: 1,
      unitAmount: -order.discount,
      ...purchase,
    });
  const company = await companyOf(tx, tenant);
  const { invoice } = await createInvoice(tx, tenant, {
    parentId: order.parentId,
    kind: 'one_off',
    lines,
    sourceKey: `uniform-order:${orderId}`,
    createdBy,
    issueOn: todayIn(company.timeZone),
  });
  await tx.update(uniformOrders).set({ invoiceId: invoice.id }).where(tenant.byId(uniformOrders, orderId));
  return invoice.id;
}

interface UniformPlan extends PlanBase {
  input: UniformCheckoutRequest;
  lines: OrderLine[];
}

const scope = { kind: 'uniform' } as const;

/** Reads and checks a parent's order: the size is sold, the child is theirs, an invoice is allowed. */
async function readOrder(
  deps: AppDeps,
  tenant: Tenant,
  input: { size_id: number; quantity: number; pay: 'card' | 'invoice' },
) {
  const lines = await catalogueLines(deps.database.db, tenant, [
    { sizeId: input.size_id, quantity: input.quantity },
  ]);
  if (!lines) throw new NotFoundError(uniformOrderMessages.size);
  if (input.pay === 'invoice' && !lines.every((l) => l.invoiceAllowed))
    throw new BadRequestError(uniformOrderMessages.invoiceNotAllowed);
  return lines;
}

/** GET charges: the price summary of an order with the coupon field's code. */
export async function uniformCharges(
  deps: AppDeps,
  tenant: Tenant,
  parentId: number,
  input: { size_id: number; quantity: number; pay: 'card' | 'invoice'; coupon_code: string },
): Promise<ChargesResponse> {
  const { db } = deps.database;
  const lines = await readOrder(deps, tenant, input);
  const company = await companyOf(db, tenant);
  const found = await discountsFor(deps, tenant, {
    company,
    parentId,
    couponCode: input.coupon_code,
    nswCode: '',
    scope,
  });
  return chargesResponse(await priceUniformOrder(db, tenant, company, lines, input.pay, found), found);
}

/**
 * Uniform orders as a kind of sale (decision 010): a parent's order for one child, by card (the
 * stock held while the card page is open) or added to an invoice (nothing due now: confirmed and
 * invoiced in the same transaction).
 */
export const uniformSale: SaleKind<UniformCheckoutRequest, UniformPlan> = {
  kind: 'uniform',
  codePrefix: 'UO',
  holdMinutes: UNIFORM_HOLD_MINUTES,

  async plan(deps, tenant, parentId, input) {
    const lines = await readOrder(deps, tenant, input);
    await assertOwnChildren(deps.database.db, tenant, parentId, [input.child_id]);
    const company = await companyOf(deps.database.db, tenant);
    return {
      company,
      parentId,
      couponCode: input.coupon_code,
      nswCode: '',
      scope,
      clientAmount: input.amount,
      children: [{ id: input.child_id }],
      input,
      lines,
    };
  },

  price: (deps, tenant, plan, discounts) =>
    priceUniformOrder(deps.database.db, tenant, plan.company, plan.lines, plan.input.pay, discounts),

  priceChanged: (amount, company) =>
    `The price has changed to ${formatMoney(amount, company.currency)}. Please check the summary and confirm again.`,

  async lock(tx, tenant, plan) {
    const short = await lockStock(tx, tenant, plan.lines);
    if (short) throw new ConflictError(short);
  },

  insert: (tx, tenant, plan, priced, hold) =>
    insertOrder(tx, tenant, {
      parentId: hold.parentId,
      childId: plan.input.child_id,
      reference: hold.reference,
      code: hold.code,
      status: hold.status,
      paidHow: plan.input.pay,
      price: priced as UniformPrice,
      couponCode: plan.input.coupon_code ? plan.input.coupon_code.trim().toUpperCase() : null,
      holdExpiresAt: hold.holdExpiresAt,
      createdBy: hold.parentId,
      lines: plan.lines,
    }),

  cardPayment: () => ({ description: 'Uniform order', returnPath: '/admin/students/uniforms?status=true' }),

  async lockPurchase(tx, tenant, id) {
    const [order] = await tx.select().from(uniformOrders).where(tenant.byId(uniformOrders, id)).for('update');
    return order ?? null;
  },

  /**
   * A payment after the hold lapsed. A pending order still has its stock (nothing released it); an
   * expired one gave it back, so it is taken again under the size locks when there is enough.
   */
  async stillFree(tx, tenant, id) {
    const [order] = await tx.select().from(uniformOrders).where(tenant.byId(uniformOrders, id));
    if (!order) return false;
    if (order.status === 'pending') return true;
    const lines = await linesOf(tx, tenant, id);
    if (await lockStock(tx, tenant, lines)) return false;
    await takeStock(tx, tenant, lines);
    return true;
  },

  async setStatus(tx, tenant, id, status) {
    const confirming = status === 'confirmed' ? { confirmedAt: sql`now()`, holdExpiresAt: null } : {};
    const ending = status === 'cancelled' || status === 'expired' ? { cancelledAt: sql`now()` } : {};
    await tx
      .update(uniformOrders)
      .set({ status, ...confirming, ...ending })
      .where(tenant.byId(uniformOrders, id));
  },

  async confirmed(_deps, tx, tenant, id) {
    const [order] = await tx.select().from(uniformOrders).where(tenant.byId(uniformOrders, id));
    if (order?.paidHow === 'invoice') await invoiceOrder(tx, tenant, id, order.parentId);
  },

  released: (tx, tenant, id) => giveBackStock(tx, tenant, id),

  async afterRelease() {
    // The stock is back on the shelf; nothing else waits for it.
  },

  lapsed: (db) =>
    db
      .select({ id: uniformOrders.id, companyId: uniformOrders.companyId })
      .from(uniformOrders)
      // cross-tenant: the hold sweep runs for every company; each row carries its companyId on.
      .where(and(eq(uniformOrders.status, 'pending'), lt(uniformOrders.holdExpiresAt, sql`now()`)))
      .limit(500),
};

/** POST checkout: a signed-in parent's order through the purchase pipeline. */
export function checkoutUniformOrder(
  deps: AppDeps,
  tenant: Tenant,
  auth: AuthContext,
  input: UniformCheckoutRequest,
  origin: string = deps.config.publicUrl,
) {
  if (auth.role !== 'student' || auth.tenant.companyId !== tenant.companyId) throw new NotFoundError();
  return checkout(deps, tenant, auth.userId, uniformSale, input, origin);
}

/** Ends a pending order (tests, the card form's cancel): the pipeline's release gives the stock back. */
export function releaseUniformOrder(
  deps: AppDeps,
  tenant: Tenant,
  id: number,
  status: 'expired' | 'cancelled',
) {
  return releasePurchase(deps, tenant, uniformSale, id, status);
}
