import { uniformOrderMessages } from '@tumble/contracts/uniform-orders';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../platform/payments/payments.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createChild } from '../../testing/waiver-fixtures.ts';
import { invoiceLines, invoices, refunds } from '../billing/ledger.tables.ts';
import { expireLapsedPurchases } from '../checkout/checkout.ts';
import { uniformOrdersOf } from './uniform-orders.service.ts';
import { uniformOrderLines, uniformOrders } from './uniform-orders.tables.ts';
import { uniformSizes, uniformTypes } from './uniforms.tables.ts';

type Headers = Record<string, string>;

describe('uniform orders', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let other: Awaited<ReturnType<typeof createCompany>>;
  let staff: Headers;

  const parent = async (companyId = company.id) => {
    const user = await createUser(t.database.db, companyId, { role: 'student' });
    const child = await createChild(t.database.db, companyId, user.id, 'Mia');
    return { user, child, headers: (await sessionFor(t.database.db, user)).headers };
  };
  /** A uniform type with one size and its stock. */
  const size = async (
    stock: number,
    opts: { price?: number; invoiceAllowed?: boolean; companyId?: number } = {},
  ) => {
    const tenant = new Tenant(opts.companyId ?? company.id);
    const [type] = await t.database.db
      .insert(uniformTypes)
      .values(
        tenant.values({
          name: 'Club leotard',
          price: opts.price ?? 4500,
          invoiceAllowed: opts.invoiceAllowed ?? false,
        }),
      )
      .returning();
    const [row] = await t.database.db
      .insert(uniformSizes)
      .values(tenant.values({ uniformTypeId: type!.id, name: 'Child 8', stock }))
      .returning();
    return row!;
  };
  const stockOf = async (sizeId: number) =>
    (await t.database.db.select().from(uniformSizes).where(eq(uniformSizes.id, sizeId)))[0]!.stock;
  const checkout = (headers: Headers, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/v1/students/uniform-orders/checkout', headers, payload: body });
  const order = (childId: number, sizeId: number, extra: Record<string, unknown> = {}) => ({
    child_id: childId,
    size_id: sizeId,
    quantity: 1,
    pay: 'card',
    amount: 4500,
    accept_terms: true,
    ...extra,
  });
  const orderByReference = async (reference: string) =>
    (await t.database.db.select().from(uniformOrders).where(eq(uniformOrders.reference, reference)))[0]!;
  const post = (url: string, payload?: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: staff, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { paymentMethod: 'test' });
    other = await createCompany(t.database.db, { paymentMethod: 'test' });
    const desk = await createUser(t.database.db, company.id, { role: 'companystaff' });
    staff = (await sessionFor(t.database.db, desk)).headers;
  });
  afterAll(() => t.close());

  it('parents ordering the last one at once: exactly one order, the others told it is out of stock, stock never below 0', async () => {
    for (const racers of [2, 2, 6]) {
      const leotard = await size(1);
      const parents = await Promise.all(Array.from({ length: racers }, () => parent()));
      const responses = await Promise.all(
        parents.map((p) => checkout(p.headers, order(p.child.id, leotard.id))),
      );
      const statuses = responses.map((r) => r.statusCode);
      expect(
        statuses.filter((s) => s === 200),
        JSON.stringify(statuses),
      ).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(racers - 1);
      for (const refused of responses.filter((r) => r.statusCode === 409))
        expect(refused.json().message).toBe(uniformOrderMessages.outOfStock('Child 8', 0));
      expect(await stockOf(leotard.id)).toBe(0);
    }
  });

  it('pays with the test card: UO order paid, stock taken; staff mark it collected', async () => {
    const leotard = await size(5);
    const p = await parent();
    const charges = await t.app.inject({
      method: 'GET',
      url: `/api/v1/students/uniform-orders/charges?size_id=${leotard.id}&quantity=2`,
      headers: p.headers,
    });
    expect(charges.json().pricing_details.amount_due.value).toBe(9000);
    const body = (
      await checkout(p.headers, order(p.child.id, leotard.id, { quantity: 2, amount: 9000 }))
    ).json();
    expect(body).toMatchObject({ valid: true, method: 'test' });
    // The hold: stock is off the shelf while the card page is open.
    expect(await stockOf(leotard.id)).toBe(3);
    const pending = await orderByReference(body.booking_hash);
    expect(pending).toMatchObject({ status: 'pending', paidHow: 'card', amountDue: 9000 });
    expect(pending.code).toMatch(/^UO-/);
    const pay = await t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session: body.sessionId, card_number: '4242424242424242' },
    });
    expect(pay.statusCode).toBe(200);
    expect(await orderByReference(body.booking_hash)).toMatchObject({
      status: 'confirmed',
      holdExpiresAt: null,
    });
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(and(eq(payments.purchaseKind, 'uniform'), eq(payments.purchaseId, pending.id)));
    expect(payment).toMatchObject({ status: 'paid', amount: 9000 });
    expect(await stockOf(leotard.id)).toBe(3);

    const mine = (
      await t.app.inject({ method: 'GET', url: '/api/v1/students/uniform-orders', headers: p.headers })
    ).json();
    expect(mine.orders).toEqual([
      expect.objectContaining({
        code: pending.code,
        status: 'paid',
        items: 'Club leotard, Child 8 × 2',
        amount: 9000,
      }),
    ]);
    expect(mine.children).toEqual([{ id: p.child.id, name: 'Mia Tester' }]);

    expect((await post(`/api/v1/admin/uniform-orders/${pending.id}/collect`)).statusCode).toBe(200);
    const [collected] = await uniformOrdersOf(t.database.db, new Tenant(company.id), { childId: p.child.id });
    expect(collected).toMatchObject({ id: pending.id, status: 'collected' });
    // Collected once: a second collect and a cancel are refused and change nothing.
    expect((await post(`/api/v1/admin/uniform-orders/${pending.id}/collect`)).json().message).toBe(
      uniformOrderMessages.notCollectable,
    );
    expect((await post(`/api/v1/admin/uniform-orders/${pending.id}/cancel`)).statusCode).toBe(400);
    expect(await stockOf(leotard.id)).toBe(3);
  });

  it('a hold that lapses gives the stock back', async () => {
    const leotard = await size(2);
    const p = await parent();
    const body = (await checkout(p.headers, order(p.child.id, leotard.id))).json();
    expect(await stockOf(leotard.id)).toBe(1);
    await t.database.db
      .update(uniformOrders)
      .set({ holdExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(uniformOrders.reference, body.booking_hash));
    expect(await expireLapsedPurchases(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await stockOf(leotard.id)).toBe(2);
    expect((await orderByReference(body.booking_hash)).status).toBe('expired');
    const [mine] = await uniformOrdersOf(t.database.db, new Tenant(company.id), { parentId: p.user.id });
    expect(mine!.status).toBe('cancelled');
  });

  it('adds to the next invoice only where the uniform type allows it', async () => {
    const shirt = await size(4, { price: 3000 });
    const p = await parent();
    const refused = await checkout(p.headers, order(p.child.id, shirt.id, { pay: 'invoice', amount: 0 }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(uniformOrderMessages.invoiceNotAllowed);
    expect(await stockOf(shirt.id)).toBe(4);

    const allowed = await size(4, { price: 3000, invoiceAllowed: true });
    const ok = await checkout(
      p.headers,
      order(p.child.id, allowed.id, { pay: 'invoice', amount: 0, quantity: 2 }),
    );
    expect(ok.json()).toMatchObject({ valid: true });
    const placed = await orderByReference(ok.json().booking_hash);
    expect(placed).toMatchObject({ status: 'confirmed', paidHow: 'invoice' });
    expect(await stockOf(allowed.id)).toBe(2);
    const [invoice] = await t.database.db.select().from(invoices).where(eq(invoices.id, placed.invoiceId!));
    expect(invoice).toMatchObject({ parentId: p.user.id, total: 6000, status: 'issued' });
    const lines = await t.database.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoice!.id));
    expect(lines).toEqual([
      expect.objectContaining({
        purchaseKind: 'uniform',
        purchaseId: placed.id,
        quantity: 2,
        unitAmount: 3000,
      }),
    ]);
    const [mine] = await uniformOrdersOf(t.database.db, new Tenant(company.id), { parentId: p.user.id });
    expect(mine).toMatchObject({ status: 'to_be_collected', paid_how: 'invoice' });
  });

  it('the desk orders in cash through record payment; cancelling puts the stock back, refunds and voids', async () => {
    const leotard = await size(3);
    const p = await parent();
    const bad = await post('/api/v1/admin/uniform-orders', {
      parent_id: p.user.id,
      child_id: p.child.id,
      size_id: leotard.id,
      quantity: 11,
      pay: 'cash',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(uniformOrderMessages.quantity);
    const tooMany = await post('/api/v1/admin/uniform-orders', {
      parent_id: p.user.id,
      child_id: p.child.id,
      size_id: leotard.id,
      quantity: 4,
      pay: 'cash',
    });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().message).toBe(uniformOrderMessages.outOfStock('Child 8', 3));
    expect(await stockOf(leotard.id)).toBe(3);

    const made = await post('/api/v1/admin/uniform-orders', {
      parent_id: p.user.id,
      child_id: p.child.id,
      size_id: leotard.id,
      quantity: 2,
      pay: 'cash',
    });
    expect(made.statusCode).toBe(200);
    expect(await stockOf(leotard.id)).toBe(1);
    const [placed] = await t.database.db
      .select()
      .from(uniformOrders)
      .where(eq(uniformOrders.id, made.json().id));
    expect(placed).toMatchObject({ status: 'confirmed', paidHow: 'cash' });
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.id, placed!.paymentId!));
    expect(payment).toMatchObject({ method: 'cash', amount: 9000, parentId: p.user.id, status: 'paid' });
    const [invoice] = await t.database.db.select().from(invoices).where(eq(invoices.id, placed!.invoiceId!));
    expect(invoice).toMatchObject({ status: 'paid', amountPaid: 9000 });
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/v1/admin/uniform-orders', headers: staff })
    ).json();
    expect(list.orders.find((o: { id: number }) => o.id === placed!.id)).toMatchObject({
      status: 'paid',
      paid_how: 'cash',
      child_name: 'Mia Tester',
    });

    expect((await post(`/api/v1/admin/uniform-orders/${placed!.id}/cancel`)).statusCode).toBe(200);
    expect(await stockOf(leotard.id)).toBe(3);
    const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.paymentId, payment!.id));
    expect(refund).toMatchObject({ amount: 9000, destination: 'credit' });
    expect((await t.database.db.select().from(invoices).where(eq(invoices.id, invoice!.id)))[0]!.status).toBe(
      'void',
    );
    expect(
      (await t.database.db.select().from(uniformOrders).where(eq(uniformOrders.id, placed!.id)))[0]!.status,
    ).toBe('cancelled');
    // Cancelled once: a second cancel changes nothing.
    expect((await post(`/api/v1/admin/uniform-orders/${placed!.id}/cancel`)).statusCode).toBe(400);
    expect(await stockOf(leotard.id)).toBe(3);
  });

  it('staff cancel a card order: refunded to the card, stock back', async () => {
    const leotard = await size(2);
    const p = await parent();
    const body = (await checkout(p.headers, order(p.child.id, leotard.id))).json();
    await t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session: body.sessionId, card_number: '4242424242424242' },
    });
    const placed = await orderByReference(body.booking_hash);
    expect(placed.status).toBe('confirmed');
    expect((await post(`/api/v1/admin/uniform-orders/${placed.id}/cancel`)).statusCode).toBe(200);
    expect(await stockOf(leotard.id)).toBe(2);
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(and(eq(payments.purchaseKind, 'uniform'), eq(payments.purchaseId, placed.id)));
    const [refund] = await t.database.db.select().from(refunds).where(eq(refunds.paymentId, payment!.id));
    expect(refund).toMatchObject({ amount: 4500, destination: 'card' });
  });

  it('another company’s order, size, family or child answers 404 and changes nothing', async () => {
    const foreignSize = await size(5, { companyId: other.id });
    const foreigner = await parent(other.id);
    const p = await parent();
    const mine = await size(5);
    expect((await checkout(p.headers, order(p.child.id, foreignSize.id))).statusCode).toBe(404);
    expect((await checkout(p.headers, order(foreigner.child.id, mine.id))).statusCode).toBe(404);
    const body = (await checkout(foreigner.headers, order(foreigner.child.id, foreignSize.id))).json();
    const theirs = await orderByReference(body.booking_hash);
    expect((await post(`/api/v1/admin/uniform-orders/${theirs.id}/collect`)).statusCode).toBe(404);
    expect((await post(`/api/v1/admin/uniform-orders/${theirs.id}/cancel`)).statusCode).toBe(404);
    expect(
      (
        await post('/api/v1/admin/uniform-orders', {
          parent_id: foreigner.user.id,
          child_id: foreigner.child.id,
          size_id: mine.id,
          quantity: 1,
          pay: 'cash',
        })
      ).statusCode,
    ).toBe(404);
    expect(await stockOf(foreignSize.id)).toBe(4);
    expect(await stockOf(mine.id)).toBe(5);
    const lines = await t.database.db
      .select()
      .from(uniformOrderLines)
      .where(eq(uniformOrderLines.sizeId, mine.id));
    expect(lines).toHaveLength(0);
  });
});
