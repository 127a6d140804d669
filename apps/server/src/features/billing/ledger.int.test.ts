import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../platform/payments/payments.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { createCompany, createUser } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import {
  allocatePayment,
  applyFamilyCredit,
  createInvoice,
  issueCreditNote,
  lockFamilyAccount,
  markOverdueInvoices,
  voidInvoice,
} from './ledger.service.ts';
import { billingProfiles, invoiceLines, invoices } from './ledger.tables.ts';

describe('the ledger (ledger.service)', () => {
  let t: TestContext;
  let tenant: Tenant;
  let foreign: Tenant;
  let parentId: number;
  const today = '2030-02-01';
  const line = (cents: number, extra: { gstFree?: boolean; enrolmentId?: number } = {}) => ({
    description: 'Gymnastics term 1',
    unitAmount: cents,
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    tenant = new Tenant((await createCompany(db)).id);
    foreign = new Tenant((await createCompany(db)).id);
    parentId = (await createUser(db, tenant.companyId, { role: 'student' })).id;
  });
  afterAll(() => t.close());

  it('20 invoices issued at once get 20 consecutive numbers, and a rolled-back one gives its number back', async () => {
    const { db } = t.database;
    await db
      .insert(billingProfiles)
      .values(tenant.values({ legalName: 'Tumble Pty Ltd', invoicePrefix: 'TG-', nextInvoiceNumber: 500 }));
    await expect(
      db.transaction(async (tx) => {
        await createInvoice(tx, tenant, { parentId, kind: 'one_off', lines: [line(1000)], issueOn: today });
        throw new Error('staff closed the tab');
      }),
    ).rejects.toThrow('staff closed the tab');
    const made = await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction((tx) =>
          createInvoice(tx, tenant, { parentId, kind: 'one_off', lines: [line(2200)], issueOn: today }),
        ),
      ),
    );
    const numbers = made.map((m) => m.invoice.number!).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => 500 + i));
    expect(made.map((m) => m.invoice.code)).toContain('TG-000519');
    // Another company's sequence is its own.
    const theirParent = (await createUser(db, foreign.companyId, { role: 'student' })).id;
    const theirs = await db.transaction((tx) =>
      createInvoice(tx, foreign, {
        parentId: theirParent,
        kind: 'one_off',
        lines: [line(100)],
        issueOn: today,
      }),
    );
    expect(theirs.invoice.number).toBe(1);
  });

  it('works GST out per line, leaves GST-free lines out, and makes a sourced invoice once', async () => {
    const { db } = t.database;
    const first = await db.transaction((tx) =>
      createInvoice(tx, tenant, {
        parentId,
        kind: 'term',
        sourceKey: 'term:1:family:1',
        lines: [
          line(2200),
          line(1000, { gstFree: true }),
          { description: 'Sibling discount', unitAmount: -220 },
        ],
        issueOn: today,
      }),
    );
    expect(first.created).toBe(true);
    expect(first.invoice).toMatchObject({ total: 2980, gst: 180, status: 'issued', dueOn: '2030-02-15' });
    const again = await db.transaction((tx) =>
      createInvoice(tx, tenant, { parentId, kind: 'term', sourceKey: 'term:1:family:1', lines: [line(1)] }),
    );
    expect(again).toMatchObject({ created: false, invoice: { id: first.invoice.id, total: 2980 } });
    const lines = await db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, first.invoice.id));
    expect(lines.map((l) => l.gst)).toEqual([200, 0, -20]);
  });

  it('a payment pays the oldest invoices first and the rest becomes credit, which a later invoice uses', async () => {
    const { db } = t.database;
    const other = (await createUser(db, tenant.companyId, { role: 'student' })).id;
    const mk = (cents: number, issueOn: string) =>
      db.transaction((tx) =>
        createInvoice(tx, tenant, { parentId: other, kind: 'one_off', lines: [line(cents)], issueOn }),
      );
    const older = (await mk(3000, '2030-01-01')).invoice;
    const newer = (await mk(5000, '2030-01-20')).invoice;
    const [payment] = await db
      .insert(payments)
      .values(tenant.values({ method: 'bank_transfer', amount: 10_000, parentId: other, status: 'paid' }))
      .returning();
    const result = await db.transaction((tx) =>
      allocatePayment(tx, tenant, { id: payment!.id, parentId: other, amount: 10_000 }, today),
    );
    expect(result).toEqual({
      allocated: [
        { invoiceId: older.id, amount: 3000 },
        { invoiceId: newer.id, amount: 5000 },
      ],
      credit: 2000,
    });
    const [paid] = await db.select().from(invoices).where(eq(invoices.id, newer.id));
    expect(paid).toMatchObject({ status: 'paid', amountPaid: 5000 });
    const later = (await mk(1500, today)).invoice;
    expect(await db.transaction((tx) => applyFamilyCredit(tx, tenant, later.id, today))).toBe(1500);
    const account = await db.transaction((tx) => lockFamilyAccount(tx, tenant, other));
    expect(account.creditBalance).toBe(500);
  });

  it('a credit note lowers an issued invoice; on a paid one its excess becomes credit; void only when unpaid', async () => {
    const { db } = t.database;
    const family = (await createUser(db, tenant.companyId, { role: 'student' })).id;
    const { invoice } = await db.transaction((tx) =>
      createInvoice(tx, tenant, { parentId: family, kind: 'one_off', lines: [line(11_000)], issueOn: today }),
    );
    const [payment] = await db
      .insert(payments)
      .values(tenant.values({ method: 'eftpos', amount: 11_000, parentId: family, status: 'paid' }))
      .returning();
    await db.transaction((tx) =>
      allocatePayment(tx, tenant, { id: payment!.id, parentId: family, amount: 11_000 }, today, [invoice.id]),
    );
    const note = await db.transaction((tx) =>
      issueCreditNote(
        tx,
        tenant,
        { invoiceId: invoice.id, amount: 2_200, reason: 'Missed a week (sick)' },
        today,
      ),
    );
    expect(note).toMatchObject({ code: 'CN-000001', gst: 200, amount: 2_200 });
    const [after] = await db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(after).toMatchObject({ status: 'paid', amountPaid: 8_800, amountCredited: 2_200 });
    expect((await db.transaction((tx) => lockFamilyAccount(tx, tenant, family))).creditBalance).toBe(2_200);
    await expect(
      db.transaction((tx) =>
        issueCreditNote(tx, tenant, { invoiceId: invoice.id, amount: 9_000, reason: 'too much' }, today),
      ),
    ).rejects.toThrow('A credit note cannot be more than what is left on the invoice.');
    await expect(db.transaction((tx) => voidInvoice(tx, tenant, invoice.id, 'typo'))).rejects.toThrow(
      'issue a credit note instead',
    );
    const unpaid = await db.transaction((tx) =>
      createInvoice(tx, tenant, {
        parentId: family,
        kind: 'one_off',
        lines: [line(500, { enrolmentId: 999_001 })],
        issueOn: today,
      }),
    );
    await db.transaction((tx) => voidInvoice(tx, tenant, unpaid.invoice.id, 'billed twice'));
    // What a void invoice billed can be billed again (the once-only index ignores voided lines).
    const rebilled = await db.transaction((tx) =>
      createInvoice(tx, tenant, {
        parentId: family,
        kind: 'one_off',
        lines: [line(500, { enrolmentId: 999_001 })],
        issueOn: today,
      }),
    );
    expect(rebilled.invoice.status).toBe('issued');
  });

  it('a foreign company cannot credit or void another company’s invoice', async () => {
    const { db } = t.database;
    const { invoice } = await db.transaction((tx) =>
      createInvoice(tx, tenant, { parentId, kind: 'one_off', lines: [line(700)], issueOn: today }),
    );
    await expect(db.transaction((tx) => voidInvoice(tx, foreign, invoice.id, 'x'))).rejects.toThrow(
      'Not found',
    );
  });

  it('the daily sweep makes invoices past their due date overdue, in the company’s time zone', async () => {
    const { db } = t.database;
    const family = (await createUser(db, tenant.companyId, { role: 'student' })).id;
    const mk = (dueOn: string) =>
      db.transaction((tx) =>
        createInvoice(tx, tenant, {
          parentId: family,
          kind: 'one_off',
          lines: [line(900)],
          issueOn: '2030-01-01',
          dueOn,
        }),
      );
    const due = (await mk('2030-01-14')).invoice;
    const notYet = (await mk('2030-01-15')).invoice;
    // 13:30 UTC on the 14th is 00:30 on the 15th in Sydney: the 14th has passed there.
    expect(await markOverdueInvoices(db, new Date('2030-01-14T13:30:00Z'))).toBeGreaterThanOrEqual(1);
    const rows = await db.select().from(invoices).where(eq(invoices.parentId, family));
    expect(rows.find((r) => r.id === due.id)?.status).toBe('overdue');
    expect(rows.find((r) => r.id === notYet.id)?.status).toBe('issued');
  });
});
