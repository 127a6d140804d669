import { accountingDefaults, accountingMessages } from '@tumble/contracts/accounting';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../../platform/payments/payments.tables.ts';
import { Tenant } from '../../../platform/tenancy.ts';
import { todayIn } from '../../../platform/time.ts';
import { createCompany, createUser, sessionFor } from '../../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../../testing/harness.ts';
import {
  allocatePayment,
  createInvoice,
  issueCreditNote,
  refreshInvoice,
  voidInvoice,
} from '../ledger.service.ts';
import { paymentAllocations, refunds } from '../ledger.tables.ts';
import { syncConnectedCompanies } from './accounting.service.ts';
import { accountingSettings } from './accounting.tables.ts';
import { startXeroStub, type XeroStub, xeroStubEnv } from './testing/xero-stub.ts';

describe('accounting export: Xero API sync against a local stub', () => {
  let stub: XeroStub;
  let t: TestContext;
  let tenant: Tenant;
  let admin: Record<string, string>;
  let otherAdmin: Record<string, string>;
  let parentId: number;
  let today: string;
  const path = '/api/v1/admin/integrations/accounting';

  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, payload: method === 'POST' ? (payload ?? {}) : undefined });
  const status = async (headers = admin) => (await call('GET', path, undefined, headers)).json();
  const sync = async () => {
    const response = await call('POST', `${path}/sync`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { sent: number; failed: number; message: string };
  };
  const saveSettings = (changes: Partial<Record<keyof typeof accountingDefaults, string>>) =>
    call('POST', path, { ...accountingDefaults, sync_from: '2020-01-01', ...changes });

  /** An issued invoice of the family: a taxed line and a GST-free one. */
  const invoice = (cents: number) =>
    t.database.db.transaction(
      async (tx) =>
        (
          await createInvoice(tx, tenant, {
            parentId,
            kind: 'one_off',
            issueOn: today,
            lines: [
              { description: 'Gymnastics term 1', unitAmount: cents },
              {
                description: 'Competition fee',
                detail: 'GST-free by class type',
                unitAmount: 1100,
                gstFree: true,
              },
            ],
          })
        ).invoice,
    );

  /** Cash taken by staff and allocated to the family's invoices. */
  const cashPayment = (cents: number, invoiceIds?: number[]) =>
    t.database.db.transaction(async (tx) => {
      const [payment] = await tx
        .insert(payments)
        .values(
          tenant.values({
            method: 'cash' as const,
            amount: cents,
            status: 'paid' as const,
            parentId,
            paidAt: new Date(),
            reference: 'R-1',
          }),
        )
        .returning();
      await allocatePayment(tx, tenant, { id: payment!.id, parentId, amount: cents }, today, invoiceIds);
      return payment!;
    });

  beforeAll(async () => {
    stub = await startXeroStub();
    t = await createTestApp(xeroStubEnv(stub));
    const { db } = t.database;
    const company = await createCompany(db, { timeZone: 'Australia/Sydney' });
    tenant = new Tenant(company.id);
    admin = (await sessionFor(db, await createUser(db, company.id, { role: 'companyadmin' }))).headers;
    parentId = (await createUser(db, company.id, { role: 'student', fullName: 'Sam Parent' })).id;
    const other = await createCompany(db);
    otherAdmin = (await sessionFor(db, await createUser(db, other.id, { role: 'companyadmin' }))).headers;
    today = todayIn('Australia/Sydney');
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  it('connects through the authorisation code flow, keeps the tokens sealed, and reads the organisation', async () => {
    expect((await status()).connection).toMatchObject({ state: 'not_connected', available: true });
    const started = await call('POST', `${path}/connect`);
    expect(started.statusCode, started.body).toBe(200);
    const authorize = new URL(started.json().url);
    expect(authorize.pathname).toBe('/identity/connect/authorize');
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://tumble.test/integrations/xero/callback');
    expect(authorize.searchParams.get('scope')).toContain('offline_access');
    const state = authorize.searchParams.get('state')!;

    // A forged state is refused and connects nothing.
    const forged = await t.app.inject({
      method: 'GET',
      url: `/integrations/xero/callback?code=good-code&state=forged`,
    });
    expect(forged.headers.location).toContain('error=');

    const back = await t.app.inject({
      method: 'GET',
      url: `/integrations/xero/callback?code=good-code&state=${state}`,
    });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/admin/integrations/accounting?connected=1');
    const connected = await status();
    expect(connected.connection).toMatchObject({ state: 'connected', organisation: 'Tumble Gym (Xero)' });
    const [row] = await t.database.db
      .select()
      .from(accountingSettings)
      .where(tenant.where(accountingSettings));
    expect(row!.xeroTenantId).toBe(stub.tenantId);
    expect(row!.accessToken).not.toContain('access-');
    expect(row!.refreshToken).not.toContain('refresh-');
    // The state is used once.
    const replay = await t.app.inject({
      method: 'GET',
      url: `/integrations/xero/callback?code=good-code&state=${state}`,
    });
    expect(replay.headers.location).toContain('error=');
    // Another company sees its own page: not connected.
    expect((await status(otherAdmin)).connection.state).toBe('not_connected');
    expect((await saveSettings({})).statusCode).toBe(200);
  });

  it('first sync creates the contact, invoice, payment and credit note; a second sync sends nothing', async () => {
    const first = await invoice(22_000);
    await cashPayment(5_000);
    const note = await t.database.db.transaction((tx) =>
      issueCreditNote(tx, tenant, { invoiceId: first.id, amount: 2_200, reason: 'Missed class' }, today),
    );

    const result = await sync();
    expect(result).toMatchObject({ failed: 0 });
    expect(result.sent).toBeGreaterThanOrEqual(4);
    const [xeroInvoice] = [...stub.invoices.values()];
    expect(xeroInvoice).toMatchObject({ InvoiceNumber: first.code, Status: 'AUTHORISED', Total: 231 });
    const put = stub.apiCalls().find((r) => r.method === 'PUT' && r.path.endsWith('/Invoices'))!;
    const sent = JSON.parse(put.body).Invoices[0];
    expect(sent).toMatchObject({ Type: 'ACCREC', LineAmountTypes: 'Inclusive', Status: 'AUTHORISED' });
    expect(sent.LineItems).toEqual([
      expect.objectContaining({ AccountCode: '200', TaxType: 'OUTPUT', LineAmount: 220, TaxAmount: 20 }),
      expect.objectContaining({ AccountCode: '200', TaxType: 'EXEMPTOUTPUT', LineAmount: 11, TaxAmount: 0 }),
    ]);
    expect(put.headers['idempotency-key']).toBe(`tumble-${tenant.companyId}-invoice-${first.id}`);
    expect(stub.payments).toEqual([
      expect.objectContaining({ InvoiceID: xeroInvoice!.InvoiceID, Amount: 50, Code: '090' }),
    ]);
    const [xeroNote] = [...stub.creditNotes.values()];
    expect(xeroNote).toMatchObject({ CreditNoteNumber: note.code, Total: 22, RemainingCredit: 0 });
    expect(xeroInvoice!.AmountCredited).toBe(22);
    expect([...stub.contacts.values()]).toEqual([expect.objectContaining({ Name: 'Sam Parent' })]);

    const before = stub.requests.length;
    expect(await sync()).toEqual({ sent: 0, failed: 0, message: accountingMessages.nothingToSend });
    expect(stub.requests.length).toBe(before);
    // The job does the same for every connected company, and sends nothing twice either.
    await syncConnectedCompanies(t.deps);
    expect(stub.requests.length).toBe(before);
    expect(stub.invoices.size).toBe(1);
    expect((await status()).last_error).toBeNull();
  });

  it('refreshes an expired access token (the refresh token rotates) and goes on', async () => {
    const [before] = await t.database.db
      .select()
      .from(accountingSettings)
      .where(tenant.where(accountingSettings));
    stub.expireAccessTokens();
    const second = await invoice(11_000);
    const result = await sync();
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    expect([...stub.invoices.values()].map((i) => i.InvoiceNumber)).toContain(second.code);
    const refreshes = stub.requests.filter(
      (r) => r.path === '/connect/token' && r.body.includes('grant_type=refresh_token'),
    );
    expect(refreshes).toHaveLength(1);
    const [after] = await t.database.db
      .select()
      .from(accountingSettings)
      .where(tenant.where(accountingSettings));
    expect(after!.refreshToken).not.toBe(before!.refreshToken);

    // Close to its end the token is refreshed before the call instead of after a 401.
    await t.database.db
      .update(accountingSettings)
      .set({ accessTokenExpiresAt: new Date(Date.now() + 30_000) })
      .where(tenant.where(accountingSettings));
    await invoice(3_300);
    const calls = stub.requests.length;
    expect(await sync()).toMatchObject({ sent: 1, failed: 0 });
    expect(stub.requests.slice(calls).map((r) => r.path)[0]).toBe('/connect/token');
    expect(
      stub.requests.slice(calls).filter((r) => r.path.startsWith('/api.xro/') && r.method === 'PUT'),
    ).toHaveLength(1);
  });

  it("stores Xero's validation error on the record, shows it, and sends it once the mapping is fixed", async () => {
    expect((await saveSettings({ sales_account_code: '999' })).statusCode).toBe(200);
    const refused = await invoice(4_400);
    const result = await sync();
    expect(result).toMatchObject({ sent: 0, failed: 1 });
    const page = await status();
    expect(page.last_error).toBe('1 record could not be sent to Xero: see below.');
    expect(page.failed).toEqual([
      expect.objectContaining({
        kind: 'invoice',
        label: refused.code,
        error: "Account code '999' is not a valid code for this document.",
      }),
    ]);

    expect((await saveSettings({ sales_account_code: '200' })).statusCode).toBe(200);
    expect(await sync()).toMatchObject({ sent: 1, failed: 0 });
    const fixed = await status();
    expect(fixed.failed).toEqual([]);
    expect(fixed.last_error).toBeNull();
    expect([...stub.invoices.values()].filter((i) => i.InvoiceNumber === refused.code)).toHaveLength(1);
  });

  it('pays a refund to the card out of a credit note: it waits for one, then goes as a payment on it', async () => {
    const paid = await invoice(5_500);
    const payment = await cashPayment(6_600, [paid.id]);
    expect(await sync()).toMatchObject({ sent: 2, failed: 0 });
    const { db } = t.database;
    await db.transaction(async (tx) => {
      const [refund] = await tx
        .insert(refunds)
        .values(
          tenant.values({
            paymentId: payment.id,
            parentId,
            invoiceId: paid.id,
            amount: 2_200,
            reason: 'Class cancelled',
            destination: 'card' as const,
            status: 'succeeded' as const,
            settledAt: new Date(),
          }),
        )
        .returning();
      await tx.insert(paymentAllocations).values(
        tenant.values({
          invoiceId: paid.id,
          kind: 'refund' as const,
          paymentId: payment.id,
          refundId: refund!.id,
          amount: -2_200,
        }),
      );
      await refreshInvoice(tx, tenant, paid.id, today);
    });
    expect(await sync()).toMatchObject({ sent: 0, failed: 1 });
    expect((await status()).failed).toEqual([
      expect.objectContaining({
        kind: 'refund',
        label: `Refund on ${paid.code}`,
        error: expect.stringContaining(`Waiting for a credit note on ${paid.code}`),
      }),
    ]);

    // Staff credit what was refunded: the credit note stays unallocated in Xero (its invoice is paid
    // there) and the refund is paid out of it, from the refunds account.
    const note = await db.transaction((tx) =>
      issueCreditNote(tx, tenant, { invoiceId: paid.id, amount: 2_200, reason: 'Class cancelled' }, today),
    );
    expect(await sync()).toMatchObject({ sent: 2, failed: 0 });
    const xeroNote = [...stub.creditNotes.values()].find((n) => n.CreditNoteNumber === note.code)!;
    expect(xeroNote).toMatchObject({ Total: 22, RemainingCredit: 0 });
    expect(stub.payments.at(-1)).toMatchObject({
      CreditNoteID: xeroNote.CreditNoteID,
      Amount: 22,
      Code: '090',
    });
    expect((await status()).failed).toEqual([]);
    expect(await sync()).toMatchObject({ sent: 0, failed: 0 });
  });

  it('voids in Xero an invoice voided here, once; two syncs at the same moment send a record once', async () => {
    const unpaid = await invoice(7_700);
    const [first, second] = await Promise.all([sync(), sync()]);
    expect(first.sent + second.sent).toBe(1);
    expect([...stub.invoices.values()].filter((i) => i.InvoiceNumber === unpaid.code)).toHaveLength(1);

    await t.database.db.transaction((tx) => voidInvoice(tx, tenant, unpaid.id, 'Made in error'));
    expect(await sync()).toMatchObject({ sent: 1, failed: 0 });
    const inXero = [...stub.invoices.values()].find((i) => i.InvoiceNumber === unpaid.code)!;
    expect(inXero.Status).toBe('VOIDED');
    expect(await sync()).toMatchObject({ sent: 0, failed: 0 });
  });

  it('refuses bad settings with a clear message and changes nothing; Sync now needs a connection', async () => {
    const before = await status();
    const bad = await saveSettings({ card_account_code: 'DROP TABLE' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('account code');
    expect((await status()).settings).toEqual(before.settings);
    const notConnected = await call('POST', `${path}/sync`, {}, otherAdmin);
    expect(notConnected.statusCode).toBe(400);
    expect(notConnected.json().message).toBe(accountingMessages.notConnected);
  });

  it('downloads a CSV of the invoices in a date range, and disconnects', async () => {
    const csv = await call('GET', `${path}/csv?kind=invoices&from=${today}&to=${today}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\n')[0]).toContain('*ContactName,EmailAddress');
    expect(csv.body).toContain('GST Free Income');
    const badRange = await call('GET', `${path}/csv?kind=invoices&from=${today}&to=2001-01-01`);
    expect(badRange.statusCode).toBe(400);

    const gone = await call('POST', `${path}/disconnect`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json().connection.state).toBe('not_connected');
    expect(stub.requests.some((r) => r.method === 'DELETE' && r.path === '/connections/connection-1')).toBe(
      true,
    );
  });
});
