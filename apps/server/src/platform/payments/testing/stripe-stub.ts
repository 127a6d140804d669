import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A stand-in for the part of the Stripe API the stripe adapter calls, on 127.0.0.1 and a free
 * port: the real stripe SDK is pointed at it (`apiBase`), so tests exercise the adapter through
 * the SDK and real HTTP. It speaks Stripe's wire format (form-encoded bodies with bracketed keys,
 * JSON answers, `{ error: { type, message } }` on failure) and keeps its sessions in memory,
 * standing in for Stripe's own state, not for ours. It also speaks refunds (`Idempotency-Key`
 * replays the first answer), customers, setup-mode sessions and off-session payment intents.
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
  customer: string | null;
  /** Null until the parent submits a payment; always expanded here (as with `expand[]=payment_intent`). */
  payment_intent: { id: string; object: 'payment_intent'; status: string } | null;
  /** Setup mode: the SetupIntent (its id unless `expand[]=setup_intent.payment_method`). */
  setup_intent: StubSetupIntent | string | null;
  payment_status: 'paid' | 'unpaid';
  return_url: string | null;
  status: 'open' | 'complete' | 'expired';
  ui_mode: string;
  url: null;
}

export interface StubPaymentMethod {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
}

export interface StubSetupIntent {
  id: string;
  object: 'setup_intent';
  customer: string | null;
  status: string;
  payment_method: StubPaymentMethod | string | null;
}

export interface StubRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  created: number;
  metadata: Record<string, string>;
  payment_intent: string;
  status: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
  failure_reason?: string;
}

export interface StubPaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  description: string | null;
  metadata: Record<string, string>;
  status: string;
}

/** How a saved card behaves when charged off-session (Stripe's test cards behave like these). */
export type StubCardBehaviour = 'pays' | 'card_declined' | 'authentication_required';

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
  refunds: Map<string, StubRefund>;
  customers: Map<string, { id: string; email: string | null; name: string | null }>;
  /** Payment intents: checkouts' (once paid) and off-session charges (also the declined ones). */
  intents: Map<string, StubPaymentIntent>;
  /** A refund's later state, as Stripe moves it on (then sends `refund.updated`). */
  settleRefund(refundId: string, status: StubRefund['status'], failureReason?: string): StubRefund;
  /** The parent saved a card in a setup-mode session: complete, with a succeeded SetupIntent. */
  markSetUp(sessionId: string, card?: { last4?: string; behaviour?: StubCardBehaviour }): StubPaymentMethod;
  /** A refund event as Stripe would send it (`refund.updated`, `charge.refund.updated`, …). */
  refundEvent(type: string, refundId: string): { id: string; type: string; payload: string };
  /** The parent paid: the session becomes complete and paid. */
  markPaid(sessionId: string): StubCheckoutSession;
  /** An asynchronous payment (e.g. a direct debit) failed: complete, unpaid, its intent needs a new method. */
  markFailed(sessionId: string): StubCheckoutSession;
  /** A checkout-session event as Stripe would send it, with the session as it is now. */
  checkoutEvent(type: string, sessionId: string): { id: string; type: string; payload: string };
  /**
   * Stripe Connect OAuth (Standard accounts): a code as connect.stripe.com/oauth/authorize hands
   * back once the user allowed access; POST /oauth/token turns it into `stripe_user_id` (once).
   * GET /oauth/authorize on the stub does the same for a browser and redirects to `redirect_uri`.
   */
  authorizeCode(accountId?: string): string;
  /** Accounts connected through OAuth and not deauthorized since. */
  connectedAccounts: Set<string>;
  /** The connected account each checkout session was created on (the `Stripe-Account` header). */
  sessionAccounts: Map<string, string>;
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

  const refunds = new Map<string, StubRefund>();
  const customers = new Map<string, { id: string; email: string | null; name: string | null }>();
  const intents = new Map<string, StubPaymentIntent>();
  const setupIntents = new Map<string, StubSetupIntent>();
  const paymentMethods = new Map<string, StubPaymentMethod & { behaviour: StubCardBehaviour }>();
  /** First answers by `Idempotency-Key`, replayed for the same key (as Stripe does for 24 hours). */
  const answered = new Map<string, Answer>();
  /** OAuth codes not yet exchanged, with the account each connects. */
  const codes = new Map<string, string>();
  const connectedAccounts = new Set<string>();
  const sessionAccounts = new Map<string, string>();
  function authorizeCode(accountId = `acct_${token(16)}`): string {
    const code = `ac_${token(24)}`;
    codes.set(code, accountId);
    return code;
  }
  /** The request's `Stripe-Account` header (Connect), if any. */
  let account: string | undefined;

  function handle(method: string, path: string, body: FormValue, idempotencyKey: string | undefined): Answer {
    if (method === 'POST' && idempotencyKey) {
      const earlier = answered.get(`${path} ${idempotencyKey}`);
      if (earlier) return earlier;
      const answer = route(method, path, body);
      answered.set(`${path} ${idempotencyKey}`, answer);
      return answer;
    }
    return route(method, path, body);
  }

  function route(method: string, path: string, body: FormValue): Answer {
    if (method === 'POST' && path === '/oauth/token') return oauthToken(body);
    if (method === 'POST' && path === '/oauth/deauthorize') return oauthDeauthorize(body);
    if (account && !connectedAccounts.has(account)) {
      // Stripe's answer to a Stripe-Account the platform has no access to.
      return {
        status: 403,
        json: {
          error: {
            type: 'invalid_request_error',
            code: 'account_invalid',
            message: 'The provided key does not have access to account.',
          },
        },
      };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const answer = createSession(body);
      const id = (answer.json as { id?: string }).id;
      if (answer.status === 200 && id && account) sessionAccounts.set(id, account);
      return answer;
    }
    if (method === 'POST' && path === '/v1/refunds') return createRefund(body);
    if (method === 'POST' && path === '/v1/customers') return createCustomer(body);
    if (method === 'POST' && path === '/v1/payment_intents') return createPaymentIntent(body);
    const refund = /^\/v1\/refunds\/([^/]+)$/.exec(path);
    if (refund && method === 'GET') {
      const found = refunds.get(decodeURIComponent(refund[1]!));
      if (!found) return stripeError(404, `No such refund: '${refund[1]}'`, 'resource_missing');
      return { status: 200, json: found };
    }
    const match = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (match) {
      const found = sessions.get(decodeURIComponent(match[1]!));
      // A session lives in the account it was created on: another account (or the platform) does not see it.
      const session = found && sessionAccounts.get(found.id) === account ? found : undefined;
      if (!session) {
        return stripeError(404, `No such checkout.session: '${match[1]}'`, 'resource_missing');
      }
      if (method === 'GET' && !match[2]) return { status: 200, json: withExpansions(session, body) };
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

  function oauthError(error: string, description: string): Answer {
    return { status: 400, json: { error, error_description: description } };
  }

  function oauthToken(body: FormValue): Answer {
    const params = asRecord(body);
    if (text(params.grant_type) !== 'authorization_code') {
      return oauthError('unsupported_grant_type', 'Only authorization_code is supported by this stub.');
    }
    const code = text(params.code) ?? '';
    const accountId = codes.get(code);
    if (!accountId) return oauthError('invalid_grant', `Authorization code does not exist: ${code}`);
    codes.delete(code);
    connectedAccounts.add(accountId);
    return {
      status: 200,
      json: {
        access_token: `sk_test_connected_${token(16)}`,
        livemode: false,
        refresh_token: `rt_${token(24)}`,
        token_type: 'bearer',
        stripe_publishable_key: `pk_test_${token(16)}`,
        stripe_user_id: accountId,
        scope: 'read_write',
      },
    };
  }

  function oauthDeauthorize(body: FormValue): Answer {
    const params = asRecord(body);
    const accountId = text(params.stripe_user_id) ?? '';
    if (!text(params.client_id)) return oauthError('invalid_request', 'No client_id provided.');
    if (!connectedAccounts.delete(accountId)) {
      return oauthError('invalid_client', `Stripe account ${accountId} is not connected to your platform.`);
    }
    return { status: 200, json: { stripe_user_id: accountId } };
  }

  /** A session as GET answers it: `expand[]=setup_intent.payment_method` expands the SetupIntent and its card. */
  function withExpansions(session: StubCheckoutSession, query: FormValue): StubCheckoutSession {
    const expand = asRecord(query).expand;
    const wanted = Array.isArray(expand) ? expand : typeof expand === 'string' ? [expand] : [];
    const intent = typeof session.setup_intent === 'string' ? setupIntents.get(session.setup_intent) : null;
    if (!intent) return session;
    if (wanted.includes('setup_intent.payment_method')) {
      const method =
        typeof intent.payment_method === 'string' ? paymentMethods.get(intent.payment_method) : null;
      const { behaviour: _behaviour, ...card } = method ?? { behaviour: 'pays' };
      return {
        ...session,
        setup_intent: { ...intent, payment_method: method ? (card as StubPaymentMethod) : null },
      };
    }
    if (wanted.includes('setup_intent')) return { ...session, setup_intent: intent };
    return session;
  }

  function createSetupSession(params: Record<string, FormValue>, uiMode: string): Answer {
    const customer = text(params.customer);
    if (!customer || !customers.has(customer)) {
      return stripeError(400, `No such customer: '${customer}'`, 'resource_missing');
    }
    if (params.line_items)
      return stripeError(400, 'line_items is not allowed in setup mode.', 'parameter_unknown');
    if (!text(params.currency) && !params.allowed_payment_method_types) {
      return stripeError(400, 'currency is required in setup mode.', 'parameter_missing');
    }
    const now = Math.floor(Date.now() / 1000);
    const id = `cs_test_${token(24)}`;
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(asRecord(params.metadata))) metadata[key] = text(value) ?? '';
    const intent: StubSetupIntent = {
      id: `seti_${token(24)}`,
      object: 'setup_intent',
      customer,
      status: 'requires_payment_method',
      payment_method: null,
    };
    setupIntents.set(intent.id, intent);
    const session: StubCheckoutSession = {
      id,
      object: 'checkout.session',
      amount_subtotal: 0,
      amount_total: 0,
      client_reference_id: text(params.client_reference_id) ?? null,
      client_secret: `${id}_secret_${token(16)}`,
      created: now,
      currency: text(params.currency) ?? '',
      customer,
      customer_email: null,
      expires_at: now + 24 * 3600,
      livemode: false,
      metadata,
      mode: 'setup',
      payment_intent: null,
      setup_intent: intent.id,
      payment_status: 'unpaid',
      return_url: text(params.return_url) ?? null,
      status: 'open',
      ui_mode: uiMode,
      url: null,
    };
    sessions.set(id, session);
    return { status: 200, json: session };
  }

  function createCustomer(body: FormValue): Answer {
    const params = asRecord(body);
    const customer = {
      id: `cus_${token(14)}`,
      email: text(params.email) ?? null,
      name: text(params.name) ?? null,
    };
    customers.set(customer.id, customer);
    return { status: 200, json: { ...customer, object: 'customer' } };
  }

  function createRefund(body: FormValue): Answer {
    const params = asRecord(body);
    const intent = intents.get(text(params.payment_intent) ?? '');
    if (intent?.status !== 'succeeded') {
      return stripeError(400, `No such payment_intent: '${text(params.payment_intent)}'`, 'resource_missing');
    }
    const refunded = [...refunds.values()]
      .filter((r) => r.payment_intent === intent.id && r.status !== 'failed' && r.status !== 'canceled')
      .reduce((sum, r) => sum + r.amount, 0);
    const amount = text(params.amount) ? Number(text(params.amount)) : intent.amount - refunded;
    if (!Number.isInteger(amount) || amount <= 0 || amount > intent.amount - refunded) {
      return stripeError(
        400,
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((intent.amount - refunded) / 100).toFixed(2)})`,
        'amount_too_large',
      );
    }
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(asRecord(params.metadata))) metadata[key] = text(value) ?? '';
    const refund: StubRefund = {
      id: `re_${token(24)}`,
      object: 'refund',
      amount,
      currency: intent.currency,
      created: Math.floor(Date.now() / 1000),
      metadata,
      payment_intent: intent.id,
      status: 'pending',
    };
    refunds.set(refund.id, refund);
    return { status: 200, json: refund };
  }

  function createPaymentIntent(body: FormValue): Answer {
    const params = asRecord(body);
    const method = paymentMethods.get(text(params.payment_method) ?? '');
    if (!method)
      return stripeError(400, `No such PaymentMethod: '${text(params.payment_method)}'`, 'resource_missing');
    if (method.customer !== text(params.customer)) {
      return stripeError(
        400,
        'The provided PaymentMethod belongs to another customer.',
        'payment_method_invalid',
      );
    }
    if (text(params.off_session) !== 'true' || text(params.confirm) !== 'true') {
      return stripeError(400, 'This stub only takes off-session, confirmed payment intents.');
    }
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(asRecord(params.metadata))) metadata[key] = text(value) ?? '';
    const intent: StubPaymentIntent = {
      id: `pi_${token(24)}`,
      object: 'payment_intent',
      amount: Number(text(params.amount)),
      currency: text(params.currency) ?? '',
      customer: method.customer,
      payment_method: method.id,
      description: text(params.description) ?? null,
      metadata,
      status: method.behaviour === 'pays' ? 'succeeded' : 'requires_payment_method',
    };
    intents.set(intent.id, intent);
    if (method.behaviour === 'pays') return { status: 200, json: intent };
    const declined = method.behaviour === 'card_declined';
    return {
      status: 402,
      json: {
        error: {
          type: 'card_error',
          code: method.behaviour,
          ...(declined ? { decline_code: 'generic_decline' } : {}),
          message: declined
            ? 'Your card was declined.'
            : 'Your card was declined. This transaction requires authentication.',
          payment_intent: intent,
          payment_method: method,
        },
      },
    };
  }

  function createSession(body: FormValue): Answer {
    const params = asRecord(body);
    const uiMode = text(params.ui_mode) ?? 'hosted_page';
    if (!VALID_UI_MODES.has(uiMode))
      return stripeError(400, `Invalid ui_mode: ${uiMode}`, 'parameter_invalid');
    if (uiMode === 'embedded_page' && !text(params.return_url)) {
      return stripeError(400, 'return_url is required for ui_mode embedded_page.', 'parameter_missing');
    }
    if (text(params.mode) === 'setup') return createSetupSession(params, uiMode);
    if (text(params.mode) !== 'payment')
      return stripeError(400, 'This stub only takes mode=payment or setup.');
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
      customer: null,
      payment_intent: null,
      setup_intent: null,
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
    if (method === 'GET' && url.pathname === '/oauth/authorize') {
      // The user allowed access on Stripe's page: back to redirect_uri with a code and the state.
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', authorizeCode());
      back.searchParams.set('scope', 'read_write');
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    const connect = req.headers['stripe-account'];
    account = typeof connect === 'string' ? connect : undefined;
    const key = req.headers['idempotency-key'];
    const answer =
      req.headers.authorization === `Bearer ${secretKey}`
        ? handle(method, url.pathname, body, typeof key === 'string' ? key : undefined)
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
    refunds,
    customers,
    intents,
    authorizeCode,
    connectedAccounts,
    sessionAccounts,
    markPaid(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`stripe stub: no session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = 'paid';
      session.payment_intent = { id: `pi_${token(24)}`, object: 'payment_intent', status: 'succeeded' };
      intents.set(session.payment_intent.id, {
        id: session.payment_intent.id,
        object: 'payment_intent',
        amount: session.amount_total,
        currency: session.currency,
        customer: null,
        payment_method: null,
        description: null,
        metadata: session.metadata,
        status: 'succeeded',
      });
      return session;
    },
    settleRefund(refundId, status, failureReason) {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`stripe stub: no refund ${refundId}`);
      refund.status = status;
      if (failureReason) refund.failure_reason = failureReason;
      return refund;
    },
    markSetUp(sessionId, card = {}) {
      const session = sessions.get(sessionId);
      const intent =
        typeof session?.setup_intent === 'string' ? setupIntents.get(session.setup_intent) : null;
      if (!session || !intent?.customer) throw new Error(`stripe stub: no setup session ${sessionId}`);
      const method = {
        id: `pm_${token(24)}`,
        object: 'payment_method' as const,
        type: 'card' as const,
        customer: intent.customer,
        card: {
          brand: 'visa',
          last4: card.last4 ?? '4242',
          exp_month: 8,
          exp_year: new Date().getFullYear() + 3,
        },
        behaviour: card.behaviour ?? 'pays',
      };
      paymentMethods.set(method.id, method);
      intent.status = 'succeeded';
      intent.payment_method = method.id;
      session.status = 'complete';
      session.payment_status = 'paid';
      const { behaviour: _behaviour, ...saved } = method;
      return saved;
    },
    refundEvent(type, refundId) {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`stripe stub: no refund ${refundId}`);
      const id = `evt_${token(24)}`;
      const event = {
        id,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        data: { object: { ...refund } },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      };
      return { id, type, payload: JSON.stringify(event, null, 2) };
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
        // A Connect event (a connected account's) names the account.
        ...(sessionAccounts.has(sessionId) ? { account: sessionAccounts.get(sessionId) } : {}),
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

type Answer = { status: number; json: unknown };

function stripeError(status: number, message: string, code?: string): Answer {
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
