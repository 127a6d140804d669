import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../platform/payments/payments.tables.ts';
import { settleCheckout } from '../../platform/payments/settlement.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { expireLapsedPurchases } from '../checkout/checkout.ts';
import { surcharges } from './billing.tables.ts';
import { invoiceCheckouts } from './invoice-checkouts.tables.ts';
import { createInvoice, voidInvoice } from './ledger.service.ts';
import { familyAccounts, invoiceInstalments, invoices, paymentAllocations } from './ledger.tables.ts';

describe('a parent pays an invoice online (the pipeline’s invoice kind)', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let tenant: Tenant;
  let today: string;

  const family = async () => {
    const user = await createUser(t.database.db, company.id, { role: 'student' });
    return { user, headers: (await sessionFor(t.database.db, user)).headers };
  };

  const invoiceOf = async (parentId: number, cents: number, dueIn: number) =>
    (
      await t.database.db.transaction((tx) =>
        createInvoice(tx, tenant, {
          parentId,
          kind: 'term',
          lines: [{ description: 'Gymnastics term 1', detail: '10 sessions × $22.00', unitAmount: cents }],
          issueOn: today,
          dueOn: addDays(today, dueIn),
        }),
      )
    ).invoice;

  const page = (headers: Record<string, string>, invoiceId: number) =>
    t.app.inject({ method: 'GET', url: `/api/v1/students/invoice-payment?invoice=${invoiceId}`, headers });

  const pay = (headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/v1/students/invoice-payment/checkout', headers, payload });

  const testCard = (session: string) =>
    t.app.inject({
      method: 'POST',
      url: '/integrations/test/pay',
      payload: { session, card_number: '4242 4242 4242 4242' },
    });

  const invoiceRow = async (id: number) =>
    (await t.database.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;

  const allocationsOf = (invoiceId: number) =>
    t.database.db.select().from(paymentAllocations).where(eq(paymentAllocations.invoiceId, invoiceId));

  beforeAll(async () => {
    t = await createTestApp();
    company = await createCompany(t.database.db, { paymentMethod: 'test' });
    tenant = new Tenant(company.id);
    today = todayIn(company.timeZone);
  });
  afterAll(() => t.close());

  it('pays in full with the test card: the invoice is paid, and the webhook twice allocates once', async () => {
    const parent = await family();
    const invoice = await invoiceOf(parent.user.id, 26_400, 7);
    const offered = await page(parent.headers, invoice.id);
    expect(offered.statusCode, offered.body).toBe(200);
    // Due in 7 days: no plan is offered, only in full.
    expect(offered.json().choices.map((c: { key: string }) => c.key)).toEqual(['full']);
    expect(offered.json().invoice).toMatchObject({
      code: invoice.code,
      balance: 26_400,
      lines: [{ amount: 26_400 }],
    });

    // The client's amount is checked against the server's.
    const wrong = await pay(parent.headers, { invoice_id: invoice.id, choice: 'full', amount: 100 });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().message).toBe(
      'The amount to pay has changed to $264.00. Please check it and pay again.',
    );

    const started = await pay(parent.headers, { invoice_id: invoice.id, choice: 'full', amount: 26_400 });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ valid: true, method: 'test' });
    // A second payment of the same invoice while the first is open is refused.
    const again = await pay(parent.headers, { invoice_id: invoice.id, choice: 'full', amount: 26_400 });
    expect(again.statusCode).toBe(409);

    expect((await testCard(started.json().sessionId)).statusCode).toBe(200);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', amountPaid: 26_400 });
    const [checkoutRow] = await t.database.db
      .select()
      .from(invoiceCheckouts)
      .where(eq(invoiceCheckouts.invoiceId, invoice.id));
    expect(checkoutRow).toMatchObject({ status: 'confirmed', amount: 26_400 });
    expect(checkoutRow!.code).toMatch(/^IP-/);
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.providerRef, started.json().sessionId));
    expect(payment).toMatchObject({
      status: 'paid',
      method: 'card',
      purchaseKind: 'invoice',
      parentId: parent.user.id,
    });

    // The provider's notice delivered twice more: still one allocation.
    expect(await settleCheckout(t.app.deps, 'test', started.json().sessionId)).toBe('already');
    expect(await settleCheckout(t.app.deps, 'test', started.json().sessionId)).toBe('already');
    const allocations = await allocationsOf(invoice.id);
    expect(allocations.map((a) => [a.kind, a.paymentId, a.amount])).toEqual([
      ['payment', payment!.id, 26_400],
    ]);
    // Paid: nothing left to choose.
    expect((await page(parent.headers, invoice.id)).json()).toMatchObject({
      invoice: { status: 'paid', balance: 0 },
      choices: [],
      pending_payment: false,
    });
  });

  it('a plan of 3: three instalments 14 days apart, the first paid now, the invoice part-paid; then the next instalment', async () => {
    const parent = await family();
    // $250.01 due in 30 days: plans of 2 and 3 fit before the due date, not 4.
    const invoice = await invoiceOf(parent.user.id, 25_001, 30);
    const offered = (await page(parent.headers, invoice.id)).json();
    expect(offered.choices.map((c: { key: string }) => c.key)).toEqual(['full', 'plan_2', 'plan_3']);
    const three = offered.choices.find((c: { key: string }) => c.key === 'plan_3');
    expect(three.instalments).toEqual([
      { position: 1, due_on: today, amount: 8333, status: 'due' },
      { position: 2, due_on: addDays(today, 14), amount: 8333, status: 'due' },
      { position: 3, due_on: addDays(today, 28), amount: 8335, status: 'due' },
    ]);
    expect(three.amount_due).toBe(8333);

    const started = await pay(parent.headers, { invoice_id: invoice.id, choice: 'plan_3', amount: 8333 });
    expect(started.statusCode, started.body).toBe(200);
    await testCard(started.json().sessionId);
    const rows = await t.database.db
      .select()
      .from(invoiceInstalments)
      .where(eq(invoiceInstalments.invoiceId, invoice.id))
      .orderBy(asc(invoiceInstalments.position));
    expect(rows.map((r) => [r.position, r.amount, r.status, r.dueOn])).toEqual([
      [1, 8333, 'paid', today],
      [2, 8333, 'due', addDays(today, 14)],
      [3, 8335, 'due', addDays(today, 28)],
    ]);
    expect(rows[0]!.paymentId).not.toBeNull();
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'part_paid', amountPaid: 8333 });

    // Back on the page: the plan, and the next instalment (2 of 3) or the rest in full.
    const next = (await page(parent.headers, invoice.id)).json();
    expect(next.plan.map((i: { status: string }) => i.status)).toEqual(['paid', 'due', 'due']);
    expect(next.choices.map((c: { key: string; amount_due: number }) => [c.key, c.amount_due])).toEqual([
      ['instalment', 8333],
      ['full', 16_668],
    ]);
    // No second plan on a planned invoice.
    expect(
      (await pay(parent.headers, { invoice_id: invoice.id, choice: 'plan_2', amount: 8334 })).statusCode,
    ).toBe(400);
    const second = await pay(parent.headers, { invoice_id: invoice.id, choice: 'instalment', amount: 8333 });
    await testCard(second.json().sessionId);
    const statuses = await t.database.db
      .select({ status: invoiceInstalments.status })
      .from(invoiceInstalments)
      .where(eq(invoiceInstalments.invoiceId, invoice.id))
      .orderBy(asc(invoiceInstalments.position));
    expect(statuses.map((s) => s.status)).toEqual(['paid', 'paid', 'due']);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'part_paid', amountPaid: 16_666 });
  });

  it('a plan whose first payment never arrives is given up when its hold ends', async () => {
    const parent = await family();
    const invoice = await invoiceOf(parent.user.id, 30_000, 60);
    const started = await pay(parent.headers, { invoice_id: invoice.id, choice: 'plan_4', amount: 7500 });
    expect(started.statusCode, started.body).toBe(200);
    await t.database.db
      .update(invoiceCheckouts)
      .set({ holdExpiresAt: sql`now() - interval '1 minute'` })
      .where(eq(invoiceCheckouts.invoiceId, invoice.id));
    await expireLapsedPurchases(t.app.deps);
    const rows = await t.database.db
      .select({ status: invoiceInstalments.status })
      .from(invoiceInstalments)
      .where(eq(invoiceInstalments.invoiceId, invoice.id));
    expect(rows.map((r) => r.status)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
    // The parent may choose again.
    const offered = (await page(parent.headers, invoice.id)).json();
    expect(offered.plan).toEqual([]);
    expect(offered.choices.map((c: { key: string }) => c.key)).toContain('plan_2');
  });

  it('the card surcharge is charged but only the invoice’s amount goes on it; money for a voided invoice becomes credit', async () => {
    const { db } = t.database;
    const surcharged = await createCompany(db, { paymentMethod: 'test' });
    const theirs = new Tenant(surcharged.id);
    await db
      .insert(surcharges)
      .values(theirs.values({ name: 'Card surcharge', paymentMethod: 'test', kind: 'percent', amount: 150 }));
    const user = await createUser(db, surcharged.id, { role: 'student' });
    const headers = (await sessionFor(db, user)).headers;
    const make = async () =>
      (
        await db.transaction((tx) =>
          createInvoice(tx, theirs, {
            parentId: user.id,
            kind: 'one_off',
            lines: [{ description: 'Uniform', unitAmount: 10_000 }],
            issueOn: today,
            dueOn: addDays(today, 7),
          }),
        )
      ).invoice;
    const invoice = await make();
    const offered = (await page(headers, invoice.id)).json();
    expect(offered.choices[0].pricing_details.surcharge).toMatchObject({
      label: 'Card surcharge',
      value: 150,
    });
    expect(offered.choices[0].amount_due).toBe(10_150);
    const started = await pay(headers, { invoice_id: invoice.id, choice: 'full', amount: 10_150 });
    await testCard(started.json().sessionId);
    expect(await invoiceRow(invoice.id)).toMatchObject({ status: 'paid', amountPaid: 10_000 });

    // Voided while the parent was on the card page: the money is kept as the family's credit.
    const voided = await make();
    const late = await pay(headers, { invoice_id: voided.id, choice: 'full', amount: 10_150 });
    await db.transaction((tx) => voidInvoice(tx, theirs, voided.id, 'Billed twice'));
    await testCard(late.json().sessionId);
    const [account] = await db.select().from(familyAccounts).where(eq(familyAccounts.parentId, user.id));
    expect(account!.creditBalance).toBe(10_000);
    expect(await allocationsOf(voided.id)).toEqual([]);
    const [row] = await db.select().from(invoiceCheckouts).where(eq(invoiceCheckouts.invoiceId, voided.id));
    expect(row!.status).toBe('confirmed');
  });

  it('another family’s or another company’s invoice answers 404, a staff member 403, and nothing is written', async () => {
    const owner = await family();
    const stranger = await family();
    const invoice = await invoiceOf(owner.user.id, 12_000, 30);
    const foreign = await createCompany(t.database.db, { paymentMethod: 'test' });
    const foreignParent = (
      await sessionFor(t.database.db, await createUser(t.database.db, foreign.id, { role: 'student' }))
    ).headers;
    for (const headers of [stranger.headers, foreignParent]) {
      expect((await page(headers, invoice.id)).statusCode).toBe(404);
      const response = await pay(headers, { invoice_id: invoice.id, choice: 'full', amount: 12_000 });
      expect(response.statusCode).toBe(404);
    }
    const staff = (
      await sessionFor(t.database.db, await createUser(t.database.db, company.id, { role: 'companyadmin' }))
    ).headers;
    expect((await pay(staff, { invoice_id: invoice.id, choice: 'full', amount: 12_000 })).statusCode).toBe(
      403,
    );
    const bad = await pay(owner.headers, { invoice_id: invoice.id, choice: 'plan_9', amount: 12_000 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Please choose how to pay.');
    const rows = await t.database.db
      .select()
      .from(invoiceCheckouts)
      .where(eq(invoiceCheckouts.invoiceId, invoice.id));
    expect(rows).toEqual([]);
  });
});
