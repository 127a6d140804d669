import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A stand-in for the part of the Stripe API the stripe adapter calls, on 127.0.0.1 and a free
 * port: the real stripe SDK is pointed at it (`apiBase`), so tests exercise the adapter through
 * the SDK and real HTTP. It speaks Stripe's wire format (form-encoded bodies with bracketed keys,
 * JSON answers, `{ error: { type, message } }` on failure) and keeps its sessions in memory,
 * standing in for Stripe's own state, not for ours.
 */

export interface StubCheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  client_reference_id: string | null;
  client_secret: string;
  created: number;
  currency: string;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: string;
  /** Null until the parent submits a payment; always expanded here (as with `expand[]=payment_intent`). */
  payment_intent: { id: string; object: 'payment_intent'; status: string } | null;
  payment_status: 'paid' | 'unpaid';
  return_url: string | null;
  status: 'open' | 'complete' | 'expired';
  ui_mode: string;
  url: null;
}

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The decoded form body, nested as Stripe reads it (`a[b][0]=x` → `{ a: { b: ['x'] } }`). */
  body: FormValue;
}

export type FormValue = string | FormValue[] | { [key: string]: FormValue };

export interface StripeStub {
  /** Base URL for the adapter's `apiBase`. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Every API request received, oldest first. */
  requests: StubRequest[];
  sessions: Map<string, StubCheckoutSession>;
  /** The parent paid: the session becomes complete and paid. */
  markPaid(sessionId: string): StubCheckoutSession;
  /** An asynchronous payment (e.g. a direct debit) failed: complete, unpaid, its intent needs a new method. */
  markFailed(sessionId: string): StubCheckoutSession;
  /** A checkout-session event as Stripe would send it, with the session as it is now. */
  checkoutEvent(type: string, sessionId: string): { id: string; type: string; payload: string };
  /** The `Stripe-Signature` header for `payload`, by the SDK's own test helper. */
  signatureHeader(payload: string, options?: { secret?: string; timestamp?: number }): string;
  close(): Promise<void>;
}

const VALID_UI_MODES = new Set(['elements', 'embedded_page', 'form', 'hosted_page']);

export async function start(
  options: { secretKey?: string; webhookSecret?: string } = {},
): Promise<StripeStub> {
  const secretKey = options.secretKey ?? 'sk_test_stub';
  const webhookSecret = options.webhookSecret ?? 'whsec_stub';
  const requests: StubRequest[] = [];
  const sessions = new Map<string, StubCheckoutSession>();

  function handle(method: string, path: string, body: FormValue): { status: number; json: unknown } {
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(body);
    const match = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (match) {
      const session = sessions.get(decodeURIComponent(match[1]!));
      if (!session) {
        return stripeError(404, `No such checkout.session: '${match[1]}'`, 'resource_missing');
      }
      if (method === 'GET' && !match[2]) return { status: 200, json: session };
      if (method === 'POST' && match[2]) {
        if (session.status !== 'open') {
          return stripeError(
            400,
            `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
          );
        }
        session.status = 'expired';
        return { status: 200, json: session };
      }
    }
    return stripeError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  function createSession(body: FormValue): { status: number; json: unknown } {
    const params = asRecord(body);
    const uiMode = text(params.ui_mode) ?? 'hosted_page';
    if (!VALID_UI_MODES.has(uiMode))
      return stripeError(400, `Invalid ui_mode: ${uiMode}`, 'parameter_invalid');
    if (text(params.mode) !== 'payment') return stripeError(400, 'This stub only takes mode=payment.');
    if (uiMode === 'embedded_page' && !text(params.return_url)) {
      return stripeError(400, 'return_url is required for ui_mode embedded_page.', 'parameter_missing');
    }
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = text(params.expires_at) ? Number(text(params.expires_at)) : now + 24 * 3600;
    if (expiresAt < now + 30 * 60 || expiresAt > now + 24 * 3600) {
      return stripeError(
        400,
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
        'parameter_invalid',
      );
    }
    const items = Array.isArray(params.line_items) ? params.line_items : [];
    if (items.length === 0)
      return stripeError(400, 'line_items is required in payment mode.', 'parameter_missing');
    let total = 0;
    let currency = '';
    for (const item of items) {
      const line = asRecord(item);
      const price = asRecord(line.price_data);
      const unitAmount = Number(text(price.unit_amount));
      const quantity = Number(text(line.quantity) ?? '1');
      if (!Number.isInteger(unitAmount) || unitAmount < 0) {
        return stripeError(400, 'Invalid integer: unit_amount', 'parameter_invalid');
      }
      currency = text(price.currency) ?? '';
      total += unitAmount * quantity;
    }
    const id = `cs_test_${token(24)}`;
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(asRecord(params.metadata))) metadata[key] = text(value) ?? '';
    const session: StubCheckoutSession = {
      id,
      object: 'checkout.session',
      amount_subtotal: total,
      amount_total: total,
      client_reference_id: text(params.client_reference_id) ?? null,
      client_secret: `${id}_secret_${token(16)}`,
      created: now,
      currency,
      customer_email: text(params.customer_email) ?? null,
      expires_at: expiresAt,
      livemode: false,
      metadata,
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      return_url: text(params.return_url) ?? null,
      status: 'open',
      ui_mode: uiMode,
      url: null,
    };
    sessions.set(id, session);
    return { status: 200, json: session };
  }

  const server = createServer((req, res) => {
    void serve(req, res);
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stub');
    const method = req.method ?? 'GET';
    const body = parseForm(method === 'GET' ? url.search.slice(1) : Buffer.concat(chunks).toString('utf8'));
    requests.push({ method, path: url.pathname, headers: req.headers, body });
    const answer =
      req.headers.authorization === `Bearer ${secretKey}`
        ? handle(method, url.pathname, body)
        : stripeError(401, 'Invalid API Key provided.');
    res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': `req_${token(12)}` });
    res.end(JSON.stringify(answer.json));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    requests,
    sessions,
    markPaid(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`stripe stub: no session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = 'paid';
      session.payment_intent = { id: `pi_${token(24)}`, object: 'payment_intent', status: 'succeeded' };
      return session;
    },
    markFailed(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`stripe stub: no session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = 'unpaid';
      session.payment_intent = {
        id: `pi_${token(24)}`,
        object: 'payment_intent',
        status: 'requires_payment_method',
      };
      return session;
    },
    checkoutEvent(type, sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`stripe stub: no session ${sessionId}`);
      const id = `evt_${token(24)}`;
      const event = {
        id,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        data: { object: { ...session } },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      };
      return { id, type, payload: JSON.stringify(event, null, 2) };
    },
    signatureHeader(payload, signOptions = {}) {
      return Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: signOptions.secret ?? webhookSecret,
        ...(signOptions.timestamp === undefined ? {} : { timestamp: signOptions.timestamp }),
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function stripeError(status: number, message: string, code?: string): { status: number; json: unknown } {
  return { status, json: { error: { type: 'invalid_request_error', message, ...(code ? { code } : {}) } } };
}

/** Decodes `a[b][0][c]=x&...` into nested objects and arrays, the way Stripe's API reads it. */
export function parseForm(encoded: string): FormValue {
  const root: Record<string, FormValue> = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Record<string, FormValue> = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        node[part] = value;
        return;
      }
      const next = node[part];
      if (typeof next !== 'object' || next === null) node[part] = {};
      node = node[part] as Record<string, FormValue>;
    });
  }
  return arraysFromIndexedObjects(root);
}

function arraysFromIndexedObjects(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((key) => [key, arraysFromIndexedObjects(value[key]!)]));
  const indexed = keys.length > 0 && keys.every((key, i) => key === String(i));
  return indexed ? keys.map((key) => converted[key]!) : converted;
}

function asRecord(value: FormValue | undefined): Record<string, FormValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

function text(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function token(length: number): string {
  return randomBytes(length).toString('base64url').replace(/[-_]/g, 'x').slice(0, length);
}
