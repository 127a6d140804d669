import type { FamilyStatement } from '@tumble/contracts/statement';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthContext } from '../../platform/auth.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { createBookableEvent } from '../../testing/booking-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createChild, createConfirmedBooking } from '../../testing/waiver-fixtures.ts';
import { allocatePayment, applyFamilyCredit, createInvoice, issueCreditNote } from './ledger.service.ts';
import { recordRefund } from './refunds.service.ts';

/**
 * A family's account (issue 15): the statement's lines and running balance agree with the ledger
 * (owing = the open invoices' balances; closing balance = owing − credit), and nobody reads another
 * family's account.
 */
describe("a family's statement", () => {
  let t: TestContext;
  let tenant: Tenant;
  let today: string;
  let family: { id: number; headers: Record<string, string> };
  let neighbour: { id: number; headers: Record<string, string> };
  let staff: Record<string, string>;
  let foreignStaff: Record<string, string>;
  let auth: AuthContext;

  const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db, { paymentMethod: 'test' });
    const other = await createCompany(db, { paymentMethod: 'test' });
    tenant = new Tenant(company.id);
    today = todayIn(company.timeZone);
    const parent = await createUser(db, company.id, { role: 'student', fullName: 'Pat Family' });
    family = { id: parent.id, headers: (await sessionFor(db, parent)).headers };
    const next = await createUser(db, company.id, { role: 'student', fullName: 'Nell Neighbour' });
    neighbour = { id: next.id, headers: (await sessionFor(db, next)).headers };
    const admin = await createUser(db, company.id, { role: 'companyadmin' });
    staff = (await sessionFor(db, admin)).headers;
    foreignStaff = (await sessionFor(db, await createUser(db, other.id, { role: 'companyadmin' }))).headers;
    auth = {
      sessionId: 0,
      token: '',
      userId: admin.id,
      role: 'companyadmin',
      fullName: admin.fullName,
      email: admin.email,
      tenant,
    };
  });
  afterAll(() => t.close());

  /** Each line moves the balance by its amount, from the opening balance to the closing one. */
  function expectRunningBalance(statement: FamilyStatement) {
    let balance = statement.opening_balance;
    for (const entry of statement.entries) {
      balance += entry.amount;
      expect(entry.balance, entry.description).toBe(balance);
    }
    expect(statement.closing_balance).toBe(balance);
  }

  it('lists an invoice, a cash part payment, a card payment, a credit note, a refund to the card, an overpayment kept as credit and credit used, adding up', async () => {
    const { db } = t.database;
    const { invoice } = await db.transaction((tx) =>
      createInvoice(tx, tenant, {
        parentId: family.id,
        kind: 'one_off',
        lines: [{ description: 'Gymnastics term 1', unitAmount: 20000 }],
        issueOn: today,
      }),
    );
    // Staff record $50 cash against it (the payments engineer's route).
    const cash = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/payments/record',
      headers: staff,
      payload: {
        parent_id: family.id,
        method: 'cash',
        amount: 5000,
        received_on: today,
        reference: 'Desk 1',
        invoice_ids: [invoice.id],
      },
    });
    expect(cash.statusCode, cash.body).toBe(200);
    // The parent pays $100 by card with a $1.50 card surcharge (as the invoice checkout's
    // confirmation allocates it: the invoice gets $100, the surcharge is the card's).
    const [card] = await db
      .insert(payments)
      .values(
        tenant.values({
          method: 'card' as const,
          purchaseKind: 'invoice' as const,
          provider: 'test' as const,
          providerRef: `test_statement_${Date.now()}`,
          parentId: family.id,
          amount: 10150,
          status: 'paid' as const,
          paidAt: new Date(),
        }),
      )
      .returning();
    await db.transaction((tx) =>
      allocatePayment(tx, tenant, { id: card!.id, parentId: family.id, amount: 10000 }, today, [invoice.id]),
    );
    await db.transaction((tx) =>
      issueCreditNote(tx, tenant, { invoiceId: invoice.id, amount: 3000, reason: 'Missed class' }, today),
    );
    // $40 of the card payment goes back to the card: the invoice is owed again by that much.
    await db.transaction((tx) =>
      recordRefund(tx, auth, {
        paymentId: card!.id,
        amount: 4000,
        reason: 'Sibling left',
        destination: 'card',
      }),
    );

    let statement = (
      await get(`/api/v1/admin/parents/${family.id}/statement`, staff)
    ).json() as FamilyStatement;
    // 200 − 50 − 100 − 30 + 40 = 60 owing.
    expect(statement.owing).toBe(6000);
    expect(statement.invoices).toEqual([
      expect.objectContaining({ id: invoice.id, total: 20000, paid: 11000, credited: 3000, balance: 6000 }),
    ]);
    expect(statement.entries.map((e) => [e.kind, e.amount, e.method, e.balance])).toEqual([
      ['invoice', 20000, null, 20000],
      ['payment', -5000, 'cash', 15000],
      ['purchase', 150, null, 15150],
      ['payment', -10150, 'card', 5000],
      ['credit_note', -3000, null, 2000],
      ['refund', 4000, 'card', 6000],
    ]);
    expect(statement.entries[1]).toMatchObject({
      reference: 'Desk 1',
      description: expect.stringContaining('Cash'),
    });
    expect(statement.entries[2]!.description).toBe('Card surcharge');
    expect(statement.entries[5]).toMatchObject({
      status: 'pending',
      description: 'Refund to the card: Sibling left',
    });

    // $100 cash on a $60 balance: $40 is kept as credit, then a $30 invoice uses $30 of it.
    const over = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/payments/record',
      headers: staff,
      payload: {
        parent_id: family.id,
        method: 'cash',
        amount: 10000,
        received_on: today,
        invoice_ids: [invoice.id],
      },
    });
    expect(over.statusCode, over.body).toBe(200);
    const second = await db.transaction(async (tx) => {
      const made = await createInvoice(tx, tenant, {
        parentId: family.id,
        kind: 'one_off',
        lines: [{ description: 'Uniform', unitAmount: 3000 }],
        issueOn: today,
      });
      await applyFamilyCredit(tx, tenant, made.invoice.id, today);
      return made.invoice;
    });
    // And an event booking paid by card at checkout: its charge and its payment are both listed.
    const { event } = await createBookableEvent(db, tenant.companyId);
    const child = await createChild(db, tenant.companyId, family.id);
    const { booking } = await createConfirmedBooking(db, tenant.companyId, {
      parentId: family.id,
      eventId: event.id,
      childIds: [child.id],
    });

    statement = (await get(`/api/v1/admin/parents/${family.id}/statement`, staff)).json() as FamilyStatement;
    expect(statement.owing).toBe(0);
    expect(statement.credit).toBe(1000);
    expect(statement.invoices.map((i) => [i.id, i.status, i.balance])).toEqual([
      [second.id, 'paid', 0],
      [invoice.id, 'paid', 0],
    ]);
    expect(statement.entries.slice(6).map((e) => [e.kind, e.amount, e.credit, e.balance])).toEqual([
      ['payment', -10000, 4000, -4000],
      ['invoice', 3000, 0, -1000],
      ['credit', 0, -3000, -1000],
      ['purchase', booking.total, 0, booking.total - 1000],
      ['payment', -booking.total, 0, -1000],
    ]);
    expect(statement.entries.at(-2)!.description).toContain(booking.code);
    // The running balance adds up, and ends at what is owed less the credit.
    expectRunningBalance(statement);
    expect(statement.closing_balance).toBe(statement.owing - statement.credit);
    expect(statement.owing).toBe(statement.invoices.reduce((sum, i) => sum + i.balance, 0));

    // The parent reads the same account as theirs, and their payments list shows method and refund.
    const own = (await get('/api/v1/students/statement', family.headers)).json() as FamilyStatement;
    expect(own.entries).toEqual(statement.entries);
    const paid = (await get('/api/v1/students/payments', family.headers)).json() as {
      id: number;
      method_label: string;
      refunds: { amount: number; destination: string }[];
    }[];
    expect(paid.find((p) => p.id === card!.id)).toMatchObject({
      method_label: 'Test card',
      refunds: [expect.objectContaining({ amount: 4000, destination: 'card' })],
    });
    expect(paid.filter((p) => p.method_label === 'Cash')).toHaveLength(2);

    // A period: the opening balance carries what came before it.
    const later = (
      await get(`/api/v1/admin/parents/${family.id}/statement?from=2999-01-01`, staff)
    ).json() as FamilyStatement;
    expect(later.entries).toEqual([]);
    expect(later.opening_balance).toBe(statement.closing_balance);

    const pdf = await get(`/api/v1/admin/parents/${family.id}/statement/pdf`, staff);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await get('/api/v1/students/statement/pdf', family.headers)).statusCode).toBe(200);
  });

  it("answers 404 for another company's family or a user who is not a parent, and a parent sees only their own", async () => {
    expect((await get(`/api/v1/admin/parents/${family.id}/statement`, foreignStaff)).statusCode).toBe(404);
    expect((await get(`/api/v1/admin/parents/${family.id}/statement/pdf`, foreignStaff)).statusCode).toBe(
      404,
    );
    expect((await get(`/api/v1/admin/parents/${auth.userId}/statement`, staff)).statusCode).toBe(404);
    // A parent may not use the staff route for anyone, and their own route names nobody else.
    expect((await get(`/api/v1/admin/parents/${family.id}/statement`, neighbour.headers)).statusCode).toBe(
      403,
    );
    const theirs = (await get('/api/v1/students/statement', neighbour.headers)).json() as FamilyStatement;
    expect(theirs).toMatchObject({
      family: { id: neighbour.id },
      owing: 0,
      credit: 0,
      invoices: [],
      entries: [],
    });
    expect((await get('/api/v1/students/payments', neighbour.headers)).json()).toEqual([]);
    // A period that ends before it starts is a clear 400.
    const backwards = await get(
      `/api/v1/admin/parents/${family.id}/statement?from=2030-02-01&to=2030-01-01`,
      staff,
    );
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toMatch(/./);
  });
});
