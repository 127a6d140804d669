import type { BillingRun, BillingRunPreview } from '@tumble/contracts/billing-run';
import { billingRunMessages } from '@tumble/contracts/billing-run';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { createClassWithSessions } from '../../testing/coach-fixtures.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { enrolmentAdjustments } from '../classes/adjustments.tables.ts';
import {
  classEnrolments,
  classSessions,
  classTypes,
  termClasses,
  termClosures,
} from '../classes/classes.tables.ts';
import {
  enrolmentPurchaseItems,
  enrolmentPurchases,
  enrolmentSettings,
} from '../classes/enrolments.tables.ts';
import { children } from '../students/students.tables.ts';
import { voidInvoice } from './ledger.service.ts';
import { billingRuns, familyAccounts, invoiceLines, invoices } from './ledger.tables.ts';

/** The term billing run (issue 15) through HTTP, against the real database. */
describe('the term billing run', () => {
  let t: TestContext;
  let tenant: Tenant;
  let headers: Record<string, string>;
  let termId: number;
  let kinderId: number;
  let swimId: number;
  const families: Record<'smith' | 'jones' | 'paid', number> = { smith: 0, jones: 0, paid: 0 };
  const places: Record<string, number> = {};
  // Ten Saturdays from 26 Jan 2030; 26 Jan is Australia Day: the class runs but is not charged.
  const dates = Array.from({ length: 10 }, (_, i) => {
    const d = new Date(Date.UTC(2030, 0, 26 + i * 7));
    return d.toISOString().slice(0, 10);
  });

  const get = <T>(url: string, h = headers) =>
    t.app
      .inject({ method: 'GET', url, headers: h })
      .then((r) => ({ status: r.statusCode, body: r.json() as T }));
  const post = <T>(url: string, h = headers) =>
    t.app
      .inject({ method: 'POST', url, headers: h })
      .then((r) => ({ status: r.statusCode, body: r.json() as T }));
  const preview = async (id = termId) =>
    (await get<BillingRunPreview>(`/api/v1/admin/terms/${id}/billing`)).body;
  /** Starts a run and waits for it to finish, as the page does by polling. */
  const bill = async (id = termId): Promise<BillingRun> => {
    const started = await post<BillingRun>(`/api/v1/admin/terms/${id}/billing-runs`);
    expect(started.status).toBe(200);
    return finish(started.body.id);
  };
  const finish = async (runId: number): Promise<BillingRun> => {
    for (;;) {
      const { body } = await get<BillingRun>(`/api/v1/admin/billing-runs/${runId}`);
      if (body.status !== 'running') return body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const termInvoices = () =>
    t.database.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.companyId, tenant.companyId), eq(invoices.termId, termId)))
      .orderBy(asc(invoices.id));
  const linesOf = (invoiceId: number) =>
    t.database.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoiceId))
      .orderBy(asc(invoiceLines.position));

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db, { currency: 'AUD' });
    tenant = new Tenant(company.id);
    const admin = await createUser(db, company.id, { role: 'companyadmin' });
    headers = (await sessionFor(db, admin)).headers;
    await db
      .insert(enrolmentSettings)
      .values({ companyId: company.id, siblingDiscountPercent: 10, multiClassDiscountPercent: 5 });

    // Kinder Gym: $22 a session. Swim school: a GST-free class type, $300 for the term.
    const kinder = await createClassWithSessions(db, company.id, {
      coachId: null,
      dates,
      name: 'Kinder Gym Saturday',
    });
    termId = kinder.term.id;
    kinderId = kinder.termClass.id;
    await db.update(classTypes).set({ price: 2200 }).where(eq(classTypes.id, kinder.type.id));
    await db.insert(termClosures).values(
      tenant.values({
        termId,
        startDate: '2030-01-26',
        endDate: '2030-01-26',
        reason: 'Australia Day',
        kind: 'billing_only' as const,
      }),
    );
    const [swimType] = await db
      .insert(classTypes)
      .values(tenant.values({ name: 'Swim', pricingModel: 'term' as const, price: 30000, gstFree: true }))
      .returning();
    const [swim] = await db
      .insert(termClasses)
      .values(
        tenant.values({
          termId,
          classTypeId: swimType!.id,
          name: 'Swim Saturday',
          weekday: 6,
          startTime: '09:00',
          durationMinutes: 45,
          capacity: 10,
        }),
      )
      .returning();
    swimId = swim!.id;
    await db.insert(classSessions).values(
      dates.map((date) =>
        tenant.values({
          termClassId: swimId,
          slotDate: date,
          date,
          startTime: '09:00',
          durationMinutes: 45,
        }),
      ),
    );

    const parent = async (fullName: string) =>
      (await createUser(db, company.id, { role: 'student', fullName })).id;
    families.smith = await parent('Sam Smith');
    families.jones = await parent('Jo Jones');
    families.paid = await parent('Pat Paid');
    const child = async (parentId: number, firstName: string, lastName: string) => {
      const [row] = await db
        .insert(children)
        .values(tenant.values({ parentId, firstName, lastName, dob: '2022-01-01' }))
        .returning();
      return row!.id;
    };
    const place = async (key: string, childId: number, termClassId: number, startsOn: string) => {
      const [row] = await db
        .insert(classEnrolments)
        .values(
          tenant.values({
            termClassId,
            childId,
            kind: 'enrolled' as const,
            startsOn,
            status: 'active' as const,
          }),
        )
        .returning();
      places[key] = row!.id;
      return row!;
    };
    // The Smiths: Ann from the start, Ben joined on 9 Feb (pro rata), both staff-enrolled (unpaid).
    const ann = await child(families.smith, 'Ann', 'Smith');
    const ben = await child(families.smith, 'Ben', 'Smith');
    await place('ann', ann, kinderId, '2030-01-26');
    await place('ben', ben, kinderId, '2030-02-09');
    // Staff enrolling Ann left a charge "to invoice": her priced line already bills it.
    await db.insert(enrolmentAdjustments).values(
      tenant.values({
        parentId: families.smith,
        childId: ann,
        childName: 'Ann Smith',
        termClassId: kinderId,
        enrolmentId: places.ann!,
        kind: 'charge' as const,
        amount: 19800,
        reason: 'Enrolled by staff from 26/01/2030: 9 sessions',
      }),
    );
    // The Joneses: Cal in the GST-free swim class.
    const cal = await child(families.jones, 'Cal', 'Jones');
    await place('cal', cal, swimId, '2030-01-26');
    // Pat paid for Dee's place at checkout; staff later moved her to a dearer slot (a $10 charge).
    const dee = await child(families.paid, 'Dee', 'Paid');
    await place('dee', dee, kinderId, '2030-01-26');
    const [purchase] = await db
      .insert(enrolmentPurchases)
      .values(
        tenant.values({
          parentId: families.paid,
          reference: `ref-${Date.now()}`,
          code: 'EN-PAID1',
          status: 'confirmed' as const,
          pricing: { total: 19800 },
          total: 19800,
        }),
      )
      .returning();
    await db
      .insert(enrolmentPurchaseItems)
      .values(tenant.values({ purchaseId: purchase!.id, enrolmentId: places.dee!, amount: 19800 }));
    await db.insert(enrolmentAdjustments).values(
      tenant.values({
        parentId: families.paid,
        childId: dee,
        childName: 'Dee Paid',
        termClassId: kinderId,
        enrolmentId: places.dee!,
        kind: 'charge' as const,
        amount: 1000,
        reason: 'Moved to a dearer slot',
      }),
    );
  });
  afterAll(() => t.close());

  it('previews every family with lines that explain themselves: closures, pro rata, sibling discount, GST-free', async () => {
    const plan = await preview();
    expect(plan.term.id).toBe(termId);
    const smith = plan.families.find((f) => f.parent_id === families.smith)!;
    expect(smith.family).toBe('Sam Smith');
    expect(smith.children).toEqual(['Ann Smith', 'Ben Smith']);
    expect(smith.lines.map((l) => [l.description, l.detail, l.quantity, l.unit_amount, l.amount])).toEqual([
      [
        'Kinder Gym Saturday · Ann Smith',
        '9 sessions × $22.00 · not charged: 26 Jan (Australia Day)',
        9,
        2200,
        19800,
      ],
      [
        'Kinder Gym Saturday · Ben Smith',
        '8 sessions × $22.00 · from 9 Feb (joined after the term began)',
        8,
        2200,
        17600,
      ],
      ['Sibling discount 10%', 'Second and later child · Ben Smith', 1, -1760, -1760],
    ]);
    // The staff enrolment's charge is in Ann's line, not a second line.
    expect(smith.total).toBe(19800 + 17600 - 1760);
    expect(smith.gst).toBe(1800 + 1600 - 160);

    const jones = plan.families.find((f) => f.parent_id === families.jones)!;
    expect(jones.lines).toEqual([
      {
        description: 'Swim Saturday · Cal Jones',
        detail: 'Term fee $300.00 (9 sessions) · not charged: 26 Jan (Australia Day)',
        quantity: 1,
        unit_amount: 30000,
        amount: 30000,
        gst_free: true,
        gst: 0,
      },
    ]);

    // Paid at checkout: the place is not billed again; only the later charge is.
    const paid = plan.families.find((f) => f.parent_id === families.paid)!;
    expect(paid.lines.map((l) => [l.description, l.detail, l.amount])).toEqual([
      ['Kinder Gym Saturday · Dee Paid', 'Moved to a dearer slot', 1000],
    ]);
    expect(plan.totals).toEqual({
      families: 3,
      invoices: 3,
      amount: smith.total + jones.total + paid.total,
      gst: smith.gst + jones.gst + paid.gst,
    });
    expect(plan.last_run).toBeNull();
  });

  it('issues what the preview showed, mails each family, and running it again issues nothing twice', async () => {
    const plan = await preview();
    const run = await bill();
    expect(run).toMatchObject({
      status: 'done',
      families: 3,
      processed: 3,
      issued: 3,
      total: plan.totals.amount,
    });
    const made = await termInvoices();
    expect(made).toHaveLength(3);
    expect(made.every((i) => i.status === 'issued' && i.code !== null && i.billingRunId === run.id)).toBe(
      true,
    );
    for (const family of plan.families) {
      const invoice = made.find((i) => i.parentId === family.parent_id)!;
      expect(invoice.total).toBe(family.total);
      expect(invoice.gst).toBe(family.gst);
      expect(invoice.sourceKey).toBe(`term:${termId}:family:${family.parent_id}:1`);
      const lines = await linesOf(invoice.id);
      expect(lines.map((l) => [l.description, l.detail, l.amount, l.gst, l.gstFree])).toEqual(
        family.lines.map((l) => [l.description, l.detail, l.amount, l.gst, l.gst_free]),
      );
    }
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.companyId, tenant.companyId), eq(mailOutbox.kind, 'invoice')));
    expect(mails).toHaveLength(3);
    // The adjustments are settled: billed as a line, or in a priced place.
    const open = await t.database.db
      .select()
      .from(enrolmentAdjustments)
      .where(
        and(eq(enrolmentAdjustments.companyId, tenant.companyId), eq(enrolmentAdjustments.status, 'open')),
      );
    expect(open).toEqual([]);

    expect((await preview()).totals).toEqual({ families: 0, invoices: 0, amount: 0, gst: 0 });
    const again = await bill();
    expect(again).toMatchObject({ status: 'done', families: 0, processed: 0, issued: 0, total: 0 });
    expect(await termInvoices()).toHaveLength(3);
    expect((await preview()).last_run?.id).toBe(again.id);
  });

  it('bills only what is new, and a voided invoice’s places again', async () => {
    const { db } = t.database;
    // A new child joins the Joneses' swim class on 2 Mar: 5 of the 9 charged sessions of the term fee.
    const [eve] = await db
      .insert(children)
      .values(
        tenant.values({ parentId: families.jones, firstName: 'Eve', lastName: 'Jones', dob: '2021-01-01' }),
      )
      .returning();
    await db.insert(classEnrolments).values(
      tenant.values({
        termClassId: swimId,
        childId: eve!.id,
        kind: 'enrolled' as const,
        startsOn: '2030-03-02',
      }),
    );
    const plan = await preview();
    expect(plan.families).toHaveLength(1);
    // Cal's place was invoiced already: it counts first, so Eve gets the sibling discount.
    expect(plan.families[0]!.lines.map((l) => [l.description, l.detail, l.amount, l.gst])).toEqual([
      [
        'Swim Saturday · Eve Jones',
        '5 of 9 sessions of the term fee $300.00 · from 2 Mar (joined after the term began)',
        16667,
        0,
      ],
      ['Sibling discount 10%', 'Second and later child · Eve Jones', -1667, 0],
    ]);
    const run = await bill();
    expect(run).toMatchObject({ issued: 1, total: 15000 });
    const jones = (await termInvoices()).filter((i) => i.parentId === families.jones);
    expect(jones.map((i) => i.sourceKey)).toEqual([
      `term:${termId}:family:${families.jones}:1`,
      `term:${termId}:family:${families.jones}:2`,
    ]);

    // Voiding the Smiths' invoice frees their places to be billed again, under a new source key.
    const smith = (await termInvoices()).find((i) => i.parentId === families.smith)!;
    await db.transaction((tx) => voidInvoice(tx, tenant, smith.id, 'Wrong start date'));
    const rebilled = await preview();
    expect(rebilled.families.map((f) => f.parent_id)).toEqual([families.smith]);
    expect(rebilled.families[0]!.total).toBe(smith.total);
    await bill();
    const after = (await termInvoices()).filter((i) => i.parentId === families.smith);
    expect(after.map((i) => [i.status, i.sourceKey])).toEqual([
      ['void', `term:${termId}:family:${families.smith}:1`],
      ['issued', `term:${termId}:family:${families.smith}:2`],
    ]);
  });

  it('two runs started at the same moment: one is refused with 409, nothing is issued twice', async () => {
    const { db } = t.database;
    const [fay] = await db
      .insert(children)
      .values(
        tenant.values({ parentId: families.paid, firstName: 'Fay', lastName: 'Paid', dob: '2021-01-01' }),
      )
      .returning();
    await db.insert(classEnrolments).values(
      tenant.values({
        termClassId: kinderId,
        childId: fay!.id,
        kind: 'enrolled' as const,
        startsOn: '2030-03-23',
      }),
    );
    const before = (await termInvoices()).length;
    const started = await Promise.all([
      post<BillingRun | { message: string }>(`/api/v1/admin/terms/${termId}/billing-runs`),
      post<BillingRun | { message: string }>(`/api/v1/admin/terms/${termId}/billing-runs`),
    ]);
    const ok = started.filter((s) => s.status === 200);
    const refused = started.filter((s) => s.status === 409);
    expect(ok.length + refused.length).toBe(2);
    for (const r of refused) expect(r.body).toEqual({ message: billingRunMessages.alreadyRunning });
    for (const r of ok) await finish((r.body as BillingRun).id);
    const made = (await termInvoices()).slice(before);
    expect(made).toHaveLength(1);
    const lines = await linesOf(made[0]!.id);
    expect(lines.filter((l) => l.enrolmentId !== null).map((l) => l.detail)).toEqual([
      '2 sessions × $22.00 · from 23 Mar (joined after the term began)',
    ]);
  });

  it('a second start while a run is running is refused with a plain message', async () => {
    const { db } = t.database;
    const [running] = await db
      .insert(billingRuns)
      .values(tenant.values({ termId, families: 1 }))
      .returning();
    const refused = await post<{ message: string }>(`/api/v1/admin/terms/${termId}/billing-runs`);
    expect(refused).toEqual({ status: 409, body: { message: billingRunMessages.alreadyRunning } });
    // A run cut off long ago (the server stopped) no longer blocks: it is marked failed.
    await db
      .update(billingRuns)
      .set({ startedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) })
      .where(eq(billingRuns.id, running!.id));
    const next = await post<BillingRun>(`/api/v1/admin/terms/${termId}/billing-runs`);
    expect(next.status).toBe(200);
    expect(await finish(next.body.id)).toMatchObject({ status: 'done', issued: 0 });
    const [cut] = await db.select().from(billingRuns).where(eq(billingRuns.id, running!.id));
    expect(cut).toMatchObject({ status: 'failed', error: billingRunMessages.interrupted });
  });

  it('a place moved on from a paid place bills only the difference; credit beyond the charges becomes family credit', async () => {
    // Staff move Dee (paid at checkout) to the dearer swim class from 2 Mar: 5 of 9 swim sessions
    // ($166.67) for the 5 Kinder Gym sessions she no longer comes to ($110.00).
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/term-classes/${kinderId}/class-students/transfer`,
      headers,
      payload: { enrolment_id: places.dee, to_class_id: swimId, from: '2030-03-02' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const plan = await preview();
    expect(plan.families.map((f) => f.parent_id)).toEqual([families.paid]);
    expect(plan.families[0]!.lines.map((l) => [l.description, l.amount, l.gst_free])).toEqual([
      ['Swim Saturday · Dee Paid', 16667 - 11000, true],
    ]);
    expect(plan.families[0]!.lines[0]!.detail).toMatch(/^Transferred from Kinder Gym Saturday/);

    // Staff withdraw the Smiths' Ben (invoiced) from 16 Mar: the credit is a negative line, and with
    // nothing else to bill the family keeps it as credit instead (an invoice never goes below nothing).
    const withdrawn = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/term-classes/${kinderId}/class-students/withdraw`,
      headers,
      payload: { enrolment_id: places.ben, from: '2030-03-16' },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const next = await preview();
    const smith = next.families.find((f) => f.parent_id === families.smith)!;
    expect(smith).toMatchObject({ lines: [], total: 0, credit: 3 * 2200 });
    expect(next.totals.invoices).toBe(1);
    const run = await bill();
    expect(run).toMatchObject({ status: 'done', issued: 1, total: 16667 - 11000 });
    const [account] = await t.database.db
      .select()
      .from(familyAccounts)
      .where(
        and(eq(familyAccounts.companyId, tenant.companyId), eq(familyAccounts.parentId, families.smith)),
      );
    expect(account!.creditBalance).toBe(3 * 2200);
    expect((await preview()).families).toEqual([]);
  });

  it('a failure marks the run failed with its error; the families issued before it stay issued, whole', async () => {
    const { db } = t.database;
    const newFamily = async (fullName: string, first: string) => {
      const parent = (await createUser(db, tenant.companyId, { role: 'student', fullName })).id;
      const [child] = await db
        .insert(children)
        .values(tenant.values({ parentId: parent, firstName: first, lastName: 'Fail', dob: '2021-01-01' }))
        .returning();
      await db.insert(classEnrolments).values(
        tenant.values({
          termClassId: kinderId,
          childId: child!.id,
          kind: 'enrolled' as const,
          startsOn: '2030-03-30',
        }),
      );
      return parent;
    };
    // Families are issued in name order: Abe first, then Zoe, whose invoice the database refuses.
    const abe = await newFamily('Abe Able', 'Amy');
    const zoe = await newFamily('Zoe Zed', 'Zac');
    await db.execute(
      sql.raw(`create function refuse_zoe() returns trigger language plpgsql as $$
      begin if new.parent_id = ${zoe} then raise exception 'the ledger is down'; end if; return new; end $$`),
    );
    await db.execute(
      sql.raw(
        'create trigger refuse_zoe before insert on invoices for each row execute function refuse_zoe()',
      ),
    );
    try {
      const run = await bill();
      expect(run).toMatchObject({ status: 'failed', families: 2, processed: 1, issued: 1, total: 2200 });
      expect(run.error).toBe('Billing Zoe Zed failed: the ledger is down.');
    } finally {
      await db.execute(sql.raw('drop trigger refuse_zoe on invoices; drop function refuse_zoe()'));
    }
    const byFamily = async (parentId: number) =>
      (await termInvoices()).filter((i) => i.parentId === parentId);
    expect(await byFamily(abe)).toHaveLength(1);
    expect(await byFamily(zoe)).toEqual([]);
    // Started again, the run bills what the failed one left, and Abe nothing twice.
    expect(await bill()).toMatchObject({ status: 'done', families: 1, issued: 1 });
    expect(await byFamily(abe)).toHaveLength(1);
    expect(await byFamily(zoe)).toHaveLength(1);
  });

  it('another company’s term or run answers 404, and the preview writes nothing', async () => {
    const { db } = t.database;
    const other = await createCompany(db);
    const theirs = await createClassWithSessions(db, other.id, { coachId: null, dates: ['2030-02-02'] });
    const foreignAdmin = await createUser(db, other.id, { role: 'companyadmin' });
    const foreignHeaders = (await sessionFor(db, foreignAdmin)).headers;
    expect((await get(`/api/v1/admin/terms/${theirs.term.id}/billing`)).status).toBe(404);
    expect((await post(`/api/v1/admin/terms/${theirs.term.id}/billing-runs`)).status).toBe(404);
    const [ours] = await db
      .select()
      .from(billingRuns)
      .where(eq(billingRuns.companyId, tenant.companyId))
      .limit(1);
    expect((await get(`/api/v1/admin/billing-runs/${ours!.id}`, foreignHeaders)).status).toBe(404);
    expect((await get(`/api/v1/admin/terms/${termId}/billing`, foreignHeaders)).status).toBe(404);
    const runs = await db
      .select()
      .from(billingRuns)
      .where(inArray(billingRuns.companyId, [other.id]));
    expect(runs).toEqual([]);
  });
});
