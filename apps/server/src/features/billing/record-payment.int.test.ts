import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import { createChild, createConfirmedParty } from '../../testing/waiver-fixtures.ts';
import { partyBookings } from '../parties/parties.tables.ts';
import { payPartyBalance } from '../parties/party-balance.service.ts';
import { createInvoice } from './ledger.service.ts';
import { familyAccounts, invoices, paymentAllocations } from './ledger.tables.ts';

describe('staff record a payment (POST /api/v1/admin/payments/record)', () => {
  let t: TestContext;
  let company: Awaited<ReturnType<typeof createCompany>>;
  let tenant: Tenant;
  let staff: Record<string, string>;
  let otherStaff: Record<string, string>;
  let foreignAdmin: Record<string, string>;
  let today: string;
  let slotId: number;

  /** A new family of the company. */
  const family = async () => createUser(t.database.db, company.id, { role: 'student' });

  /** An issued invoice of `parentId` for `cents`, due `dueIn` days from today. */
  const invoiceOf = async (parentId: number, cents: number, dueIn: number, on = tenant) =>
    (
      await t.database.db.transaction((tx) =>
        createInvoice(tx, on, {
          parentId,
          kind: 'one_off',
          lines: [{ description: 'Gymnastics term 1', unitAmount: cents }],
          issueOn: today,
          dueOn: addDays(today, dueIn),
        }),
      )
    ).invoice;

  const record = (headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/v1/admin/payments/record', headers, payload });

  const invoiceRow = async (id: number) =>
    (await t.database.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;

  const creditOf = async (parentId: number) =>
    (await t.database.db.select().from(familyAccounts).where(eq(familyAccounts.parentId, parentId)))[0]
      ?.creditBalance ?? 0;

  const partyOf = async (parentId: number) => {
    const child = await createChild(t.database.db, company.id, parentId);
    return (
      await createConfirmedParty(t.database.db, company.id, {
        parentId,
        slotId,
        childId: child.id,
        date: addDays(today, 30),
      })
    ).party;
  };

  /** Every table's row count, to prove a refused request wrote nothing. */
  const counts = async () =>
    (
      await t.database.db.execute<{ p: number; a: number; c: number; l: number }>(
        sql`select (select count(*) from payments)::int as p, (select count(*) from payment_allocations)::int as a,
          (select count(*) from family_credit_entries)::int as c, (select count(*) from audit_log)::int as l`,
      )
    ).rows[0];

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    company = await createCompany(db);
    tenant = new Tenant(company.id);
    today = todayIn(company.timeZone);
    slotId = (await createPartySetup(db, company.id)).morning.id;
    staff = (await sessionFor(db, await createUser(db, company.id, { role: 'companystaff' }))).headers;
    otherStaff = (await sessionFor(db, await createUser(db, company.id, { role: 'companyadmin' }))).headers;
    const foreign = await createCompany(db);
    foreignAdmin = (await sessionFor(db, await createUser(db, foreign.id, { role: 'companyadmin' }))).headers;
  });
  afterAll(() => t.close());

  it('pays the ticked invoices oldest due first and keeps the rest as the family’s credit, audited', async () => {
    const parent = await family();
    const later = await invoiceOf(parent.id, 5000, 20);
    const older = await invoiceOf(parent.id, 3000, 5);
    const untouched = await invoiceOf(parent.id, 1000, 1);
    const options = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/payments/record/options?invoice=${later.id}`,
      headers: staff,
    });
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json()).toMatchObject({
      family: { id: parent.id },
      selected: { invoice_id: later.id },
      today,
    });
    expect(options.json().invoices.map((i: { id: number }) => i.id)).toEqual([
      untouched.id,
      older.id,
      later.id,
    ]);

    // Ticked newest first: the oldest due is still paid first. $100 on $30 + $50: $20 is credit.
    const response = await record(staff, {
      parent_id: parent.id,
      method: 'cash',
      amount: 10000,
      received_on: today,
      invoice_ids: [later.id, older.id],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      valid: true,
      allocated: [
        { invoice_id: older.id, amount: 3000 },
        { invoice_id: later.id, amount: 5000 },
      ],
      credit: 2000,
    });
    expect(response.json().message).toContain('$20.00 kept as the family');
    expect(await invoiceRow(older.id)).toMatchObject({ status: 'paid', amountPaid: 3000 });
    expect(await invoiceRow(later.id)).toMatchObject({ status: 'paid', amountPaid: 5000 });
    expect(await invoiceRow(untouched.id)).toMatchObject({ status: 'issued', amountPaid: 0 });
    expect(await creditOf(parent.id)).toBe(2000);
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.id, response.json().payment_id));
    expect(payment).toMatchObject({
      method: 'cash',
      status: 'paid',
      parentId: parent.id,
      purchaseKind: null,
    });
    expect(payment!.paidAt).not.toBeNull();
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, payment!.id));
    expect(audit).toMatchObject({ entity: 'payment', action: 'record' });

    // Nothing ticked: the whole payment is credit.
    const credit = await record(staff, {
      parent_id: parent.id,
      method: 'eftpos',
      amount: 500,
      received_on: addDays(today, -3),
    });
    expect(credit.json()).toMatchObject({ allocated: [], credit: 500 });
    expect(await creditOf(parent.id)).toBe(2500);
  });

  it('takes a party’s balance down, never below nothing, also with two staff recording at once', async () => {
    const parent = await family();
    const party = await partyOf(parent.id);
    expect(party.balance).toBe(29500);
    const options = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/payments/record/options?party_booking=${party.id}`,
      headers: staff,
    });
    expect(options.json()).toMatchObject({
      family: { id: parent.id },
      parties: [{ id: party.id, balance: 29500 }],
      selected: { party_booking_id: party.id },
    });
    const pay = (headers: Record<string, string>, amount: number) =>
      record(headers, {
        parent_id: parent.id,
        method: 'cash',
        amount,
        received_on: today,
        party_booking_id: party.id,
      });
    const first = await pay(staff, 9500);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ allocated: [], credit: 0 });
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.id, first.json().payment_id));
    expect(payment).toMatchObject({ purchaseKind: 'party', purchaseId: party.id, amount: 9500 });
    // $200 left; two staff each record $150 at the same moment: one is refused.
    const both = await Promise.all([pay(staff, 15000), pay(otherStaff, 15000)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const refused = both.find((r) => r.statusCode === 400)!;
    expect(refused.json()).toMatchObject({
      message: "That is more than the party's balance of $50.00.",
      valid: false,
      error: {
        element: [{ name: 'amount', messages: ["That is more than the party's balance of $50.00."] }],
      },
    });
    const [after] = await t.database.db.select().from(partyBookings).where(eq(partyBookings.id, party.id));
    expect(after!.balance).toBe(5000);
    const partyPayments = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.purchaseId, party.id));
    expect(
      partyPayments
        .filter((p) => p.purchaseKind === 'party')
        .map((p) => p.amount)
        .sort(),
    ).toEqual([15000, 9500]);
    // A party payment is not allocated to invoices.
    const allocations = await t.database.db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentId, first.json().payment_id));
    expect(allocations).toEqual([]);
  });

  it('a second payment of a party waits for the first under the row lock and sees the lowered balance', async () => {
    const parent = await family();
    const party = await partyOf(parent.id);
    const { db } = t.database;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let firstPaid!: () => void;
    const paid = new Promise<void>((resolve) => {
      firstPaid = resolve;
    });
    // The first staff member's transaction takes $200 of the $295 and stays open a moment.
    const first = db.transaction(async (tx) => {
      await payPartyBalance(tx, tenant, party.id, 20000);
      firstPaid();
      await held;
    });
    await paid;
    // The second reads the balance while the first is still open: it must wait, then see $95.
    const second = db.transaction((tx) => payPartyBalance(tx, tenant, party.id, 20000));
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await first;
    await expect(second).rejects.toThrow("That is more than the party's balance of $95.00.");
    const [after] = await db.select().from(partyBookings).where(eq(partyBookings.id, party.id));
    expect(after!.balance).toBe(9500);
  });

  it('answers bad input with 400 and the field’s message, and writes nothing', async () => {
    const parent = await family();
    const invoice = await invoiceOf(parent.id, 2000, 10);
    const before = await counts();
    const cases: [object, string, string][] = [
      [
        { parent_id: parent.id, method: 'bank_transfer', amount: 2000, received_on: today },
        'reference',
        'Please enter the bank transfer’s reference.',
      ],
      [
        { parent_id: parent.id, method: 'voucher', amount: 2000, received_on: today, reference: ' ' },
        'reference',
        'Please enter the voucher’s code.',
      ],
      [
        { parent_id: parent.id, method: 'cash', amount: 0, received_on: today },
        'amount',
        'Please enter the amount received.',
      ],
      [
        { parent_id: parent.id, method: 'cash', amount: 12.5, received_on: today },
        'amount',
        'Please enter the amount received.',
      ],
      [
        { parent_id: parent.id, method: 'card', amount: 100, received_on: today },
        'method',
        'Please choose how it was paid.',
      ],
      [
        { method: 'cash', amount: 100, received_on: today },
        'parent_id',
        'Please choose the family who paid.',
      ],
      [
        { parent_id: parent.id, method: 'cash', amount: 100, received_on: '2030-02-30' },
        'received_on',
        'Please enter the date it was received.',
      ],
      [
        { parent_id: parent.id, method: 'cash', amount: 100, received_on: addDays(today, 1) },
        'received_on',
        'The date received cannot be in the future.',
      ],
    ];
    for (const [payload, field, message] of cases) {
      const response = await record(staff, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json(), JSON.stringify(payload)).toMatchObject({
        message,
        valid: false,
        error: { element: expect.arrayContaining([{ name: field, messages: [message] }]) },
      });
    }
    // A refusal from before the route (a control character) keeps its plain { message } shape, no 500.
    const guarded = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/payments/record?id=x%00',
      headers: staff,
      payload: {},
    });
    expect(guarded.statusCode).toBe(400);
    expect(guarded.json().message).toMatch(/./);
    // With the reference it is recorded.
    const ok = await record(staff, {
      parent_id: parent.id,
      method: 'bank_transfer',
      amount: 2000,
      received_on: today,
      reference: 'SMITH TERM1',
      invoice_ids: [invoice.id],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const after = await counts();
    expect(after!.p).toBe(before!.p + 1);
    expect((await invoiceRow(invoice.id)).status).toBe('paid');
    // A paid invoice, or another family's, cannot be ticked: 400 on the invoices, nothing written.
    const other = await family();
    const theirs = await invoiceOf(other.id, 1500, 10);
    const unchanged = await counts();
    for (const ids of [[invoice.id], [theirs.id]]) {
      const refused = await record(staff, {
        parent_id: parent.id,
        method: 'cash',
        amount: 1500,
        received_on: today,
        invoice_ids: ids,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.element[0].name).toBe('invoice_ids');
    }
    expect(await counts()).toEqual(unchanged);
    expect((await invoiceRow(theirs.id)).amountPaid).toBe(0);
  });

  it('answers 404 for another company’s family, invoice or party, and writes nothing', async () => {
    const parent = await family();
    const invoice = await invoiceOf(parent.id, 2000, 10);
    const party = await partyOf(parent.id);
    const before = await counts();
    for (const url of [
      `/api/v1/admin/payments/record/options?family=${parent.id}`,
      `/api/v1/admin/payments/record/options?invoice=${invoice.id}`,
      `/api/v1/admin/payments/record/options?party_booking=${party.id}`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url, headers: foreignAdmin });
      expect(response.statusCode, url).toBe(404);
    }
    const payloads = [
      { parent_id: parent.id, method: 'cash', amount: 100, received_on: today },
      { parent_id: parent.id, method: 'cash', amount: 100, received_on: today, invoice_ids: [invoice.id] },
      { parent_id: parent.id, method: 'cash', amount: 100, received_on: today, party_booking_id: party.id },
    ];
    for (const payload of payloads) expect((await record(foreignAdmin, payload)).statusCode).toBe(404);
    // An invoice id no company has: 404.
    const ours = await family();
    expect(
      (
        await record(staff, {
          parent_id: ours.id,
          method: 'cash',
          amount: 100,
          received_on: today,
          invoice_ids: [2_000_000_000],
        })
      ).statusCode,
    ).toBe(404);
    expect(await counts()).toEqual(before);
    expect((await invoiceRow(invoice.id)).amountPaid).toBe(0);
    const [unpaid] = await t.database.db.select().from(partyBookings).where(eq(partyBookings.id, party.id));
    expect(unpaid!.balance).toBe(29500);
  });

  it('is for staff who take bookings: a coach and a parent are refused', async () => {
    const { db } = t.database;
    const coach = (await sessionFor(db, await createUser(db, company.id, { role: 'companycoach' }))).headers;
    const parent = await family();
    const parentHeaders = (await sessionFor(db, parent)).headers;
    for (const headers of [coach, parentHeaders]) {
      const response = await record(headers, {
        parent_id: parent.id,
        method: 'cash',
        amount: 100,
        received_on: today,
      });
      expect(response.statusCode).toBe(403);
    }
  });
});
