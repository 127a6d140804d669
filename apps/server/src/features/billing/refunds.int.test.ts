import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthContext } from '../../platform/auth.ts';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { payments, testCheckouts, testRefunds } from '../../platform/payments/payments.tables.ts';
import { testNoticesDelivered } from '../../platform/payments/test.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createPartySetup } from '../../testing/party-fixtures.ts';
import { createChild, createConfirmedParty } from '../../testing/waiver-fixtures.ts';
import { enrolmentAdjustments } from '../classes/adjustments.tables.ts';
import { classEnrolments } from '../classes/classes.tables.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from '../classes/enrolments.tables.ts';
import { allocatePayment, createInvoice, lockFamilyAccount } from './ledger.service.ts';
import { familyCreditEntries, invoices, paymentAllocations, refunds } from './ledger.tables.ts';
import {
  paymentsOfPurchase,
  recordRefund,
  refundPayment,
  sendRefund,
  settleRefund,
} from './refunds.service.ts';

describe('refunds (refunds.service, the payments and refunds resources)', () => {
  let t: TestContext;
  let tenant: Tenant;
  let staff: AuthContext;
  let otherStaff: AuthContext;
  let foreign: AuthContext;
  let parentId: number;
  let adminHeaders: Record<string, string>;

  const authOf = (user: {
    id: number;
    companyId: number;
    role: AuthContext['role'];
    fullName: string;
    email: string;
  }) => ({
    sessionId: 0,
    token: '',
    userId: user.id,
    role: user.role,
    fullName: user.fullName,
    email: user.email,
    tenant: new Tenant(user.companyId),
  });

  /** A card payment of the test provider, paid on its card page, of `amount` cents. */
  async function cardPayment(amount: number, extra: Partial<typeof payments.$inferInsert> = {}) {
    const { db } = t.database;
    const id = `test_cs_${Math.random().toString(36).slice(2)}`;
    await db.insert(testCheckouts).values(
      tenant.values({
        id,
        reference: 'BK-TEST1',
        amount,
        currency: 'AUD',
        description: 'Holiday camp',
        returnUrl: 'http://tumble.test/',
        status: 'paid' as const,
        expiresAt: new Date(Date.now() + 3_600_000),
      }),
    );
    const [payment] = await db
      .insert(payments)
      .values(
        tenant.values({
          method: 'card' as const,
          provider: 'test' as const,
          providerRef: id,
          parentId,
          amount,
          status: 'paid' as const,
          paidAt: new Date(),
          ...extra,
        }),
      )
      .returning();
    return payment!;
  }

  const paymentRow = async (id: number) =>
    (await t.database.db.select().from(payments).where(eq(payments.id, id)))[0]!;
  const refundsOf = (paymentId: number) =>
    t.database.db.select().from(refunds).where(eq(refunds.paymentId, paymentId));

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db, { currency: 'AUD' });
    tenant = new Tenant(company.id);
    const admin = await createUser(db, company.id, { role: 'companyadmin', fullName: 'Alex Admin' });
    staff = authOf(admin);
    otherStaff = authOf(await createUser(db, company.id, { role: 'companystaff', fullName: 'Sam Staff' }));
    foreign = authOf(await createUser(db, (await createCompany(db)).id, { role: 'companyadmin' }));
    parentId = (await createUser(db, company.id, { role: 'student', fullName: 'Pat Parent' })).id;
    adminHeaders = (await sessionFor(db, admin)).headers;
  });
  afterAll(() => t.close());

  it('two staff refunding $60 of a $100 payment at the same moment: one is refunded, the other is told what is left', async () => {
    const payment = await cardPayment(10_000);
    const attempts = await Promise.allSettled(
      [staff, otherStaff, staff, otherStaff].map((auth) =>
        refundPayment(t.deps, auth, {
          paymentId: payment.id,
          amount: 6_000,
          reason: 'Camp cancelled',
          destination: 'card',
        }),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const refused of attempts.filter((a) => a.status === 'rejected'))
      expect(String((refused as PromiseRejectedResult).reason)).toContain(
        'You can refund at most $40.00 of this payment.',
      );
    await testNoticesDelivered();
    const made = await refundsOf(payment.id);
    expect(made.map((r) => [r.amount, r.status])).toEqual([[6_000, 'succeeded']]);
    expect(await paymentRow(payment.id)).toMatchObject({ status: 'paid', refunded: 6_000 });
    // The provider was asked once (one refund, its key the refund's own).
    const atProvider = await t.database.db
      .select()
      .from(testRefunds)
      .where(eq(testRefunds.paymentRef, payment.providerRef!));
    expect(atProvider.map((r) => [r.amount, r.idempotencyKey])).toEqual([[6_000, `refund-${made[0]!.id}`]]);
    expect(await paymentsOfPurchase(t.database.db, tenant, { kind: 'event', id: 0 })).toEqual([]);
  });

  it('a refund webhook delivered twice and out of order (succeeded, then pending) ends succeeded once', async () => {
    const payment = await cardPayment(5_000);
    const { id } = await t.database.db.transaction((tx) =>
      recordRefund(tx, staff, {
        paymentId: payment.id,
        amount: 2_000,
        reason: 'Missed a day',
        destination: 'card',
      }),
    );
    expect((await refundsOf(payment.id)).map((r) => r.status)).toEqual(['pending']);
    await sendRefund(t.deps, tenant, id);
    await testNoticesDelivered();
    const [settled] = await refundsOf(payment.id);
    expect(settled).toMatchObject({
      status: 'succeeded',
      providerRefundRef: expect.stringMatching(/^test_re_/),
    });
    // The same notice again, then a stale one: the provider now answers "pending".
    await settleRefund(t.deps, 'test', settled!.providerRefundRef!);
    await t.database.db
      .update(testRefunds)
      .set({ status: 'pending' })
      .where(eq(testRefunds.id, settled!.providerRefundRef!));
    await settleRefund(t.deps, 'test', settled!.providerRefundRef!);
    const after = await refundsOf(payment.id);
    expect(after.map((r) => [r.status, r.settledAt?.toISOString()])).toEqual([
      ['succeeded', settled!.settledAt!.toISOString()],
    ]);
    expect(await paymentRow(payment.id)).toMatchObject({ status: 'paid', refunded: 2_000 });
  });

  it('a refund takes its payment back from the invoice it paid; when the card refund fails the allocation is given back', async () => {
    const { db } = t.database;
    const today = todayIn('Australia/Sydney');
    // $10.13 fails at the test provider (an amount ending in 13 cents).
    const { invoice } = await db.transaction((tx) =>
      createInvoice(tx, tenant, {
        parentId,
        kind: 'one_off',
        lines: [{ description: 'Uniform', unitAmount: 1_013 }],
        issueOn: today,
      }),
    );
    const payment = await cardPayment(1_013);
    await db.transaction((tx) =>
      allocatePayment(tx, tenant, { id: payment.id, parentId, amount: 1_013 }, today, [invoice.id]),
    );
    const invoiceRow = async () => (await db.select().from(invoices).where(eq(invoices.id, invoice.id)))[0]!;
    expect(await invoiceRow()).toMatchObject({ status: 'paid', amountPaid: 1_013 });

    const { id } = await db.transaction((tx) =>
      recordRefund(tx, staff, {
        paymentId: payment.id,
        amount: 1_013,
        reason: 'Wrong size',
        destination: 'card',
      }),
    );
    // Recorded: the invoice is owed again and the payment counts as refunded while it is pending.
    expect(await refundsOf(payment.id)).toMatchObject([{ status: 'pending', invoiceId: invoice.id }]);
    expect(await invoiceRow()).toMatchObject({ amountPaid: 0 });
    expect(await paymentRow(payment.id)).toMatchObject({ status: 'refunded', refunded: 1_013 });

    await sendRefund(t.deps, tenant, id);
    await testNoticesDelivered();
    const [failed] = await refundsOf(payment.id);
    expect(failed).toMatchObject({ status: 'failed', failureReason: expect.any(String) });
    expect(await invoiceRow()).toMatchObject({ status: 'paid', amountPaid: 1_013 });
    expect(await paymentRow(payment.id)).toMatchObject({ status: 'paid', refunded: 0 });
    const allocations = await db
      .select({ kind: paymentAllocations.kind, amount: paymentAllocations.amount })
      .from(paymentAllocations)
      .where(eq(paymentAllocations.invoiceId, invoice.id));
    expect(allocations).toEqual([
      { kind: 'payment', amount: 1_013 },
      { kind: 'refund', amount: -1_013 },
      { kind: 'refund', amount: 1_013 },
    ]);
    // The company is told, once, also when the notice comes again.
    await settleRefund(t.deps, 'test', failed!.providerRefundRef!);
    const mails = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.companyId, tenant.companyId), eq(mailOutbox.kind, 'refund-failed')));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('A refund failed: $10.13 to Pat Parent');
    // What failed can be refunded again (another way).
    await refundPayment(t.deps, staff, {
      paymentId: payment.id,
      amount: 1_013,
      reason: 'Wrong size',
      destination: 'credit',
    });
    expect(await paymentRow(payment.id)).toMatchObject({ status: 'refunded', refunded: 1_013 });
  });

  it('a refund to family credit raises the family’s credit at once; a cash payment cannot go to a card', async () => {
    const { db } = t.database;
    const family = (await createUser(db, tenant.companyId, { role: 'student' })).id;
    const [cash] = await db
      .insert(payments)
      .values(
        tenant.values({
          method: 'cash' as const,
          parentId: family,
          amount: 5_000,
          reference: 'R-77',
          status: 'paid' as const,
        }),
      )
      .returning();
    await expect(
      refundPayment(t.deps, staff, { paymentId: cash!.id, amount: 1_000, reason: 'x', destination: 'card' }),
    ).rejects.toThrow('This payment was not made by card: refund it to family credit.');
    const refund = await refundPayment(t.deps, staff, {
      paymentId: cash!.id,
      amount: 2_000,
      reason: 'Class cancelled',
      destination: 'credit',
    });
    expect(refund).toMatchObject({ status: 'succeeded', destination: 'credit', amount: 2_000 });
    expect((await db.transaction((tx) => lockFamilyAccount(tx, tenant, family))).creditBalance).toBe(2_000);
    const [entry] = await db
      .select()
      .from(familyCreditEntries)
      .where(eq(familyCreditEntries.refundId, refund.id));
    expect(entry).toMatchObject({ amount: 2_000, reason: `Refund of payment #${cash!.id} (R-77)` });
    await expect(
      refundPayment(t.deps, staff, { paymentId: cash!.id, amount: 0, reason: 'x', destination: 'credit' }),
    ).rejects.toThrow('You can refund at most $30.00 of this payment.');
    await expect(
      refundPayment(t.deps, staff, { paymentId: cash!.id, amount: 100, reason: '  ', destination: 'credit' }),
    ).rejects.toThrow('Please give a reason for the refund.');
  });

  it('another company’s payment is not found, and nothing is refunded', async () => {
    const payment = await cardPayment(3_000);
    await expect(
      refundPayment(t.deps, foreign, {
        paymentId: payment.id,
        amount: 100,
        reason: 'x',
        destination: 'card',
      }),
    ).rejects.toThrow('Not found');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/payments/dispatch/refund',
      headers: (await sessionFor(t.database.db, { id: foreign.userId, companyId: foreign.tenant.companyId }))
        .headers,
      payload: { ids: [payment.id], values: { reason: 'x', destination: 'card' } },
    });
    expect(response.statusCode).toBe(404);
    expect(await refundsOf(payment.id)).toEqual([]);
  });

  it('staff refund from the payments list: an empty amount refunds what is left, then the payment is refunded', async () => {
    const payment = await cardPayment(4_000);
    const dispatch = (values: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/payments/dispatch/refund',
        headers: adminHeaders,
        payload: { ids: [payment.id], values },
      });
    const missing = await dispatch({ destination: 'card' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Reason is required.');
    const part = await dispatch({ amount: 1_500, reason: 'Sibling discount missed', destination: 'card' });
    expect(part.json()).toMatchObject({ success: true });
    expect(part.json().message).toContain('Refund of $15.00 sent to the card.');
    const rest = await dispatch({ amount: '', reason: 'Camp cancelled', destination: 'credit' });
    expect(rest.json().message).toBe('$25.00 added to the family’s credit.');
    await testNoticesDelivered();
    expect(await paymentRow(payment.id)).toMatchObject({ status: 'refunded', refunded: 4_000 });
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/refunds?filter=${encodeURIComponent(JSON.stringify({ parent_id: parentId }))}&perPage=50`,
      headers: adminHeaders,
    });
    const rows = list.json().data as { payment_id: number; status: string; destination: string }[];
    expect(rows.filter((r) => r.payment_id === payment.id).map((r) => [r.destination, r.status])).toEqual([
      ['credit', 'succeeded'],
      ['card', 'succeeded'],
    ]);
    const again = await dispatch({ amount: 100, reason: 'x', destination: 'credit' });
    expect(again.json().message).toBe('This payment has already been refunded.');
  });

  const dispatchAs = (
    headers: Record<string, string>,
    url: string,
    ids: readonly number[],
    values: Record<string, unknown> = {},
  ) => t.app.inject({ method: 'POST', url, headers, payload: { ids: [...ids], values } });

  it('a card refund the provider refused to take stays pending with the error; Send again sends it once more with the same key', async () => {
    const { db } = t.database;
    const payment = await cardPayment(3_000);
    // The provider is "down": it knows no paid checkout for this payment yet.
    await db.update(testCheckouts).set({ status: 'open' }).where(eq(testCheckouts.id, payment.providerRef!));
    const refund = await refundPayment(t.deps, staff, {
      paymentId: payment.id,
      amount: 1_200,
      reason: 'Camp day cancelled',
      destination: 'card',
    });
    expect(refund).toMatchObject({ status: 'pending', providerRefundRef: null });
    expect(refund.failureReason).toMatch(/^Not sent: /);
    // Still counted against the payment: nobody can refund it twice meanwhile.
    expect(await paymentRow(payment.id)).toMatchObject({ refunded: 1_200 });

    await db.update(testCheckouts).set({ status: 'paid' }).where(eq(testCheckouts.id, payment.providerRef!));
    const url = '/api/v1/admin/refunds/dispatch/send-again';
    const sent = await dispatchAs(adminHeaders, url, [refund.id]);
    expect(sent.json()).toEqual({
      success: true,
      message: 'The refund was sent to the card provider again.',
    });
    await testNoticesDelivered();
    const [after] = await refundsOf(payment.id);
    expect(after).toMatchObject({ status: 'succeeded', failureReason: null });
    const again = await dispatchAs(adminHeaders, url, [refund.id]);
    expect(again.json().message).toBe('Only a card refund that could not be sent can be sent again.');
    const atProvider = await db
      .select()
      .from(testRefunds)
      .where(eq(testRefunds.paymentRef, payment.providerRef!));
    expect(atProvider.map((r) => r.idempotencyKey)).toEqual([`refund-${refund.id}`]);
  });

  it('hostile values to the Refund action never answer 5xx, and a refused one refunds nothing', async () => {
    const payment = await cardPayment(2_500);
    const value = fc.oneof(
      fc.constantFrom(
        '',
        ' ',
        '-1',
        '0',
        '1e309',
        'NaN',
        '12.5',
        '<script>x</script>',
        '\u202e',
        'card',
        'credit',
        'cash',
      ),
      fc.integer(),
      fc.constantFrom(-1, 0, 0.5, 2 ** 31, 2_500, 2_501, 1e308),
      fc.string({ maxLength: 600 }),
      fc.constant(null),
      fc.boolean(),
      fc.array(fc.integer(), { maxLength: 3 }),
    );
    let refundedSoFar = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ amount: value, reason: value, destination: value }, { requiredKeys: [] }),
        fc.oneof(fc.constant([payment.id]), fc.constant([]), fc.array(fc.integer(), { maxLength: 2 })),
        async (values, ids) => {
          const before = (await refundsOf(payment.id)).length;
          const response = await dispatchAs(
            adminHeaders,
            '/api/v1/admin/payments/dispatch/refund',
            ids,
            values,
          );
          const label = `${JSON.stringify({ ids, values })} → ${response.statusCode} ${response.body}`;
          expect(response.statusCode, label).toBeLessThan(500);
          const made = await refundsOf(payment.id);
          if (response.statusCode >= 400) expect(made.length, label).toBe(before);
          refundedSoFar = made.reduce((sum, r) => sum + (r.status === 'failed' ? 0 : r.amount), 0);
          expect(refundedSoFar, label).toBeLessThanOrEqual(2_500);
        },
      ),
      { numRuns: 60, seed: 20261124 },
    );
    await testNoticesDelivered();
    expect((await paymentRow(payment.id)).refunded).toBe(refundedSoFar);
  });

  it('a party’s deposit (its card payment) is refunded from the party bookings list', async () => {
    const { db } = t.database;
    const { morning } = await createPartySetup(db, tenant.companyId);
    const child = await createChild(db, tenant.companyId, parentId);
    const { party } = await createConfirmedParty(db, tenant.companyId, {
      parentId,
      slotId: morning.id,
      childId: child.id,
      date: '2030-03-02',
    });
    const deposit = await cardPayment(10_000, { purchaseKind: 'party', purchaseId: party.id });
    await db.insert(payments).values(
      tenant.values({
        method: 'cash' as const,
        purchaseKind: 'party' as const,
        purchaseId: party.id,
        parentId,
        amount: 29_500,
        status: 'paid' as const,
      }),
    );
    const url = '/api/v1/admin/party-bookings/dispatch/refund-deposit';
    const response = await dispatchAs(adminHeaders, url, [party.id], {
      amount: 5_000,
      reason: 'Gym closed early',
      destination: 'card',
    });
    expect(response.json().message).toBe(
      'Refund of $50.00 sent to the card. It shows as pending until the card provider confirms it.',
    );
    await testNoticesDelivered();
    expect((await refundsOf(deposit.id)).map((r) => [r.amount, r.status])).toEqual([[5_000, 'succeeded']]);
    // The rest of the deposit, and no more.
    const rest = await dispatchAs(adminHeaders, url, [party.id], {
      reason: 'Gym closed',
      destination: 'card',
    });
    expect(rest.json().message).toContain('Refund of $50.00 sent to the card.');
    const none = await dispatchAs(adminHeaders, url, [party.id], { reason: 'again', destination: 'card' });
    expect(none.json().message).toBe('This party has no paid deposit left to refund.');
  });

  it('credits and refunds due: a refund due goes back to the enrolment’s card, a credit is added to family credit once', async () => {
    const { db } = t.database;
    const family = (await createUser(db, tenant.companyId, { role: 'student' })).id;
    const { termClass } = await createClassWithSessions(db, tenant.companyId, {
      coachId: null,
      dates: ['2030-02-05'],
    });
    const child = await createChild(db, tenant.companyId, family);
    const [place] = await db
      .insert(classEnrolments)
      .values(tenant.values({ termClassId: termClass.id, childId: child.id, kind: 'enrolled' as const }))
      .returning();
    const [purchase] = await db
      .insert(enrolmentPurchases)
      .values(
        tenant.values({
          parentId: family,
          reference: `ref-${place!.id}`,
          code: `EN-${place!.id}`,
          status: 'confirmed' as const,
          pricing: {},
          total: 20_000,
        }),
      )
      .returning();
    await db
      .insert(enrolmentPurchaseItems)
      .values(tenant.values({ purchaseId: purchase!.id, enrolmentId: place!.id, amount: 20_000 }));
    const payment = await cardPayment(20_000, {
      purchaseKind: 'enrolment',
      purchaseId: purchase!.id,
      parentId: family,
    });
    const adjustment = async (kind: 'refund_due' | 'credit', amount: number) =>
      (
        await db
          .insert(enrolmentAdjustments)
          .values(
            tenant.values({
              parentId: family,
              childId: child.id,
              childName: 'Mia Tester',
              termClassId: termClass.id,
              enrolmentId: place!.id,
              kind,
              amount,
              reason: 'Withdrawn from 12/02/2030',
            }),
          )
          .returning()
      )[0]!;
    const refundDue = await adjustment('refund_due', 2_000);
    const credit = await adjustment('credit', 1_500);
    const base = '/api/v1/admin/class-payments/dispatch';
    const wrongKind = await dispatchAs(adminHeaders, `${base}/refund`, [credit.id]);
    expect(wrongKind.json().message).toBe('Only an open refund due can be refunded.');
    const refunded = await dispatchAs(adminHeaders, `${base}/refund`, [refundDue.id]);
    expect(refunded.json().message).toBe('Refund of $20.00 sent to the card.');
    await testNoticesDelivered();
    expect((await refundsOf(payment.id)).map((r) => [r.amount, r.destination, r.status])).toEqual([
      [2_000, 'card', 'succeeded'],
    ]);
    const [done] = await db
      .select()
      .from(enrolmentAdjustments)
      .where(eq(enrolmentAdjustments.id, refundDue.id));
    expect(done!.status).toBe('done');
    expect((await dispatchAs(adminHeaders, `${base}/refund`, [refundDue.id])).statusCode).toBe(400);

    expect((await dispatchAs(adminHeaders, `${base}/add-credit`, [credit.id])).json().message).toBe(
      '1 credit added to family credit.',
    );
    expect((await dispatchAs(adminHeaders, `${base}/add-credit`, [credit.id])).json().message).toBe(
      'Only open family credits can be added.',
    );
    expect((await db.transaction((tx) => lockFamilyAccount(tx, tenant, family))).creditBalance).toBe(1_500);
  });
});
