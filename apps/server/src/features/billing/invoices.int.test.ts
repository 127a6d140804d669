import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/audit.tables.ts';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { createCompany, createUser, sessionFor } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { billingProfiles, creditNotes, invoices } from './ledger.tables.ts';

type Headers = Record<string, string>;

describe('staff invoices and the billing profile (invoices.routes)', () => {
  let t: TestContext;
  let admin: Headers;
  let parent: Headers;
  let otherParent: Headers;
  let foreignAdmin: Headers;
  let foreignParent: Headers;
  let parentId: number;
  let companyId: number;
  let today: string;

  const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
    t.app.inject({ method, url, headers, payload });
  const validProfile = {
    legal_name: 'Tumble Gym Pty Ltd',
    abn: '51 824 753 556',
    gst_registered: true,
    address: '1 Spring St, Sydney NSW 2000',
    invoice_prefix: 'TG-',
    next_invoice_number: 100,
    days_until_due: 14,
    bank_account_name: 'Tumble Gym Pty Ltd',
    bsb: '062-000',
    bank_account_number: '12345678',
    late_fee_policy: 'A $10 late fee applies 7 days after the due date.',
  };
  /** A one-off invoice through the route; answers its id. */
  const oneOff = async (issue: boolean, cents = 22_000) => {
    const response = await call('POST', '/api/v1/admin/invoices', admin, {
      parent_id: parentId,
      lines: [
        { description: 'Squad training', detail: '10 sessions × $20.00', quantity: 1, unit_amount: cents },
        { description: 'First-aid levy', quantity: 2, unit_amount: 500, gst_free: true },
      ],
      due_on: addDays(today, 10),
      notes: '',
      issue,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().id as number;
  };
  const invoiceRow = async (id: number) =>
    (await t.database.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;

  beforeAll(async () => {
    t = await createTestApp();
    const { db } = t.database;
    const company = await createCompany(db);
    companyId = company.id;
    today = todayIn(company.timeZone);
    admin = (await sessionFor(db, await createUser(db, company.id, { role: 'companyadmin' }))).headers;
    const parentUser = await createUser(db, company.id, { role: 'student', fullName: 'Pat Parent' });
    parentId = parentUser.id;
    parent = (await sessionFor(db, parentUser)).headers;
    otherParent = (await sessionFor(db, await createUser(db, company.id, { role: 'student' }))).headers;
    const foreign = await createCompany(db);
    foreignAdmin = (await sessionFor(db, await createUser(db, foreign.id, { role: 'companyadmin' }))).headers;
    foreignParent = (await sessionFor(db, await createUser(db, foreign.id, { role: 'student' }))).headers;
  });
  afterAll(() => t.close());

  it('saves the billing profile; bad input answers 400 with the field’s message and changes nothing', async () => {
    const first = await call('GET', '/api/v1/admin/billing-profile', admin);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      invoice_prefix: 'INV-',
      next_invoice_number: 1,
      days_until_due: 14,
    });
    const saved = await call('POST', '/api/v1/admin/billing-profile', admin, validProfile);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ abn: '51824753556', bsb: '062000', next_invoice_number: 100 });
    const before = await t.database.db.select().from(billingProfiles);
    for (const [change, message] of [
      [{ abn: '51 824 753 557' }, 'Please enter a valid 11-digit ABN.'],
      [{ abn: '' }, 'Please enter the ABN: GST-registered businesses must show it on tax invoices.'],
      [{ bsb: '06200' }, 'Please enter a 6-digit BSB.'],
      [{ days_until_due: 121 }, 'Days until due must be between 0 and 120.'],
      [{ legal_name: ' ' }, 'Please enter the legal name.'],
      [{ next_invoice_number: 99 }, 'The next invoice number cannot go back'],
    ] as const) {
      const refused = await call('POST', '/api/v1/admin/billing-profile', admin, {
        ...validProfile,
        ...change,
      });
      expect(refused.statusCode, JSON.stringify(change)).toBe(400);
      expect(refused.json().message).toContain(message);
    }
    expect(await t.database.db.select().from(billingProfiles)).toEqual(before);
    // Not registered for GST: no ABN needed.
    const unregistered = await call('POST', '/api/v1/admin/billing-profile', admin, {
      ...validProfile,
      abn: '',
      gst_registered: false,
    });
    expect(unregistered.statusCode).toBe(200);
    await call('POST', '/api/v1/admin/billing-profile', admin, validProfile);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entity, 'billing_profile'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toMatchObject({ action: 'update', companyId });
  });

  it('issues a draft with the next number, mails it, lists it and shows it', async () => {
    const profile = (await call('GET', '/api/v1/admin/billing-profile', admin)).json();
    const code = `${profile.invoice_prefix}${String(profile.next_invoice_number).padStart(6, '0')}`;
    const id = await oneOff(false);
    expect(await invoiceRow(id)).toMatchObject({ status: 'draft', number: null, total: 23_000 });
    const issued = await call('POST', `/api/v1/admin/invoices/${id}/issue`, admin, {});
    expect(issued.statusCode, issued.body).toBe(200);
    const row = await invoiceRow(id);
    expect(row).toMatchObject({ status: 'issued', code, issuedOn: today, gst: 2000 });
    const again = await call('POST', `/api/v1/admin/invoices/${id}/issue`, admin, {});
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This invoice has already been issued.');

    const mailed = await call('POST', `/api/v1/admin/invoices/${id}/email`, admin, {});
    expect(mailed.statusCode).toBe(200);
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'invoice'))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(mail!.subject).toContain(code);
    expect(mail!.text).toContain('$230.00');
    expect(mail!.text).toContain(`/admin/student/payment?invoice=${id}`);
    expect(mail!.text).toContain(`/admin/students/invoices/${id}/pdf`);
    if (profile.bsb) expect(mail!.text).toContain(`BSB 062-000, account 12345678, reference ${code}`);

    const list = await call('GET', `/api/v1/admin/invoices?q=${code}`, admin);
    expect(list.json()).toMatchObject({ total: 1, data: [{ id, family: 'Pat Parent', balance: 23_000 }] });
    const drafts = await call('GET', '/api/v1/admin/invoices?status=draft', admin);
    expect(drafts.json().data.every((r: { status: string }) => r.status === 'draft')).toBe(true);
    const view = await call('GET', `/api/v1/admin/invoices/${id}`, admin);
    expect(view.json()).toMatchObject({
      code,
      gst_registered: true,
      lines: [
        { description: 'Squad training', detail: '10 sessions × $20.00', gst: 2000, gst_free: false },
        { description: 'First-aid levy', quantity: 2, amount: 1000, gst: 0, gst_free: true },
      ],
    });
    const pdf = await call('GET', `/api/v1/admin/invoices/${id}/pdf`, admin);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('a credit note: not more than is left, a reason, its PDF; void only an unpaid invoice', async () => {
    const id = await oneOff(true, 11_000);
    const total = (await invoiceRow(id)).total;
    const tooMuch = await call('POST', `/api/v1/admin/invoices/${id}/credit-notes`, admin, {
      amount: total + 1,
      reason: 'Sick week',
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe('A credit note cannot be more than what is left on the invoice.');
    const noReason = await call('POST', `/api/v1/admin/invoices/${id}/credit-notes`, admin, {
      amount: 100,
      reason: '',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('Please give the reason.');
    expect(await t.database.db.select().from(creditNotes).where(eq(creditNotes.invoiceId, id))).toEqual([]);

    const credited = await call('POST', `/api/v1/admin/invoices/${id}/credit-notes`, admin, {
      amount: 2_200,
      reason: 'Missed a week (sick)',
    });
    expect(credited.statusCode, credited.body).toBe(200);
    expect(await invoiceRow(id)).toMatchObject({ amountCredited: 2_200, status: 'issued' });
    const notePdf = await call(
      'GET',
      `/api/v1/admin/credit-notes/${credited.json().credit_note_id}/pdf`,
      admin,
    );
    expect(notePdf.statusCode).toBe(200);
    // Credited: no longer void-able (a credit note stays on the record).
    const voidCredited = await call('POST', `/api/v1/admin/invoices/${id}/void`, admin, { reason: 'typo' });
    expect(voidCredited.statusCode).toBe(400);
    expect(voidCredited.json().message).toContain('issue a credit note instead');

    const unpaid = await oneOff(true);
    const noVoidReason = await call('POST', `/api/v1/admin/invoices/${unpaid}/void`, admin, { reason: ' ' });
    expect(noVoidReason.statusCode).toBe(400);
    expect((await invoiceRow(unpaid)).status).toBe('issued');
    const voided = await call('POST', `/api/v1/admin/invoices/${unpaid}/void`, admin, {
      reason: 'Billed twice',
    });
    expect(voided.statusCode).toBe(200);
    expect(await invoiceRow(unpaid)).toMatchObject({ status: 'void', voidReason: 'Billed twice' });
    const creditVoid = await call('POST', `/api/v1/admin/invoices/${unpaid}/credit-notes`, admin, {
      amount: 100,
      reason: 'x',
    });
    expect(creditVoid.statusCode).toBe(400);
    const audits = await t.database.db
      .select({ action: auditLog.action, entity: auditLog.entity })
      .from(auditLog)
      .where(sql`${auditLog.entityId} in (${id}, ${unpaid}) or ${auditLog.entity} = 'credit_note'`);
    expect(audits).toEqual(
      expect.arrayContaining([
        { action: 'issue', entity: 'credit_note' },
        { action: 'void', entity: 'invoice' },
        { action: 'create and issue', entity: 'invoice' },
      ]),
    );
  });

  it('a one-off invoice with bad input answers 400 with the field’s message and writes nothing', async () => {
    const count = async () => (await t.database.db.select().from(invoices)).length;
    const before = await count();
    const base = {
      parent_id: parentId,
      lines: [{ description: 'Leotard', quantity: 1, unit_amount: 4500 }],
      due_on: addDays(today, 7),
    };
    for (const [change, message] of [
      [{ lines: [] }, 'Please add a line.'],
      [{ lines: [{ description: '', quantity: 1, unit_amount: 4500 }] }, 'Please describe each line.'],
      [
        { lines: [{ description: 'x', quantity: 0, unit_amount: 4500 }] },
        'The quantity must be between 1 and 1000.',
      ],
      [
        { lines: [{ description: 'x', quantity: 1, unit_amount: -4500 }] },
        'An invoice cannot come to less than nothing.',
      ],
      [{ due_on: '2025-02-30' }, 'Please choose the due date.'],
      [{ due_on: addDays(today, -1) }, 'The due date cannot be in the past.'],
      [{ parent_id: 999_999 }, 'Please choose a family.'],
    ] as const) {
      const response = await call('POST', '/api/v1/admin/invoices', admin, { ...base, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    expect(await count()).toBe(before);
  });

  it('another company’s invoice is not found for its staff and parents; a parent gets only their own PDF', async () => {
    const id = await oneOff(true);
    const draft = await oneOff(false);
    const before = await t.database.db.select().from(invoices).orderBy(invoices.id);
    for (const [method, url, payload] of [
      ['GET', `/api/v1/admin/invoices/${id}`],
      ['GET', `/api/v1/admin/invoices/${id}/pdf`],
      ['POST', `/api/v1/admin/invoices/${draft}/issue`, {}],
      ['POST', `/api/v1/admin/invoices/${id}/email`, {}],
      ['POST', `/api/v1/admin/invoices/${id}/credit-notes`, { amount: 100, reason: 'x' }],
      ['POST', `/api/v1/admin/invoices/${id}/void`, { reason: 'x' }],
    ] as const) {
      const response = await call(method, url, foreignAdmin, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call('GET', `/api/v1/students/invoices/${id}/pdf`, foreignParent)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/students/invoices/${id}/pdf`, otherParent)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/students/invoices/${draft}/pdf`, parent)).statusCode).toBe(404);
    const own = await call('GET', `/api/v1/students/invoices/${id}/pdf`, parent);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('application/pdf');
    expect(await t.database.db.select().from(invoices).orderBy(invoices.id)).toEqual(before);
    const foreignList = await call('GET', '/api/v1/admin/invoices', foreignAdmin);
    expect(foreignList.json()).toEqual({ data: [], total: 0 });
    // A foreign credit note's PDF too.
    const note = await call('POST', `/api/v1/admin/invoices/${id}/credit-notes`, admin, {
      amount: 100,
      reason: 'x',
    });
    const noteUrl = `/api/v1/admin/credit-notes/${note.json().credit_note_id}/pdf`;
    expect((await call('GET', noteUrl, foreignAdmin)).statusCode).toBe(404);
  });
});
