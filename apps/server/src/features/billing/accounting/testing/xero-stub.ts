import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the parts of Xero the accounting sync calls, on 127.0.0.1 and a free port (as the
 * Stripe and Square stubs): the identity token endpoint (authorization_code and refresh_token
 * grants, rotating refresh tokens, access tokens that expire), GET/DELETE /connections, and the
 * Accounting API's Contacts, Invoices, CreditNotes (+ Allocations) and Payments in Xero's wire
 * format (PascalCase JSON, `{ Elements: [{ ValidationErrors }] }` on a 400), honouring
 * Idempotency-Key. It keeps Xero's side of the state in memory, not ours.
 */

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface StubInvoice {
  InvoiceID: string;
  InvoiceNumber: string;
  Status: string;
  Total: number;
  AmountPaid: number;
  AmountCredited: number;
  LineItems: { AccountCode: string; TaxType: string; LineAmount: number; TaxAmount: number }[];
}

interface StubCreditNote {
  CreditNoteID: string;
  CreditNoteNumber: string;
  Total: number;
  RemainingCredit: number;
}

export interface XeroStub {
  url: string;
  requests: StubRequest[];
  /** Accounting API calls only (not token or connection calls). */
  apiCalls(): StubRequest[];
  contacts: Map<string, { ContactID: string; Name: string; EmailAddress: string; ContactNumber: string }>;
  invoices: Map<string, StubInvoice>;
  creditNotes: Map<string, StubCreditNote>;
  payments: { PaymentID: string; InvoiceID?: string; CreditNoteID?: string; Amount: number; Code: string }[];
  /** Account codes the organisation has; others are refused with Xero's validation message. */
  accountCodes: Set<string>;
  /** Lifetime of the access tokens it gives, in seconds (Xero: 1800). */
  expiresIn: number;
  /** Ends every access token issued so far (as if 30 minutes had passed). */
  expireAccessTokens(): void;
  tenantId: string;
  close(): Promise<void>;
}

const round = (n: number) => Math.round(n * 100) / 100;

export async function startXeroStub(): Promise<XeroStub> {
  const tenantId = randomUUID();
  const accessTokens = new Map<string, number>();
  let refreshToken = '';
  const idempotent = new Map<string, { status: number; body: unknown }>();
  let counter = 0;

  const stub: XeroStub = {
    url: '',
    requests: [],
    apiCalls: () => stub.requests.filter((r) => r.path.startsWith('/api.xro/')),
    contacts: new Map(),
    invoices: new Map(),
    creditNotes: new Map(),
    payments: [],
    accountCodes: new Set(['200', '090']),
    expiresIn: 1800,
    expireAccessTokens: () => {
      for (const token of accessTokens.keys()) accessTokens.set(token, 0);
    },
    tenantId,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const validation = (messages: string[]) => ({
    status: 400,
    body: {
      ErrorNumber: 10,
      Type: 'ValidationException',
      Message: 'A validation exception occurred',
      Elements: [{ ValidationErrors: messages.map((Message) => ({ Message })) }],
    },
  });

  const tokens = () => {
    counter++;
    const access = `access-${counter}-${randomUUID()}`;
    refreshToken = `refresh-${counter}-${randomUUID()}`;
    accessTokens.set(access, Date.now() + stub.expiresIn * 1000);
    return {
      status: 200,
      body: {
        access_token: access,
        id_token: 'id-token',
        expires_in: stub.expiresIn,
        token_type: 'Bearer',
        refresh_token: refreshToken,
        scope: 'openid profile email accounting.contacts accounting.transactions offline_access',
      },
    };
  };

  const authorised = (request: IncomingMessage) => {
    const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    return (accessTokens.get(token) ?? 0) > Date.now();
  };

  function api(
    method: string,
    path: string,
    body: Record<string, unknown>,
  ): { status: number; body: unknown } {
    const parts = path.replace('/api.xro/2.0/', '').split('/');
    const [resource, id, sub] = parts;
    if (resource === 'Contacts' && method === 'POST') {
      const [input] = body.Contacts as { Name: string; EmailAddress: string; ContactNumber: string }[];
      const existing = [...stub.contacts.values()].find((c) => c.Name === input!.Name);
      const contact = existing ?? { ContactID: randomUUID(), ...input! };
      stub.contacts.set(contact.ContactID, contact);
      return { status: 200, body: { Contacts: [contact] } };
    }
    if (resource === 'Invoices' && method === 'PUT') {
      const [input] = body.Invoices as {
        Type: string;
        Status: string;
        InvoiceNumber: string;
        LineAmountTypes: string;
        Contact: { ContactID: string };
        LineItems: { AccountCode: string; TaxType: string; LineAmount: number; TaxAmount: number }[];
      }[];
      const errors = input!.LineItems.filter((line) => !stub.accountCodes.has(line.AccountCode)).map(
        (line) => `Account code '${line.AccountCode}' is not a valid code for this document.`,
      );
      if (!stub.contacts.has(input!.Contact.ContactID)) errors.push('The contact does not exist.');
      if (input!.Type !== 'ACCREC') errors.push('Invoice type must be ACCREC here.');
      if (errors.length > 0) return validation(errors);
      const invoice: StubInvoice = {
        InvoiceID: randomUUID(),
        InvoiceNumber: input!.InvoiceNumber,
        Status: input!.Status,
        Total: round(input!.LineItems.reduce((sum, line) => sum + line.LineAmount, 0)),
        AmountPaid: 0,
        AmountCredited: 0,
        LineItems: input!.LineItems,
      };
      stub.invoices.set(invoice.InvoiceID, invoice);
      return { status: 200, body: { Invoices: [invoice] } };
    }
    if (resource === 'Invoices' && id) {
      const invoice = stub.invoices.get(id);
      if (!invoice) return { status: 404, body: { Title: 'Not Found', Detail: 'Invoice not found' } };
      if (method === 'POST') {
        const [input] = body.Invoices as { Status: string }[];
        invoice.Status = input!.Status;
      }
      const AmountDue = round(invoice.Total - invoice.AmountPaid - invoice.AmountCredited);
      return { status: 200, body: { Invoices: [{ ...invoice, AmountDue }] } };
    }
    if (resource === 'CreditNotes' && method === 'PUT' && !id) {
      const [input] = body.CreditNotes as {
        Type: string;
        CreditNoteNumber: string;
        LineItems: { AccountCode: string; LineAmount: number }[];
      }[];
      const errors = input!.LineItems.filter((line) => !stub.accountCodes.has(line.AccountCode)).map(
        (line) => `Account code '${line.AccountCode}' is not a valid code for this document.`,
      );
      if (input!.Type !== 'ACCRECCREDIT') errors.push('Credit note type must be ACCRECCREDIT here.');
      if (errors.length > 0) return validation(errors);
      const total = round(input!.LineItems.reduce((sum, line) => sum + line.LineAmount, 0));
      const note = {
        CreditNoteID: randomUUID(),
        CreditNoteNumber: input!.CreditNoteNumber,
        Total: total,
        RemainingCredit: total,
      };
      stub.creditNotes.set(note.CreditNoteID, note);
      return { status: 200, body: { CreditNotes: [note] } };
    }
    if (resource === 'CreditNotes' && id && sub === 'Allocations' && method === 'PUT') {
      const note = stub.creditNotes.get(id);
      const [input] = body.Allocations as { Amount: number; Invoice: { InvoiceID: string } }[];
      const invoice = stub.invoices.get(input!.Invoice.InvoiceID);
      if (!note || !invoice) return { status: 404, body: { Title: 'Not Found' } };
      const due = round(invoice.Total - invoice.AmountPaid - invoice.AmountCredited);
      if (input!.Amount > due || input!.Amount > note.RemainingCredit)
        return validation(['The amount being allocated exceeds the amount outstanding.']);
      invoice.AmountCredited = round(invoice.AmountCredited + input!.Amount);
      note.RemainingCredit = round(note.RemainingCredit - input!.Amount);
      return { status: 200, body: { Allocations: [{ AllocationID: randomUUID(), Amount: input!.Amount }] } };
    }
    if (resource === 'Payments' && method === 'PUT') {
      const [input] = body.Payments as {
        Invoice?: { InvoiceID: string };
        CreditNote?: { CreditNoteID: string };
        Account: { Code: string };
        Amount: number;
      }[];
      if (!stub.accountCodes.has(input!.Account.Code))
        return validation([`Account code '${input!.Account.Code}' is not a valid bank account.`]);
      const PaymentID = randomUUID();
      if (input!.Invoice) {
        const invoice = stub.invoices.get(input!.Invoice.InvoiceID);
        if (!invoice) return validation(['Invoice could not be found.']);
        const due = round(invoice.Total - invoice.AmountPaid - invoice.AmountCredited);
        if (input!.Amount > due)
          return validation(['Payment amount exceeds the amount outstanding on this document']);
        invoice.AmountPaid = round(invoice.AmountPaid + input!.Amount);
        stub.payments.push({
          PaymentID,
          InvoiceID: invoice.InvoiceID,
          Amount: input!.Amount,
          Code: input!.Account.Code,
        });
      } else {
        const note = stub.creditNotes.get(input!.CreditNote?.CreditNoteID ?? '');
        if (!note) return validation(['Credit note could not be found.']);
        if (input!.Amount > note.RemainingCredit)
          return validation(['Payment amount exceeds the amount outstanding on this document']);
        note.RemainingCredit = round(note.RemainingCredit - input!.Amount);
        stub.payments.push({
          PaymentID,
          CreditNoteID: note.CreditNoteID,
          Amount: input!.Amount,
          Code: input!.Account.Code,
        });
      }
      return { status: 200, body: { Payments: [{ PaymentID, Amount: input!.Amount }] } };
    }
    return { status: 404, body: { Title: 'Not Found', Detail: `${method} ${path}` } };
  }

  function handle(
    request: IncomingMessage,
    raw: string,
  ): { status: number; body: unknown; location?: string } {
    const url = new URL(request.url ?? '/', 'http://stub');
    const method = request.method ?? 'GET';
    if (url.pathname === '/connect/token' && method === 'POST') {
      const basic = Buffer.from(
        String(request.headers.authorization ?? '').replace(/^Basic /, ''),
        'base64',
      ).toString();
      if (basic !== 'client-id:client-secret') return { status: 400, body: { error: 'invalid_client' } };
      const form = new URLSearchParams(raw);
      if (form.get('grant_type') === 'authorization_code')
        return form.get('code') === 'good-code'
          ? tokens()
          : { status: 400, body: { error: 'invalid_grant' } };
      if (form.get('grant_type') === 'refresh_token')
        return form.get('refresh_token') === refreshToken && refreshToken
          ? tokens()
          : { status: 400, body: { error: 'invalid_grant' } };
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    }
    // Xero's login and consent screen, already agreed: straight back to the app with a code.
    if (url.pathname === '/identity/connect/authorize' && method === 'GET') {
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', 'good-code');
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      return { status: 302, body: null, location: back.toString() };
    }
    if (!authorised(request))
      return {
        status: 401,
        body: { Type: null, Title: 'Unauthorized', Status: 401, Detail: 'TokenExpired' },
      };
    if (url.pathname === '/connections' && method === 'GET')
      return {
        status: 200,
        body: [
          {
            id: 'connection-1',
            tenantId,
            tenantType: 'ORGANISATION',
            tenantName: 'Tumble Gym (Xero)',
            createdDateUtc: new Date().toISOString(),
          },
        ],
      };
    if (url.pathname.startsWith('/connections/') && method === 'DELETE') return { status: 204, body: null };
    if (!url.pathname.startsWith('/api.xro/2.0/')) return { status: 404, body: { Title: 'Not Found' } };
    if (request.headers['xero-tenant-id'] !== tenantId)
      return { status: 403, body: { Title: 'Forbidden', Detail: 'AuthenticationUnsuccessful' } };
    const key = request.headers['idempotency-key'];
    if (typeof key === 'string' && idempotent.has(key)) return idempotent.get(key)!;
    const answer = api(method, url.pathname, raw ? (JSON.parse(raw) as Record<string, unknown>) : {});
    if (typeof key === 'string' && answer.status === 200) idempotent.set(key, answer);
    return answer;
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      stub.requests.push({
        method: request.method ?? 'GET',
        path: new URL(request.url ?? '/', 'http://stub').pathname,
        headers: request.headers,
        body: raw,
      });
      const { status, body, location } = handle(request, raw);
      response.writeHead(status, location ? { location } : { 'content-type': 'application/json' });
      response.end(status === 204 || location ? undefined : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stub;
}

/** The environment that points the app's Xero client at the stub. */
export function xeroStubEnv(stub: XeroStub): Record<string, string> {
  return {
    XERO_CLIENT_ID: 'client-id',
    XERO_CLIENT_SECRET: 'client-secret',
    XERO_LOGIN_URL: stub.url,
    XERO_IDENTITY_URL: stub.url,
    XERO_API_URL: stub.url,
  };
}
