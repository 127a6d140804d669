import type {
  MyUniformOrders,
  StaffUniformOrderRequest,
  StaffUniformOrders,
  UniformCatalogue,
  UniformOrder,
  UniformOrderStatus,
} from '@tumble/contracts/uniform-orders';
import { uniformOrderMessages } from '@tumble/contracts/uniform-orders';
import { asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { pgCode } from '../../platform/db-errors.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { randomToken } from '../../platform/secrets.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { familyContacts } from '../accounts/families.service.ts';
import { parentOf } from '../accounts/parents.service.ts';
import { voidInvoice } from '../billing/ledger.service.ts';
import { recordPayment } from '../billing/record-payment.service.ts';
import { paymentsOfPurchase, refundPayment } from '../billing/refunds.service.ts';
import { newCode } from '../checkout/checkout.ts';
import { searchChildren } from '../students/child-search.service.ts';
import { assertOwnChildren, childrenByIds } from '../students/children.service.ts';
import { childIdsOfParents } from '../students/family.service.ts';
import {
  catalogueLines,
  giveBackStock,
  insertOrder,
  invoiceOrder,
  lockStock,
  releaseUniformOrder,
} from './uniform-order.sale.ts';
import { uniformOrderLines, uniformOrders } from './uniform-orders.tables.ts';
import { uniformSizes, uniformTypes } from './uniforms.tables.ts';

type OrderRow = typeof uniformOrders.$inferSelect;

/** How an order reads to people: its pipeline status, how it is paid and whether it was collected. */
export function statusOf(order: Pick<OrderRow, 'status' | 'paidHow' | 'collectedAt'>): UniformOrderStatus {
  if (order.status === 'pending') return 'pending_payment';
  if (order.status === 'refund_due') return 'refund_due';
  if (order.status !== 'confirmed') return 'cancelled';
  if (order.collectedAt) return 'collected';
  // Paid now (card, cash, EFTPOS) reads "Paid"; on an invoice it is ready and reads "To be collected".
  return order.paidHow === 'invoice' ? 'to_be_collected' : 'paid';
}

/**
 * The orders of one child or one family (the students screen and the parent's page), or every
 * order of the company, newest first.
 */
export async function uniformOrdersOf(
  db: Db,
  tenant: Tenant,
  filter: { childId?: number; parentId?: number },
): Promise<UniformOrder[]> {
  const rows = await db
    .select()
    .from(uniformOrders)
    .where(
      tenant.where(
        uniformOrders,
        filter.childId === undefined ? undefined : eq(uniformOrders.childId, filter.childId),
        filter.parentId === undefined ? undefined : eq(uniformOrders.parentId, filter.parentId),
      ),
    )
    .orderBy(desc(uniformOrders.createdAt), desc(uniformOrders.id))
    .limit(1000);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [lines, names, parents] = await Promise.all([
    db
      .select({
        orderId: uniformOrderLines.orderId,
        quantity: uniformOrderLines.quantity,
        sizeName: uniformSizes.name,
        typeName: uniformTypes.name,
      })
      .from(uniformOrderLines)
      .innerJoin(uniformSizes, eq(uniformSizes.id, uniformOrderLines.sizeId))
      .innerJoin(uniformTypes, eq(uniformTypes.id, uniformSizes.uniformTypeId))
      .where(tenant.where(uniformOrderLines, inArray(uniformOrderLines.orderId, ids)))
      .orderBy(asc(uniformOrderLines.id)),
    childrenByIds(
      db,
      tenant,
      rows.map((r) => r.childId),
    ).then((kids) => new Map(kids.map((c) => [c.id, `${c.firstName} ${c.lastName}`]))),
    familyContacts(
      db,
      tenant,
      rows.map((r) => r.parentId),
    ),
  ]);
  return rows.map((order) => ({
    id: order.id,
    code: order.code,
    child_id: order.childId,
    child_name: names.get(order.childId) ?? '',
    parent_id: order.parentId,
    parent_name: parents.get(order.parentId)?.fullName ?? '',
    items: lines
      .filter((l) => l.orderId === order.id)
      .map((l) => `${l.typeName}, ${l.sizeName} × ${l.quantity}`)
      .join('; '),
    status: statusOf(order),
    paid_how: order.paidHow,
    amount: order.paidHow === 'card' ? order.amountDue : order.subtotal - order.discount,
    invoice_id: order.invoiceId,
    created_at: order.createdAt.toISOString(),
    collected_at: order.collectedAt?.toISOString() ?? null,
  }));
}

/** The types still sold, with their sizes and stock, by name. */
async function catalogue(db: Db, tenant: Tenant): Promise<UniformCatalogue> {
  const rows = await db
    .select({
      id: uniformTypes.id,
      name: uniformTypes.name,
      price: uniformTypes.price,
      invoiceAllowed: uniformTypes.invoiceAllowed,
      sizeId: uniformSizes.id,
      sizeName: uniformSizes.name,
      stock: uniformSizes.stock,
    })
    .from(uniformTypes)
    .innerJoin(uniformSizes, eq(uniformSizes.uniformTypeId, uniformTypes.id))
    .where(tenant.where(uniformTypes, isNull(uniformTypes.archivedAt)))
    .orderBy(asc(uniformTypes.name), asc(uniformSizes.id));
  const types: UniformCatalogue = [];
  for (const row of rows) {
    let type = types.find((t) => t.id === row.id);
    if (!type) {
      type = { id: row.id, name: row.name, price: row.price, invoice_allowed: row.invoiceAllowed, sizes: [] };
      types.push(type);
    }
    type.sizes.push({ id: row.sizeId, name: row.sizeName, stock: row.stock });
  }
  return types;
}

/** GET /api/v1/students/uniform-orders: the parent's children, what can be ordered, and their orders. */
export async function myUniformOrders(db: Db, tenant: Tenant, parentId: number): Promise<MyUniformOrders> {
  const [kids, types, orders] = await Promise.all([
    childIdsOfParents(db, tenant, [parentId])
      .then((ids) => childrenByIds(db, tenant, ids.get(parentId) ?? []))
      .then((list) => list.map((c) => ({ id: c.id, name: `${c.firstName} ${c.lastName}` }))),
    catalogue(db, tenant),
    uniformOrdersOf(db, tenant, { parentId }),
  ]);
  return { children: kids, types, orders };
}

/** GET /api/v1/admin/uniform-orders: every order, the catalogue, and the families the desk can order for. */
export async function staffUniformOrders(db: Db, tenant: Tenant): Promise<StaffUniformOrders> {
  const [orders, types, kids] = await Promise.all([
    uniformOrdersOf(db, tenant, {}),
    catalogue(db, tenant),
    // Every child (no words typed), by name: the desk's family and child pickers.
    searchChildren(db, tenant, '', 5000),
  ]);
  const parents = await familyContacts(
    db,
    tenant,
    kids.map((k) => k.parentId),
  );
  const families = [...parents.values()]
    .map((p) => ({
      id: p.id,
      name: p.fullName,
      children: kids
        .filter((k) => k.parentId === p.id)
        .map((k) => ({ id: k.id, name: `${k.firstName} ${k.lastName}` })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { orders, types, families };
}

/** Writes a desk order with a fresh short reference, retried on the rare clash with another code. */
async function insertDeskOrder(tx: Db, write: (code: string) => Promise<{ id: number }>) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await tx.transaction(() => write(newCode('UO')));
    } catch (error) {
      if (pgCode(error) !== '23505' || attempt >= 4) throw error;
    }
  }
}

/**
 * POST /api/v1/admin/uniform-orders: staff order for a family at the front desk. The stock is
 * locked and counted like a parent's checkout; the order is invoiced (an issued one-off invoice of
 * `uniform` lines) and, paid now in cash or by EFTPOS, that invoice is paid through the record
 * payment service. Nothing is written when the stock is short or the family or child is not found.
 */
export async function createDeskOrder(deps: AppDeps, auth: AuthContext, input: StaffUniformOrderRequest) {
  const { db } = deps.database;
  const { tenant } = auth;
  const family = await parentOf(db, tenant, input.parent_id);
  if (!family) throw new NotFoundError(uniformOrderMessages.family);
  await assertOwnChildren(db, tenant, family.id, [input.child_id]);
  const lines = await catalogueLines(db, tenant, [{ sizeId: input.size_id, quantity: input.quantity }]);
  if (!lines) throw new NotFoundError(uniformOrderMessages.size);
  const subtotal = lines.reduce((sum, l) => sum + l.quantity * l.unitPrice, 0);
  const company = await companyOf(db, tenant);
  const { orderId, invoiceId } = await db.transaction(async (tx) => {
    const short = await lockStock(tx, tenant, lines);
    if (short) throw new ConflictError(short);
    const order = await insertDeskOrder(tx, (code) =>
      insertOrder(tx, tenant, {
        parentId: family.id,
        childId: input.child_id,
        reference: randomToken(12),
        code,
        status: 'confirmed',
        paidHow: input.pay,
        price: { subtotal, discount: 0, surcharge: 0, amountDue: subtotal },
        couponCode: null,
        holdExpiresAt: null,
        createdBy: auth.userId,
        lines,
      }),
    );
    const invoice = subtotal > 0 ? await invoiceOrder(tx, tenant, order.id, auth.userId) : null;
    await recordAudit(tx, auth, {
      action: 'create',
      entity: 'uniform_order',
      entityId: order.id,
      after: {
        family: family.fullName,
        child_id: input.child_id,
        size_id: input.size_id,
        quantity: input.quantity,
        pay: input.pay,
      },
    });
    return { orderId: order.id, invoiceId: invoice };
  });
  if (input.pay !== 'invoice' && invoiceId !== null) {
    const paid = await recordPayment(deps, auth, {
      parent_id: family.id,
      method: input.pay,
      amount: subtotal,
      received_on: todayIn(company.timeZone),
      reference: input.reference,
      invoice_ids: [invoiceId],
      party_booking_id: null,
    });
    await db
      .update(uniformOrders)
      .set({ paymentId: paid.paymentId })
      .where(tenant.byId(uniformOrders, orderId));
  }
  return { id: orderId };
}

async function orderOf(db: Db, tenant: Tenant, id: number) {
  const [order] = await db.select().from(uniformOrders).where(tenant.byId(uniformOrders, id));
  if (!order) throw new NotFoundError(uniformOrderMessages.notFound);
  return order;
}

/** POST /api/v1/admin/uniform-orders/:id/collect: the family took the items (paid or invoiced). */
export async function collectOrder(deps: AppDeps, auth: AuthContext, id: number) {
  const { tenant } = auth;
  await deps.database.db.transaction(async (tx) => {
    const [order] = await tx.select().from(uniformOrders).where(tenant.byId(uniformOrders, id)).for('update');
    if (!order) throw new NotFoundError(uniformOrderMessages.notFound);
    if (order.status !== 'confirmed' || order.collectedAt)
      throw new BadRequestError(uniformOrderMessages.notCollectable);
    await tx.update(uniformOrders).set({ collectedAt: new Date() }).where(tenant.byId(uniformOrders, id));
    await recordAudit(tx, auth, {
      action: 'collect',
      entity: 'uniform_order',
      entityId: id,
      after: { code: order.code },
    });
  });
  return { message: uniformOrderMessages.collected };
}

/**
 * POST /api/v1/admin/uniform-orders/:id/cancel: the order ends and its stock goes back on the
 * shelf. A pending one is released through the pipeline; a card payment is refunded to the card
 * and a desk payment to family credit (refunds.service `refundPayment`); its invoice is voided.
 * An invoice the family already paid (in part) refuses: staff issue a credit note instead.
 */
export async function cancelOrder(deps: AppDeps, auth: AuthContext, id: number) {
  const { db } = deps.database;
  const { tenant } = auth;
  const order = await orderOf(db, tenant, id);
  if (order.status === 'pending') {
    await releaseUniformOrder(deps, tenant, id, 'cancelled');
    return { message: uniformOrderMessages.cancelled };
  }
  if (order.collectedAt || (order.status !== 'confirmed' && order.status !== 'refund_due'))
    throw new BadRequestError(uniformOrderMessages.notCancellable);
  const reason = `Uniform order ${order.code} cancelled`;
  // Money first: a desk payment goes back to family credit (its invoice is then owed again and voided below).
  if (order.paymentId !== null && order.status === 'confirmed')
    await refundPayment(deps, auth, {
      paymentId: order.paymentId,
      amount: order.subtotal - order.discount,
      reason,
      destination: 'credit',
    });
  await db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(uniformOrders)
      .where(tenant.byId(uniformOrders, id))
      .for('update');
    if (!locked || locked.collectedAt || (locked.status !== 'confirmed' && locked.status !== 'refund_due'))
      throw new BadRequestError(uniformOrderMessages.notCancellable);
    if (locked.invoiceId !== null) await voidInvoice(tx, tenant, locked.invoiceId, reason);
    await tx
      .update(uniformOrders)
      .set({ status: 'cancelled', cancelledAt: new Date() })
      .where(tenant.byId(uniformOrders, id));
    // A refund_due order never took its stock (it was gone when the late payment came).
    if (locked.status === 'confirmed') await giveBackStock(tx, tenant, id);
    await recordAudit(tx, auth, {
      action: 'cancel',
      entity: 'uniform_order',
      entityId: id,
      after: { code: locked.code },
    });
  });
  for (const paid of await paymentsOfPurchase(db, tenant, { kind: 'uniform', id }))
    if (paid.refundable > 0)
      await refundPayment(deps, auth, {
        paymentId: paid.paymentId,
        amount: paid.refundable,
        reason,
        destination: 'card',
      });
  return { message: uniformOrderMessages.cancelled };
}
