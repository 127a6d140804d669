import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the parts of Mailchimp the mailing sync calls, on 127.0.0.1 and a free port (as
 * the Xero, Stripe and Square stubs): the Marketing API v3 under /3.0 (ping, account, lists,
 * members by subscriber hash with status_if_new/status, member tags, unsubscribed members since a
 * time, webhooks) with Basic (API key) or Bearer (OAuth token) auth and problem-document errors,
 * and the OAuth endpoints of login.mailchimp.com (authorize, token, metadata). It keeps Mailchimp's
 * side of the state in memory. `busy` makes the next calls answer 429, as Mailchimp does when too
 * many calls are in flight.
 */

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface StubMember {
  email_address: string;
  status: 'subscribed' | 'unsubscribed' | 'cleaned' | 'pending' | 'archived';
  merge_fields: Record<string, string>;
  tags: Set<string>;
  last_changed: string;
}

export interface MailchimpStub {
  url: string;
  /** MAILCHIMP_API_URL for this stub. */
  apiUrl: string;
  requests: StubRequest[];
  /** Member writes only (PUT members, POST tags). */
  memberCalls(): StubRequest[];
  /** API keys it accepts (any user name, the key as password). */
  apiKeys: Set<string>;
  accountName: string;
  lists: Map<string, { id: string; name: string; members: Map<string, StubMember> }>;
  webhooks: { id: string; listId: string; url: string; events: Record<string, boolean> }[];
  /** The next this-many API calls answer 429. */
  busy: number;
  /**
   * Mailchimp GETs a webhook's URL before it makes the webhook and refuses one that does not answer
   * 200; tests that can reach the app set how (e.g. through app.inject).
   */
  checkWebhook?: (url: string) => Promise<number>;
  /** The member of `listId` with this address. */
  member(listId: string, email: string): StubMember | undefined;
  /** Someone unsubscribes in Mailchimp: the member is unsubscribed; answers the webhook's form body. */
  unsubscribe(listId: string, email: string): Record<string, string>;
  close(): Promise<void>;
}

/** The stub's key and audiences, known to the e2e run and the tests. */
export const STUB_API_KEY = '0123456789abcdef0123456789abcdef-us21';
export const STUB_LIST_ID = 'f1a2b3c4d5';
export const STUB_LIST_NAME = 'Tumble families';
export const STUB_OTHER_LIST_ID = 'e9e8e7e6e5';

const hashOf = (email: string) => createHash('md5').update(email.trim().toLowerCase()).digest('hex');

const problem = (status: number, title: string, detail: string, extra: object = {}) => ({
  status,
  body: {
    type: 'https://mailchimp.com/developer/marketing/docs/errors/',
    title,
    status,
    detail,
    instance: randomUUID(),
    ...extra,
  },
});

export async function startMailchimpStub(): Promise<MailchimpStub> {
  const oauthCodes = new Set<string>();
  const oauthTokens = new Set<string>();
  let counter = 0;

  const stub: MailchimpStub = {
    url: '',
    apiUrl: '',
    requests: [],
    memberCalls: () =>
      stub.requests.filter(
        (r) => /^\/3\.0\/lists\/[^/]+\/members\/[^/?]+/.test(r.path) && r.method !== 'GET',
      ),
    apiKeys: new Set([STUB_API_KEY]),
    accountName: 'Demo Gym',
    lists: new Map([
      [STUB_LIST_ID, { id: STUB_LIST_ID, name: STUB_LIST_NAME, members: new Map() }],
      [STUB_OTHER_LIST_ID, { id: STUB_OTHER_LIST_ID, name: 'Newsletter', members: new Map() }],
    ]),
    webhooks: [],
    busy: 0,
    member: (listId, email) => stub.lists.get(listId)?.members.get(hashOf(email)),
    unsubscribe(listId, email) {
      const member = stub.member(listId, email);
      if (member) {
        member.status = 'unsubscribed';
        member.last_changed = new Date().toISOString();
      }
      return {
        type: 'unsubscribe',
        fired_at: new Date().toISOString().replace('T', ' ').slice(0, 19),
        'data[action]': 'unsub',
        'data[reason]': 'manual',
        'data[id]': randomUUID().slice(0, 10),
        'data[list_id]': listId,
        'data[email]': email,
        'data[email_type]': 'html',
        'data[merges][EMAIL]': email,
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const authorised = (request: IncomingMessage) => {
    const header = String(request.headers.authorization ?? '');
    if (header.startsWith('Bearer ')) return oauthTokens.has(header.slice(7));
    if (!header.startsWith('Basic ')) return false;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    return stub.apiKeys.has(decoded.slice(decoded.indexOf(':') + 1));
  };

  function oauth(method: string, url: URL, form: URLSearchParams, request: IncomingMessage) {
    if (method === 'GET' && url.pathname === '/oauth2/authorize') {
      // Mailchimp's login and "Allow": straight back to the app with a code.
      const code = `code-${++counter}`;
      oauthCodes.add(code);
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      return { status: 302, body: null, location: back.toString() };
    }
    if (method === 'POST' && url.pathname === '/oauth2/token') {
      const code = form.get('code') ?? '';
      if (form.get('grant_type') !== 'authorization_code' || !oauthCodes.delete(code))
        return {
          status: 400,
          body: { error: 'invalid_grant', error_description: 'Invalid authorization code' },
        };
      const token = `token-${++counter}-${randomUUID()}`;
      oauthTokens.add(token);
      return { status: 200, body: { access_token: token, expires_in: 0, scope: null } };
    }
    if (method === 'GET' && url.pathname === '/oauth2/metadata') {
      const token = String(request.headers.authorization ?? '').replace(/^OAuth /, '');
      if (!oauthTokens.has(token)) return { status: 401, body: { error: 'invalid_token' } };
      return {
        status: 200,
        body: {
          dc: 'us21',
          role: 'owner',
          accountname: stub.accountName,
          user_id: 1,
          login_url: 'https://login.mailchimp.com',
          api_endpoint: stub.url,
        },
      };
    }
    return null;
  }

  async function api(
    method: string,
    url: URL,
    body: Record<string, unknown>,
  ): Promise<{ status: number; body: unknown }> {
    const parts = url.pathname
      .replace(/^\/3\.0/, '')
      .split('/')
      .filter(Boolean);
    if (method === 'GET' && parts.length === 1 && parts[0] === 'ping')
      return { status: 200, body: { health_status: "Everything's Chimpy!" } };
    if (method === 'GET' && parts.length === 0)
      return { status: 200, body: { account_id: 'stub', account_name: stub.accountName } };
    if (parts[0] !== 'lists')
      return problem(404, 'Resource Not Found', 'The requested resource could not be found.');
    if (method === 'GET' && parts.length === 1)
      return {
        status: 200,
        body: {
          lists: [...stub.lists.values()].map((l) => ({
            id: l.id,
            name: l.name,
            stats: { member_count: [...l.members.values()].filter((m) => m.status === 'subscribed').length },
          })),
          total_items: stub.lists.size,
        },
      };
    const list = stub.lists.get(parts[1] ?? '');
    if (!list) return problem(404, 'Resource Not Found', 'The requested resource could not be found.');
    if (method === 'GET' && parts.length === 2)
      return { status: 200, body: { id: list.id, name: list.name } };

    if (parts[2] === 'webhooks') {
      if (method === 'POST' && parts.length === 3) {
        if (stub.checkWebhook && (await stub.checkWebhook(String(body.url ?? ''))) !== 200)
          return problem(
            400,
            'Invalid Resource',
            "The resource submitted could not be validated. For field-specific details, see the 'errors' array.",
            {
              errors: [
                {
                  field: 'url',
                  message: "We couldn't verify the URL is working. Please double check and try again.",
                },
              ],
            },
          );
        const id = randomUUID().slice(0, 10);
        stub.webhooks.push({
          id,
          listId: list.id,
          url: String(body.url ?? ''),
          events: (body.events ?? {}) as Record<string, boolean>,
        });
        return { status: 200, body: { id, url: body.url, list_id: list.id } };
      }
      if (method === 'DELETE' && parts.length === 4) {
        const at = stub.webhooks.findIndex((w) => w.id === parts[3] && w.listId === list.id);
        if (at < 0) return problem(404, 'Resource Not Found', 'The requested resource could not be found.');
        stub.webhooks.splice(at, 1);
        return { status: 204, body: null };
      }
    }

    if (parts[2] !== 'members')
      return problem(404, 'Resource Not Found', 'The requested resource could not be found.');
    if (method === 'GET' && parts.length === 3) {
      const status = url.searchParams.get('status');
      const since = url.searchParams.get('since_last_changed');
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const countParam = Number(url.searchParams.get('count') ?? 10);
      const all = [...list.members.values()].filter(
        (m) =>
          (!status || m.status === status) && (!since || m.last_changed >= new Date(since).toISOString()),
      );
      return {
        status: 200,
        body: {
          members: all
            .slice(offset, offset + countParam)
            .map((m) => ({ email_address: m.email_address, status: m.status })),
          total_items: all.length,
        },
      };
    }
    const hash = parts[3] ?? '';
    if (method === 'PUT' && parts.length === 4) {
      const email = String(body.email_address ?? '');
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.endsWith('.invalid'))
        return problem(
          400,
          'Invalid Resource',
          `${email} looks fake or invalid, please enter a real email address.`,
        );
      const existing = list.members.get(hash);
      if (!existing && hashOf(email) !== hash)
        return problem(
          400,
          'Invalid Resource',
          "The resource submitted could not be validated. For field-specific details, see the 'errors' array.",
          {
            errors: [
              { field: 'email_address', message: 'The subscriber hash does not match the email address.' },
            ],
          },
        );
      const now = new Date().toISOString();
      const member: StubMember = existing ?? {
        email_address: email,
        status: (body.status_if_new ?? body.status) as StubMember['status'],
        merge_fields: {},
        tags: new Set(),
        last_changed: now,
      };
      if (existing && body.status && body.status !== existing.status) {
        existing.status = body.status as StubMember['status'];
        existing.last_changed = now;
      }
      member.merge_fields = {
        ...member.merge_fields,
        ...((body.merge_fields ?? {}) as Record<string, string>),
      };
      if (member.email_address !== email) {
        list.members.delete(hash);
        member.email_address = email;
      }
      list.members.set(hashOf(email), member);
      return {
        status: 200,
        body: {
          id: hashOf(email),
          email_address: email,
          status: member.status,
          merge_fields: member.merge_fields,
        },
      };
    }
    if (method === 'DELETE' && parts.length === 4) {
      const member = list.members.get(hash);
      if (!member) return problem(404, 'Resource Not Found', 'The requested resource could not be found.');
      member.status = 'archived';
      member.last_changed = new Date().toISOString();
      return { status: 204, body: null };
    }
    if (method === 'POST' && parts.length === 5 && parts[4] === 'tags') {
      const member = list.members.get(hash);
      if (!member) return problem(404, 'Resource Not Found', 'The requested resource could not be found.');
      for (const tag of (body.tags ?? []) as { name: string; status: string }[]) {
        if (tag.status === 'active') member.tags.add(tag.name);
        else member.tags.delete(tag.name);
      }
      return { status: 204, body: null };
    }
    return problem(405, 'Method Not Allowed', 'The requested method and resource are not compatible.');
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(request.url ?? '/', stub.url);
      stub.requests.push({
        method: request.method ?? 'GET',
        path: `${url.pathname}${url.search}`,
        headers: request.headers,
        body: raw,
      });
      const send = (status: number, body: unknown, location?: string) => {
        const headers: Record<string, string> = {};
        if (location) headers.location = location;
        if (body !== null)
          headers['content-type'] = status >= 400 ? 'application/problem+json' : 'application/json';
        response.writeHead(status, headers);
        response.end(body === null ? undefined : JSON.stringify(body));
      };
      const method = request.method ?? 'GET';
      if (url.pathname.startsWith('/oauth2/')) {
        const answer = oauth(method, url, new URLSearchParams(raw), request);
        if (answer)
          return send(answer.status, answer.body, 'location' in answer ? answer.location : undefined);
        return send(404, { error: 'not_found' });
      }
      if (!url.pathname.startsWith('/3.0'))
        return send(404, problem(404, 'Resource Not Found', 'Not found.').body);
      if (!authorised(request)) {
        const answer = problem(
          401,
          'API Key Invalid',
          "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
        );
        return send(answer.status, answer.body);
      }
      if (stub.busy > 0) {
        stub.busy--;
        const answer = problem(
          429,
          'Too Many Requests',
          'You have exceeded the limit of 10 simultaneous connections.',
        );
        return send(answer.status, answer.body);
      }
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        const answer = problem(400, 'JSON Parse Error', 'We encountered an unspecified JSON parsing error.');
        return send(answer.status, answer.body);
      }
      void api(method, url, body).then((answer) => send(answer.status, answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  stub.url = `http://127.0.0.1:${port}`;
  stub.apiUrl = `${stub.url}/3.0`;
  return stub;
}

/** The server's settings that point it at this stub (with an OAuth app, so both ways of connecting work). */
export function mailchimpStubEnv(stub: MailchimpStub): Record<string, string> {
  return {
    MAILCHIMP_API_URL: stub.apiUrl,
    MAILCHIMP_LOGIN_URL: stub.url,
    MAILCHIMP_CLIENT_ID: 'stub-client',
    MAILCHIMP_CLIENT_SECRET: 'stub-secret',
  };
}
