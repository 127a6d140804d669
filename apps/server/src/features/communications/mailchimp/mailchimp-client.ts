import { createHash } from 'node:crypto';
import type { Config } from '../../../config.ts';

/**
 * Mailchimp's Marketing API v3, spoken directly with fetch (the calls are few and plain JSON; the
 * official SDK adds nothing for them). References (mailchimp.com/developer/marketing/api):
 * - Base `https://{dc}.api.mailchimp.com/3.0`; the data centre is the API key's suffix (`…-us6`)
 *   or, for an OAuth token, `dc` from GET login.mailchimp.com/oauth2/metadata.
 * - Auth: HTTP Basic with any user name and the API key as password; an OAuth token as Bearer.
 * - GET /ping (health check), GET / (account_name), GET /lists, GET /lists/{list_id}.
 * - PUT /lists/{list_id}/members/{subscriber_hash} adds or updates a member (subscriber_hash: MD5
 *   of the lower-cased address); `status_if_new` applies to a new member only, `status` to both.
 * - DELETE /lists/{list_id}/members/{subscriber_hash} archives a member.
 * - POST /lists/{list_id}/members/{subscriber_hash}/tags `{ tags: [{ name, status: active|inactive }] }`.
 * - GET /lists/{list_id}/members?status=unsubscribed&since_last_changed=… (unsubscribes read back).
 * - POST /lists/{list_id}/webhooks `{ url, events, sources }` (Mailchimp GETs the URL first to check
 *   it answers), DELETE /lists/{list_id}/webhooks/{webhook_id}.
 * - OAuth 2: GET {login}/oauth2/authorize, POST {login}/oauth2/token (authorization_code; the token
 *   never expires), GET {login}/oauth2/metadata with `Authorization: OAuth <token>` (dc, accountname).
 * - Errors are problem documents `{ type, title, status, detail, errors?: [{ field, message }] }`;
 *   429 when too many calls are in flight at once.
 */

export type MailchimpConfig = Pick<
  Config,
  'MAILCHIMP_API_URL' | 'MAILCHIMP_LOGIN_URL' | 'MAILCHIMP_CLIENT_ID' | 'MAILCHIMP_CLIENT_SECRET'
>;

/** Mailchimp said no: `status` is the HTTP status (0: not reached), `message` plain words for staff. */
export class MailchimpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'MailchimpError';
  }
}

export interface MailchimpCredential {
  method: 'api_key' | 'oauth';
  /** The API key or OAuth access token, in the clear (only in memory). */
  secret: string;
  dataCentre: string;
}

export interface MailchimpList {
  id: string;
  name: string;
  stats?: { member_count?: number };
}

export interface MemberInput {
  email_address: string;
  status_if_new: 'subscribed' | 'unsubscribed';
  status?: 'subscribed' | 'unsubscribed';
  merge_fields?: Record<string, string>;
}

/** Mailchimp's id of a member: MD5 of the lower-cased address. */
export function subscriberHash(email: string): string {
  return createHash('md5').update(email.trim().toLowerCase()).digest('hex');
}

/** The data centre an API key names (`…-us6` → us6), or null. */
export function dataCentreOfKey(apiKey: string): string | null {
  return /-([a-z]+[0-9]+)$/.exec(apiKey.trim())?.[1] ?? null;
}

/** The installation has a Mailchimp OAuth app. */
export function mailchimpOAuthAvailable(config: MailchimpConfig): boolean {
  return Boolean(config.MAILCHIMP_CLIENT_ID && config.MAILCHIMP_CLIENT_SECRET);
}

const base = (url: string) => url.replace(/\/$/, '');

/** The words of a Mailchimp problem document, for staff. */
function messageOf(status: number, body: unknown): string {
  const data = (body ?? {}) as {
    title?: string;
    detail?: string;
    error?: string;
    error_description?: string;
    errors?: { field?: string; message?: string }[];
  };
  if (status === 401) return 'Mailchimp did not accept the connection: connect again.';
  if (status === 403) return 'Mailchimp refused: the connected account may not change this audience.';
  if (status === 429) return 'Mailchimp asked us to slow down; the next sync tries again.';
  if (status >= 500) return 'Mailchimp had trouble answering; the next sync tries again.';
  const fields = (data.errors ?? []).map((e) => e.message).filter((m): m is string => Boolean(m));
  const detail = data.detail ?? data.error_description ?? data.error ?? data.title;
  return [detail, ...fields].filter(Boolean).join(' ') || `Mailchimp answered ${status}.`;
}

/** Tries of one call that Mailchimp answers 429 (too many at once) before giving up until the next sync. */
const TRIES = 4;

export class MailchimpClient {
  constructor(
    private readonly config: MailchimpConfig,
    private readonly fetchImpl: typeof fetch = fetch,
    /** Waits between retries (tests pass a quick one). */
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Where the browser goes to log in to Mailchimp and allow us (state: our CSRF token). */
  authorizeUrl(state: string, redirectUri: string): string {
    const url = new URL(`${base(this.config.MAILCHIMP_LOGIN_URL)}/oauth2/authorize`);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.config.MAILCHIMP_CLIENT_ID ?? '');
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    return url.toString();
  }

  /** The authorisation code for an access token, and the account's data centre and name. */
  async exchangeCode(
    code: string,
    redirectUri: string,
  ): Promise<{ accessToken: string; dataCentre: string; accountName: string | null }> {
    const response = await this.send(`${base(this.config.MAILCHIMP_LOGIN_URL)}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: this.config.MAILCHIMP_CLIENT_ID ?? '',
        client_secret: this.config.MAILCHIMP_CLIENT_SECRET ?? '',
        redirect_uri: redirectUri,
        code,
      }).toString(),
    });
    const token = (await response.json()) as { access_token: string };
    const metadata = await this.send(`${base(this.config.MAILCHIMP_LOGIN_URL)}/oauth2/metadata`, {
      headers: { authorization: `OAuth ${token.access_token}`, accept: 'application/json' },
    });
    const meta = (await metadata.json()) as { dc: string; accountname?: string };
    return { accessToken: token.access_token, dataCentre: meta.dc, accountName: meta.accountname ?? null };
  }

  /** GET /ping: the credential works. */
  async ping(credential: MailchimpCredential): Promise<void> {
    await this.api(credential, 'GET', '/ping');
  }

  async accountName(credential: MailchimpCredential): Promise<string | null> {
    const body = await this.api<{ account_name?: string }>(credential, 'GET', '/?fields=account_name');
    return body.account_name ?? null;
  }

  async lists(credential: MailchimpCredential): Promise<MailchimpList[]> {
    const body = await this.api<{ lists: MailchimpList[] }>(
      credential,
      'GET',
      '/lists?count=100&fields=lists.id,lists.name,lists.stats.member_count',
    );
    return body.lists;
  }

  async list(credential: MailchimpCredential, listId: string): Promise<MailchimpList> {
    return this.api<MailchimpList>(credential, 'GET', `/lists/${encodeURIComponent(listId)}?fields=id,name`);
  }

  /**
   * Adds or updates the member Mailchimp knows by `knownAs` (the address it was last sent with):
   * when the family's address changed, the same member takes the new one.
   */
  async upsertMember(
    credential: MailchimpCredential,
    listId: string,
    knownAs: string,
    member: MemberInput,
  ): Promise<void> {
    await this.api(
      credential,
      'PUT',
      `/lists/${encodeURIComponent(listId)}/members/${subscriberHash(knownAs)}`,
      member,
    );
  }

  /** DELETE archives the member: no more mail, its history kept (a family no longer on the books). */
  async archiveMember(credential: MailchimpCredential, listId: string, email: string): Promise<void> {
    await this.api(
      credential,
      'DELETE',
      `/lists/${encodeURIComponent(listId)}/members/${subscriberHash(email)}`,
    );
  }

  async setTags(
    credential: MailchimpCredential,
    listId: string,
    email: string,
    tags: { name: string; status: 'active' | 'inactive' }[],
  ): Promise<void> {
    await this.api(
      credential,
      'POST',
      `/lists/${encodeURIComponent(listId)}/members/${subscriberHash(email)}/tags`,
      { tags },
    );
  }

  /** Addresses of members unsubscribed since `since`, page by page. */
  async unsubscribedSince(credential: MailchimpCredential, listId: string, since: Date): Promise<string[]> {
    const emails: string[] = [];
    for (let offset = 0; ; offset += 1000) {
      const query = new URLSearchParams({
        status: 'unsubscribed',
        since_last_changed: since.toISOString(),
        fields: 'members.email_address,total_items',
        count: '1000',
        offset: String(offset),
      });
      const page = await this.api<{ members: { email_address: string }[]; total_items: number }>(
        credential,
        'GET',
        `/lists/${encodeURIComponent(listId)}/members?${query.toString()}`,
      );
      emails.push(...page.members.map((m) => m.email_address));
      if (page.members.length === 0 || offset + page.members.length >= page.total_items) return emails;
    }
  }

  /** Asks Mailchimp to tell `url` about unsubscribes (by the person or staff, not by our own calls). */
  async createWebhook(credential: MailchimpCredential, listId: string, url: string): Promise<string> {
    const body = await this.api<{ id: string }>(
      credential,
      'POST',
      `/lists/${encodeURIComponent(listId)}/webhooks`,
      {
        url,
        events: {
          subscribe: false,
          unsubscribe: true,
          profile: false,
          cleaned: false,
          upemail: false,
          campaign: false,
        },
        sources: { user: true, admin: true, api: false },
      },
    );
    return body.id;
  }

  async deleteWebhook(credential: MailchimpCredential, listId: string, webhookId: string): Promise<void> {
    await this.api(
      credential,
      'DELETE',
      `/lists/${encodeURIComponent(listId)}/webhooks/${encodeURIComponent(webhookId)}`,
    );
  }

  /** One call to the Marketing API, retried while Mailchimp answers 429. */
  private async api<T = unknown>(
    credential: MailchimpCredential,
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    resource: string,
    body?: object,
  ): Promise<T> {
    const url = `${base(this.config.MAILCHIMP_API_URL.replace('{dc}', credential.dataCentre))}${resource}`;
    const authorization =
      credential.method === 'api_key'
        ? `Basic ${Buffer.from(`tumble:${credential.secret}`).toString('base64')}`
        : `Bearer ${credential.secret}`;
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    if (body) headers['content-type'] = 'application/json';
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await this.send(url, {
          method,
          headers,
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await response.text();
        return (text ? JSON.parse(text) : {}) as T;
      } catch (error) {
        if (!(error instanceof MailchimpRetry) || attempt >= TRIES) {
          throw error instanceof MailchimpRetry ? error.error : error;
        }
        await this.sleep(error.waitMs ?? 1000 * 2 ** (attempt - 1));
      }
    }
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, { ...init, signal: AbortSignal.timeout(30_000) });
    } catch {
      throw new MailchimpError(0, 'Mailchimp could not be reached; the next sync tries again.');
    }
    if (response.ok) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = { detail: text.slice(0, 300) || undefined };
    }
    const error = new MailchimpError(response.status, messageOf(response.status, body));
    if (response.status === 429) {
      const header = response.headers.get('retry-after');
      const seconds = header === null ? Number.NaN : Number(header);
      throw new MailchimpRetry(error, Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null);
    }
    throw error;
  }
}

/** A 429: wait (Retry-After when given, else doubling from a second) and try again. */
class MailchimpRetry extends Error {
  constructor(
    readonly error: MailchimpError,
    readonly waitMs: number | null,
  ) {
    super(error.message);
  }
}
