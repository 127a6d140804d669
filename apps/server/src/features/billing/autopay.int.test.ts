import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { payments, testCharges } from '../../platform/payments/payments.tables.ts';
import {
  saveTestCard,
  TEST_CHARGE_DECLINED_CARD,
  TEST_DECLINED_CARD,
  TEST_SUCCESS_CARD,
  testNoticesDelivered,
} from '../../platform/payments/test.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, zonedInstant } from '../../platform/time.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { createChild } from '../../testing/waiver-fixtures.ts';
import { classEnrolments } from '../classes/classes.tables.ts';
import { familiesWithFailedAutopay, runAutopay } from './autopay.service.ts';
import { autopayAttempts } from './autopay.tables.ts';
import { createInvoice } from './ledger.service.ts';
import { familyAccounts, invoiceInstalments, invoices, paymentAllocations } from './ledger.tables.ts';
import { saveCardFromSetup } from './saved-card.service.ts';

const TZ = 'Australia/Sydney';
/** 9 am in the company's time zone on `date`: the injected clock of the job. */
const at = (date: string, time = '09:00') => zonedInstant(date, time, TZ);

describe('autopay (saved cards, the autopay job, failed payments)', () => {
  let t: TestContext;
  let tenant: Tenant;
  let company: Awaited<ReturnType<typeof createCompany>>;

  beforeAll(async () => {
    t = await createTestApp();
  });
  // Each test its own company: the job runs for every company, and the dates of one test's
  // instalments must not meet another's.
  beforeEach(async () => {
    company = await createCompany(t.database.db, {
      paymentMethod: 'test',
      timeZone: TZ,
      currency: 'AUD',
      email: 'office@gym.example',
    });
    tenant = new Tenant(company.id);
  });
  afterEach(async () => {
    await t.database.db.update(familyAccounts).set({ autopay: false });
  });
  afterAll(() => t.close());

  /** A parent who saved `card` on the test card page through the real routes, autopay on. */
  async function familyWithCard(card: string, autopay = true) {
    const { db } = t.database;
    const parent = await createUser(db, company.id, { role: 'student', fullName: 'Pat Parent' });
    const headers = (await sessionFor(db, parent)).headers;
    const started = await t.app.inject({ method: 'POST', url: '/api/v1/students/saved-card/setup', headers });
    expect(started.statusCode, started.body).toBe(200);
    const { sessionId, payment_link } = started.json() as { sessionId: string; payment_link: string };
    expect(payment_link).toContain(`/payments/test?session=${sessionId}`);
    const saved = await t.app.inject({
      method: 'POST',
      url: '/integrations/test/save-card',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ session: sessionId, card_number: card }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await testNoticesDelivered();
    if (autopay) {
      const on = await t.app.inject({
        method: 'POST',
        url: '/api/v1/students/saved-card/autopay',
        headers,
        payload: { autopay: true },
      });
      expect(on.json()).toMatchObject({ autopay: true });
    }
    return { parent, headers, sessionId };
  }

  async function invoiceFor(parentId: number, cents: number, dueOn: string, instalments: number[] = []) {
    const { db } = t.database;
    const { invoice } = await db.transaction((tx) =>
      createInvoice(tx, tenant, {
        parentId,
        kind: 'one_off',
        lines: [{ description: 'Gymnastics term 1', unitAmount: cents }],
        issueOn: addDays(dueOn, -14),
        dueOn,
      }),
    );
    const plan = instalments.length
      ? await db
          .insert(invoiceInstalments)
          .values(
            instalments.map((amount, position) =>
              tenant.values({
                invoiceId: invoice.id,
                position,
                amount,
                dueOn: addDays(dueOn, position * 14),
              }),
            ),
          )
          .returning()
      : [];
    return { invoice, plan };
  }

  /** Every charge the test provider made for this test's company (each test has its own). */
  const chargesOf = () =>
    t.database.db.select().from(testCharges).where(eq(testCharges.companyId, company.id));
  const attemptsOf = (where: { instalmentId?: number; invoiceId?: number }) =>
    t.database.db
      .select()
      .from(autopayAttempts)
      .where(
        where.instalmentId
          ? eq(autopayAttempts.instalmentId, where.instalmentId)
          : eq(autopayAttempts.invoiceId, where.invoiceId!),
      )
      .orderBy(asc(autopayAttempts.attempt));
  const mailsTo = (to: string, kind: string) =>
    t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, to), eq(mailOutbox.kind, kind)))
      .orderBy(asc(mailOutbox.id));

  it('a parent saves a card, turns autopay on, and removes it (autopay goes off); no card, no autopay', async () => {
    const { db } = t.database;
    const parent = await createUser(db, company.id, { role: 'student' });
    const headers = (await sessionFor(db, parent)).headers;
    const get = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/students/saved-card', headers })).json();
    expect(await get()).toEqual({ card: null, autopay: false });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/students/saved-card/autopay',
      headers,
      payload: { autopay: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Save a card first to pay automatically.');

    // The card page refuses the declined card: nothing is saved.
    const started = await t.app.inject({ method: 'POST', url: '/api/v1/students/saved-card/setup', headers });
    const { sessionId } = started.json() as { sessionId: string };
    const declined = await t.app.inject({
      method: 'POST',
      url: '/integrations/test/save-card',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ session: sessionId, card_number: TEST_DECLINED_CARD }),
    });
    expect(declined.statusCode).toBe(402);
    const back = await t.app.inject({ method: 'POST', url: '/api/v1/students/saved-card/return', headers });
    expect(back.json()).toMatchObject({ saved: false, card: null });

    // The provider's notice was lost: coming back to the page saves the card all the same.
    expect((await saveTestCard(db, tenant, sessionId, TEST_SUCCESS_CARD)).outcome).toBe('saved');
    const returned = await t.app.inject({
      method: 'POST',
      url: '/api/v1/students/saved-card/return',
      headers,
    });
    expect(returned.json()).toMatchObject({
      saved: true,
      card: { brand: 'visa', last4: '4242' },
      autopay: false,
    });

    const on = await t.app.inject({
      method: 'POST',
      url: '/api/v1/students/saved-card/autopay',
      headers,
      payload: { autopay: true },
    });
    expect(on.json()).toMatchObject({ autopay: true, card: { last4: '4242' } });
    const removed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/students/saved-card/remove',
      headers,
    });
    expect(removed.json()).toEqual({ card: null, autopay: false });
  });

  it('a card setup notice saves the card once; a late notice of an older setup keeps the newer card', async () => {
    const { db } = t.database;
    const parent = await createUser(db, company.id, { role: 'student' });
    const headers = (await sessionFor(db, parent)).headers;
    const start = async () =>
      (
        (
          await t.app.inject({ method: 'POST', url: '/api/v1/students/saved-card/setup', headers })
        ).json() as {
          sessionId: string;
        }
      ).sessionId;
    // The first setup finishes at the provider, but its notice is late…
    const first = await start();
    expect((await saveTestCard(db, tenant, first, TEST_SUCCESS_CARD)).outcome).toBe('saved');
    // …a second setup, with another card, is saved meanwhile (its notice arrives at once).
    const second = await start();
    await t.app.inject({
      method: 'POST',
      url: '/integrations/test/save-card',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ session: second, card_number: TEST_CHARGE_DECLINED_CARD }),
    });
    await testNoticesDelivered();
    // The first setup's late notice, then the second's again: the newer card stays, saved once.
    await saveCardFromSetup(t.deps, 'test', first);
    await saveCardFromSetup(t.deps, 'test', second);
    const card = (await t.app.inject({ method: 'GET', url: '/api/v1/students/saved-card', headers })).json();
    expect(card.card.last4).toBe('0341');
  });

  it('retries a declined instalment on days 3, 5 and 8, mails each failure, then it is overdue and the company is told', async () => {
    const { db } = t.database;
    const { parent } = await familyWithCard(TEST_CHARGE_DECLINED_CARD);
    const { invoice, plan } = await invoiceFor(parent.id, 30_000, '2030-03-01', [15_000, 15_000]);
    const instalment = plan[0]!;
    const days: string[] = [];
    for (let day = '2030-02-27'; day <= '2030-03-12'; day = addDays(day, 1)) {
      const before = (await attemptsOf({ instalmentId: instalment.id })).length;
      // Twice a day: the second run of a day never tries again.
      await runAutopay(t.deps, at(day));
      await runAutopay(t.deps, at(day, '17:30'));
      const after = await attemptsOf({ instalmentId: instalment.id });
      if (after.length > before) days.push(...after.slice(before).map((a) => a.attemptedOn));
    }
    expect(days).toEqual(['2030-03-01', '2030-03-04', '2030-03-06', '2030-03-09']);
    const attempts = await attemptsOf({ instalmentId: instalment.id });
    expect(attempts.map((a) => [a.status, a.nextAttemptOn])).toEqual([
      ['failed', '2030-03-04'],
      ['failed', '2030-03-06'],
      ['failed', '2030-03-09'],
      ['failed', null],
    ]);
    // One provider charge per attempt.
    expect(await chargesOf()).toHaveLength(4);

    const failures = await mailsTo(parent.email, 'autopay-failed');
    expect(failures).toHaveLength(4);
    expect(failures[0]!.text).toContain('Your card was declined.');
    expect(failures[0]!.text).toContain('We will try again on 04/03/2030');
    expect(failures[0]!.text).toContain('instalment 1 of 2 of invoice INV-');
    expect(failures[3]!.text).toContain('That was our last try');
    // The update-your-card link: sign in, then the saved-card page.
    expect(failures[0]!.text).toContain(
      `/admin/students/login?authhash=${company.authhash}&redirect=%2Fadmin%2Fstudents%2Fcard`,
    );

    const [stored] = await db
      .select()
      .from(invoiceInstalments)
      .where(eq(invoiceInstalments.id, instalment.id));
    expect(stored).toMatchObject({ status: 'failed', attempts: 4, nextAttemptOn: null });
    const [overdue] = await db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(overdue!.status).toBe('overdue');
    const staff = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.companyId, company.id), eq(mailOutbox.kind, 'autopay-failed-staff')));
    expect(staff.map((m) => m.subject)).toContain(`Autopay failed for Pat Parent, invoice ${invoice.code}`);
    expect(staff.filter((m) => m.subject.includes(invoice.code!))).toHaveLength(1);
    expect(await familiesWithFailedAutopay(db, tenant, [parent.id])).toEqual(new Set([parent.id]));
    // The discreet flag on the child's roll entry.
    const child = await createChild(db, company.id, parent.id, 'Ava');
    const other = await createChild(
      db,
      company.id,
      (await createUser(db, company.id, { role: 'student' })).id,
      'Ben',
    );
    const { sessions, termClass } = await createClassWithSessions(db, company.id, {
      coachId: null,
      dates: ['2030-03-10'],
    });
    for (const kid of [child, other])
      await db
        .insert(classEnrolments)
        .values(tenant.values({ termClassId: termClass.id, childId: kid.id, kind: 'enrolled' as const }));
    const admin = (await sessionFor(db, await createUser(db, company.id, { role: 'companyadmin' }))).headers;
    const rollFlags = async () => {
      const roll = await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/roll/${sessions[0]!.id}`,
        headers: admin,
      });
      return Object.fromEntries(
        (roll.json().children as { first_name: string; payment_overdue: boolean }[]).map((c) => [
          c.first_name,
          c.payment_overdue,
        ]),
      );
    };
    expect(await rollFlags()).toEqual({ Ava: true, Ben: false });

    // A new card: the failed instalment is charged on the next run, and the flag goes.
    const { headers } = { headers: (await sessionFor(db, parent)).headers };
    const started = await t.app.inject({ method: 'POST', url: '/api/v1/students/saved-card/setup', headers });
    await t.app.inject({
      method: 'POST',
      url: '/integrations/test/save-card',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ session: started.json().sessionId, card_number: TEST_SUCCESS_CARD }),
    });
    await testNoticesDelivered();
    await runAutopay(t.deps, at('2030-03-13'));
    const [paid] = await db.select().from(invoiceInstalments).where(eq(invoiceInstalments.id, instalment.id));
    expect(paid!.status).toBe('paid');
    expect(await familiesWithFailedAutopay(db, tenant, [parent.id])).toEqual(new Set());
    expect(await rollFlags()).toEqual({ Ava: false, Ben: false });
  });

  it('charges an invoice on its due date: paid, allocated once, a receipt; nothing more on later runs', async () => {
    const { db } = t.database;
    const { parent } = await familyWithCard(TEST_SUCCESS_CARD);
    const { invoice } = await invoiceFor(parent.id, 12_345, '2030-04-01');
    expect(await runAutopay(t.deps, at('2030-03-31'))).toEqual({ charged: 0, failed: 0 });
    expect(await runAutopay(t.deps, at('2030-04-01'))).toMatchObject({ charged: 1 });
    await runAutopay(t.deps, at('2030-04-01', '18:00'));
    await runAutopay(t.deps, at('2030-04-05'));
    const [after] = await db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(after).toMatchObject({ status: 'paid', amountPaid: 12_345 });
    const allocations = await db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.invoiceId, invoice.id));
    expect(allocations).toHaveLength(1);
    const [payment] = await db.select().from(payments).where(eq(payments.id, allocations[0]!.paymentId!));
    expect(payment).toMatchObject({
      method: 'card',
      provider: 'test',
      parentId: parent.id,
      status: 'paid',
      amount: 12_345,
    });
    const [charge] = await db.select().from(testCharges).where(eq(testCharges.id, payment!.providerRef!));
    expect(charge).toMatchObject({ amount: 12_345, status: 'paid' });
    const receipts = await mailsTo(parent.email, 'autopay-receipt');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.text).toContain(`invoice ${invoice.code}`);

    // An instalment plan: the first instalment paid, the invoice part-paid, the second not yet.
    const planned = await invoiceFor(parent.id, 20_000, '2030-05-01', [10_000, 10_000]);
    await runAutopay(t.deps, at('2030-05-01'));
    const [partPaid] = await db.select().from(invoices).where(eq(invoices.id, planned.invoice.id));
    expect(partPaid).toMatchObject({ status: 'part_paid', amountPaid: 10_000 });
    const rows = await db
      .select()
      .from(invoiceInstalments)
      .where(eq(invoiceInstalments.invoiceId, planned.invoice.id))
      .orderBy(asc(invoiceInstalments.position));
    expect(rows.map((r) => r.status)).toEqual(['paid', 'due']);
  });

  it('leaves an invoice alone while the parent is paying it by card', async () => {
    const { parent, headers } = await familyWithCard(TEST_SUCCESS_CARD);
    const { invoice } = await invoiceFor(parent.id, 5_000, '2030-09-01');
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/v1/students/invoice-payment/checkout',
      headers,
      payload: { invoice_id: invoice.id, choice: 'full', amount: 5_000 },
    });
    expect(checkout.json(), checkout.body).toMatchObject({ valid: true });
    expect(await runAutopay(t.deps, at('2030-09-01'))).toEqual({ charged: 0, failed: 0 });
    expect(await chargesOf()).toHaveLength(0);
  });

  it('two processes running the job at the same moment charge each instalment exactly once', async () => {
    const { db } = t.database;
    const due = '2030-06-01';
    const families = await Promise.all(Array.from({ length: 4 }, () => familyWithCard(TEST_SUCCESS_CARD)));
    const plans = [];
    for (const { parent } of families)
      plans.push(await invoiceFor(parent.id, 9_000, due, [3_000, 3_000, 3_000]));
    const processes = [
      connectDatabase(t.databaseUrl, { max: 4 }),
      connectDatabase(t.databaseUrl, { max: 4 }),
    ];
    try {
      const results = await Promise.all(
        processes.map((database) => runAutopay({ ...t.deps, database } satisfies AppDeps, at(due))),
      );
      expect(results[0]!.charged + results[1]!.charged).toBe(4);
    } finally {
      await Promise.all(processes.map((p) => p.close()));
    }
    for (const { invoice, plan } of plans) {
      expect(await attemptsOf({ instalmentId: plan[0]!.id })).toHaveLength(1);
      const allocations = await db
        .select()
        .from(paymentAllocations)
        .where(eq(paymentAllocations.invoiceId, invoice.id));
      expect(allocations.map((a) => a.amount)).toEqual([3_000]);
    }
    // Exactly one provider charge per instalment: four in all.
    expect(await chargesOf()).toHaveLength(4);
    for (const { parent } of families) expect(await mailsTo(parent.email, 'autopay-receipt')).toHaveLength(1);
  });

  it('a run that crashed after claiming and charging is finished by a later run with the same key: one charge', async () => {
    const { db } = t.database;
    const due = '2030-07-01';
    const { parent, headers } = await familyWithCard(TEST_SUCCESS_CARD);
    const { invoice, plan } = await invoiceFor(parent.id, 8_000, due, [4_000, 4_000]);
    // Another transaction holds the invoice (not its key: the claim's foreign key check passes), so
    // recording the charge times out: the run "crashes" after its attempt row was committed and the
    // provider charged.
    const blocker = await t.database.pool.connect();
    const crashing = connectDatabase(t.databaseUrl, { max: 2, lockTimeoutMs: 200 });
    try {
      await blocker.query('begin');
      await blocker.query('select id from invoices where id = $1 for no key update', [invoice.id]);
      const crashed = await runAutopay({ ...t.deps, database: crashing }, at(due));
      expect(crashed).toEqual({ charged: 0, failed: 0 });
    } finally {
      await blocker.query('rollback');
      blocker.release();
      await crashing.close();
    }
    const [pending] = await attemptsOf({ instalmentId: plan[0]!.id });
    expect(pending!.status).toBe('pending');
    expect(await chargesOf()).toHaveLength(1);

    // A minute later the claim is still fresh (it could be another worker's charge in flight): left alone.
    expect(await runAutopay(t.deps, new Date(at(due).getTime() + 60_000))).toEqual({ charged: 0, failed: 0 });
    // Meanwhile the family removed the card (autopay goes off with it): the charge the provider may
    // have made must still be recorded.
    await t.app.inject({ method: 'POST', url: '/api/v1/students/saved-card/remove', headers });
    // Later, the claim is a crashed run's: taken over with the same key and card; the provider
    // charges nothing more.
    expect(await runAutopay(t.deps, new Date(at(due).getTime() + 15 * 60_000))).toMatchObject({ charged: 1 });
    const attempts = await attemptsOf({ instalmentId: plan[0]!.id });
    expect(attempts.map((a) => [a.attempt, a.status, a.idempotencyKey])).toEqual([
      [1, 'paid', pending!.idempotencyKey],
    ]);
    expect(await chargesOf()).toHaveLength(1);
    const allocations = await db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.invoiceId, invoice.id));
    expect(allocations.map((a) => a.amount)).toEqual([4_000]);
  });
});
