import type { Config } from '../../../config.ts';

/**
 * Xero's documented REST API, spoken directly with fetch (the calls are few and plain JSON; the
 * official SDK would add a large dependency for them). References, from Xero's OpenAPI
 * descriptions (XeroAPI/Xero-OpenAPI: xero-identity.yaml, xero_accounting.yaml):
 * - OAuth 2.0 authorisation code flow: GET {login}/identity/connect/authorize, then
 *   POST {identity}/connect/token (grant_type authorization_code or refresh_token, client id and
 *   secret as HTTP Basic). Access tokens last 30 minutes; refresh tokens rotate on every use.
 * - GET {api}/connections: the organisations (tenants) the user allowed; DELETE disconnects one.
 * - {api}/api.xro/2.0/Contacts, Invoices, CreditNotes, CreditNotes/{id}/Allocations, Payments,
 *   with the `xero-tenant-id` header and, on creates, `Idempotency-Key` (Xero answers a retried
 *   request with the first answer instead of doing it twice).
 * - A 400 is `{ ErrorNumber, Type: 'ValidationException', Message, Elements: [{ ValidationErrors:
 *   [{ Message }] }] }`: its messages are what staff read.
 */

/** Scopes the sync needs: contacts, and invoices/credit notes/payments; offline_access for a refresh token. */
export const XERO_SCOPES = 'openid profile email accounting.contacts accounting.transactions offline_access';

export interface XeroTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token stops working. */
  expiresAt: Date;
}

export interface XeroConnection {
  id: string;
  tenantId: string;
  tenantType: string;
  tenantName: string | null;
}

/** Xero said no: `status` is the HTTP status, `message` plain words for staff. */
export class XeroError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'XeroError';
  }
}

type XeroConfig = Pick<
  Config,
  'XERO_CLIENT_ID' | 'XERO_CLIENT_SECRET' | 'XERO_LOGIN_URL' | 'XERO_IDENTITY_URL' | 'XERO_API_URL'
>;

/** The installation has a Xero app. */
export function xeroAvailable(config: XeroConfig): boolean {
  return Boolean(config.XERO_CLIENT_ID && config.XERO_CLIENT_SECRET);
}

const base = (url: string) => url.replace(/\/$/, '');

/** The words of a Xero error body: validation messages first, else its Message or OAuth error. */
function messageOf(status: number, body: unknown): string {
  const data = (body ?? {}) as {
    Message?: string;
    Detail?: string;
    Title?: string;
    error?: string;
    Elements?: { ValidationErrors?: { Message?: string }[] }[];
  };
  const validation = (data.Elements ?? [])
    .flatMap((element) => element.ValidationErrors ?? [])
    .map((error) => error.Message)
    .filter((m): m is string => Boolean(m));
  if (validation.length > 0) return [...new Set(validation)].join(' ');
  if (data.error === 'invalid_grant') return 'Xero no longer accepts this connection: please connect again.';
  if (status === 401) return 'Xero did not accept the connection: please connect again.';
  if (status === 403) return 'Xero refused: the connected user may not change this organisation.';
  if (status === 429) return 'Xero asked us to slow down; the next sync tries again.';
  return data.Detail ?? data.Message ?? data.Title ?? data.error ?? `Xero answered ${status}.`;
}

export class XeroClient {
  constructor(
    private readonly config: XeroConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Where the browser goes to log in to Xero and allow us (state: our CSRF token). */
  authorizeUrl(state: string, redirectUri: string): string {
    const url = new URL(`${base(this.config.XERO_LOGIN_URL)}/identity/connect/authorize`);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.config.XERO_CLIENT_ID ?? '');
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('scope', XERO_SCOPES);
    url.searchParams.set('state', state);
    return url.toString();
  }

  exchangeCode(code: string, redirectUri: string): Promise<XeroTokens> {
    return this.token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  }

  refresh(refreshToken: string): Promise<XeroTokens> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  private async token(form: Record<string, string>): Promise<XeroTokens> {
    const basic = Buffer.from(`${this.config.XERO_CLIENT_ID}:${this.config.XERO_CLIENT_SECRET}`).toString(
      'base64',
    );
    const response = await this.send(`${base(this.config.XERO_IDENTITY_URL)}/connect/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    const body = (await response.json()) as {
      access_token: string;
      refresh_token: string;
      expires_in: number;
    };
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token,
      expiresAt: new Date(Date.now() + body.expires_in * 1000),
    };
  }

  async connections(accessToken: string): Promise<XeroConnection[]> {
    const response = await this.send(`${base(this.config.XERO_API_URL)}/connections`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    return (await response.json()) as XeroConnection[];
  }

  async deleteConnection(accessToken: string, connectionId: string): Promise<void> {
    await this.send(`${base(this.config.XERO_API_URL)}/connections/${encodeURIComponent(connectionId)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${accessToken}` },
    });
  }

  /**
   * One call to the Accounting API. `PUT` creates, `POST` creates or updates; `GET` reads.
   * `idempotencyKey` (up to 128 characters) makes a retried create safe.
   */
  async accounting<T>(
    session: { accessToken: string; tenantId: string },
    method: 'GET' | 'PUT' | 'POST',
    resource: string,
    body?: object,
    idempotencyKey?: string,
  ): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${session.accessToken}`,
      'xero-tenant-id': session.tenantId,
      accept: 'application/json',
    };
    if (body) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const response = await this.send(`${base(this.config.XERO_API_URL)}/api.xro/2.0/${resource}`, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    return (await response.json()) as T;
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, { ...init, signal: AbortSignal.timeout(30_000) });
    } catch {
      throw new XeroError(0, 'Xero could not be reached; the next sync tries again.');
    }
    if (response.ok) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = { Message: text.slice(0, 300) || undefined };
    }
    throw new XeroError(response.status, messageOf(response.status, body));
  }
}
