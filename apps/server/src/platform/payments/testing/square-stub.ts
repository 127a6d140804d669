import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the part of the Square API the square adapter calls, on 127.0.0.1 and a free
 * port: the real square SDK is pointed at it (`baseUrl`), so tests exercise the adapter through the
 * SDK and real HTTP. It speaks Square's wire format (snake_case JSON, `{ errors: [...] }` on
 * failure, order versions) and keeps orders and payment links in memory, standing in for Square's
 * own state, not for ours. Payment-link orders start as DRAFT and turn OPEN when paid, as Square's.
 * It also speaks refunds, customers, cards on file and card payments (idempotent by key), with
 * Square's sandbox nonces: `cnon:card-nonce-ok` saves a Visa ending 1111, `cnon:card-nonce-declined`
 * is refused.
 */

export interface StubMoney {
  amount: number;
  currency: string;
}

export interface StubTender {
  id: string;
  location_id: string;
  transaction_id: string;
  created_at: string;
  amount_money: StubMoney;
  type: string;
  card_details?: { status: string; entry_method: string; card: { card_brand: string; last_4: string } };
  payment_id: string;
}

export interface StubOrder {
  id: string;
  location_id: string;
  reference_id?: string;
  source: { name: string };
  line_items: {
    uid: string;
    name: string;
    quantity: string;
    base_price_money: StubMoney;
    total_money: StubMoney;
  }[];
  metadata?: Record<string, string>;
  tenders?: StubTender[];
  state: 'DRAFT' | 'OPEN' | 'COMPLETED' | 'CANCELED';
  version: number;
  total_money: StubMoney;
  net_amount_due_money: StubMoney;
  created_at: string;
  updated_at: string;
}

export interface StubPaymentLink {
  id: string;
  version: number;
  description?: string;
  order_id: string;
  checkout_options?: Record<string, unknown>;
  pre_populated_data?: Record<string, unknown>;
  payment_note?: string;
  url: string;
  long_url: string;
  created_at: string;
}

export interface StubPayment {
  id: string;
  order_id?: string;
  location_id: string;
  status: 'COMPLETED' | 'FAILED';
  source_type: 'CARD';
  customer_id?: string;
  card_details?: { status: string; card: { id?: string; card_brand: string; last_4: string } };
  reference_id?: string;
  amount_money: StubMoney;
  total_money: StubMoney;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface StubRefund {
  id: string;
  status: 'PENDING' | 'COMPLETED' | 'REJECTED' | 'FAILED';
  location_id: string;
  amount_money: StubMoney;
  payment_id: string;
  order_id?: string;
  reason?: string;
  created_at: string;
  updated_at: string;
}

export interface StubCard {
  id: string;
  card_brand: string;
  last_4: string;
  exp_month: number;
  exp_year: number;
  customer_id: string;
  reference_id?: string;
  enabled: boolean;
  card_type: string;
  created_at: string;
  version: number;
}

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface SquareStub {
  /** Base URL for the adapter's `baseUrl`. */
  url: string;
  accessToken: string;
  locationId: string;
  signatureKey: string;
  notificationUrl: string;
  /** Every API request received, oldest first. */
  requests: StubRequest[];
  orders: Map<string, StubOrder>;
  links: Map<string, StubPaymentLink>;
  payments: Map<string, StubPayment>;
  refunds: Map<string, StubRefund>;
  customers: Map<string, Record<string, unknown>>;
  cards: Map<string, StubCard>;
  /** From now on every charge of this card is declined (the card saved fine). */
  declineChargesOf(cardId: string): void;
  /** A refund's later state, as Square moves it on (then sends `refund.updated`). */
  settleRefund(refundId: string, status: StubRefund['status']): StubRefund;
  /** A `refund.*` webhook body as Square sends it. */
  refundEvent(type: string, refund: StubRefund): { eventId: string; body: string };
  /** Whether deleting a link cancels its open order (Square's documented behaviour; default true). */
  deleteCancelsOrder: boolean;
  /** Square moves an order's version on its own at times: the next update then meets a newer one. */
  bumpVersionBeforeNextUpdate(): void;
  /** The buyer paid the whole order by card: a captured tender, the order OPEN, nothing due. */
  markPaid(orderId: string): StubPayment;
  /** A `payment.*` webhook body as Square sends it (compact JSON). */
  paymentEvent(type: string, payment: StubPayment): { eventId: string; body: string };
  /** The application's OAuth credentials (client id and secret). */
  applicationId: string;
  applicationSecret: string;
  /**
   * Square OAuth: a code as connect.squareup.com/oauth2/authorize hands back once the seller
   * allowed access; POST /oauth2/token turns it into the merchant's tokens (once). GET
   * /oauth2/authorize on the stub does the same for a browser and redirects to `redirect_uri`.
   */
  authorizeCode(merchantId?: string): string;
  /** Each merchant's current access token (issued by OAuth; revoked ones are gone). */
  merchantTokens: Map<string, { accessToken: string; refreshToken: string; expiresAt: string }>;
  /** The merchant each order belongs to (the installation's is MSTUB000001). */
  orderMerchants: Map<string, string>;
  /** The merchant's access token runs out now (the next use must refresh it). */
  expireAccessToken(merchantId: string): void;
  /** `x-square-hmacsha256-signature` for `body`: base64 HMAC-SHA256 of notification URL + body. */
  sign(body: string | Buffer, options?: { key?: string; notificationUrl?: string }): string;
  close(): Promise<void>;
}

type Answer = { status: number; json: unknown };

export async function start(
  options: {
    accessToken?: string;
    locationId?: string;
    signatureKey?: string;
    notificationUrl?: string;
  } = {},
): Promise<SquareStub> {
  const accessToken = options.accessToken ?? 'EAAA-stub-token';
  const locationId = options.locationId ?? 'LSTUB0000001';
  const signatureKey = options.signatureKey ?? 'stub-signature-key';
  const notificationUrl = options.notificationUrl ?? 'https://tumble.test/integrations/square/webhook';
  const requests: StubRequest[] = [];
  const orders = new Map<string, StubOrder>();
  const links = new Map<string, StubPaymentLink>();
  const createdByKey = new Map<string, Answer>();
  let bumpVersion = false;
  let baseUrl = '';

  const stub = {
    deleteCancelsOrder: true,
  };

  const payments = new Map<string, StubPayment>();
  const refunds = new Map<string, StubRefund>();
  const customers = new Map<string, Record<string, unknown>>();
  const cards = new Map<string, StubCard>();
  const decliningCards = new Set<string>();
  /** First answers of the card-on-file endpoints by idempotency key, replayed for the same key. */
  const answered = new Map<string, Answer>();
  const applicationId = 'sq0idp-stub-application';
  const applicationSecret = 'sq0csp-stub-secret';
  const INSTALLATION_MERCHANT = 'MSTUB000001';
  const codes = new Map<string, string>();
  const merchantTokens = new Map<string, { accessToken: string; refreshToken: string; expiresAt: string }>();
  const orderMerchants = new Map<string, string>();
  /** The merchant the current request acts for (by its bearer token). */
  let merchant = INSTALLATION_MERCHANT;
  const days = (n: number) => new Date(Date.now() + n * 24 * 3600 * 1000).toISOString();
  function authorizeCode(merchantId = `M${randomBytes(6).toString('hex').toUpperCase()}`): string {
    const code = `sq0cgp-${randomBytes(12).toString('hex')}`;
    codes.set(code, merchantId);
    return code;
  }
  /** The locations of the merchant the request acts for (the installation's: `locationId`). */
  function merchantLocations(): string[] {
    return merchant === INSTALLATION_MERCHANT
      ? [locationId, `L${INSTALLATION_MERCHANT}2`]
      : [`L${merchant}1`, `L${merchant}2`];
  }
  function merchantOfToken(bearer: string | undefined): string | null {
    if (bearer === `Bearer ${accessToken}`) return INSTALLATION_MERCHANT;
    for (const [id, tokens] of merchantTokens) {
      if (bearer === `Bearer ${tokens.accessToken}` && tokens.expiresAt > new Date().toISOString()) return id;
    }
    return null;
  }
  function oauth(path: string, body: Record<string, unknown>, authorization: string | undefined): Answer {
    if (path === '/oauth2/revoke') {
      if (authorization !== `Client ${applicationSecret}` || body.client_id !== applicationId) {
        return squareError(401, 'UNAUTHORIZED', 'Not authorized.');
      }
      const id = typeof body.merchant_id === 'string' ? body.merchant_id : '';
      if (!merchantTokens.delete(id)) return squareError(404, 'NOT_FOUND', 'No token for this merchant.');
      return { status: 200, json: { success: true } };
    }
    if (body.client_id !== applicationId || body.client_secret !== applicationSecret) {
      return squareError(401, 'UNAUTHORIZED', 'Invalid client credentials.');
    }
    let merchantId: string | undefined;
    if (body.grant_type === 'authorization_code') {
      merchantId = codes.get(String(body.code));
      codes.delete(String(body.code));
      if (!merchantId) return squareError(400, 'BAD_REQUEST', 'Invalid authorization code.');
      merchantTokens.set(merchantId, {
        accessToken: `EAAA-${randomBytes(12).toString('hex')}`,
        refreshToken: `EQAA-${randomBytes(12).toString('hex')}`,
        expiresAt: days(30),
      });
    } else if (body.grant_type === 'refresh_token') {
      merchantId = [...merchantTokens].find(([, t]) => t.refreshToken === body.refresh_token)?.[0];
      if (!merchantId) return squareError(401, 'UNAUTHORIZED', 'Invalid refresh token.');
      // The code flow's refresh token stays the same; a new access token for 30 more days.
      const tokens = merchantTokens.get(merchantId)!;
      tokens.accessToken = `EAAA-${randomBytes(12).toString('hex')}`;
      tokens.expiresAt = days(30);
    } else {
      return squareError(400, 'BAD_REQUEST', 'Unsupported grant_type.');
    }
    const tokens = merchantTokens.get(merchantId)!;
    return {
      status: 200,
      json: {
        access_token: tokens.accessToken,
        token_type: 'bearer',
        expires_at: tokens.expiresAt,
        merchant_id: merchantId,
        refresh_token: tokens.refreshToken,
        short_lived: false,
      },
    };
  }

  function once(path: string, body: Record<string, unknown>, make: () => Answer): Answer {
    const key = typeof body.idempotency_key === 'string' ? body.idempotency_key : '';
    if (!key) return squareError(400, 'MISSING_REQUIRED_PARAMETER', 'idempotency_key is required.');
    if (key.length > 45)
      return squareError(400, 'VALUE_TOO_LONG', 'Field must not be greater than 45 length.');
    const earlier = answered.get(`${path} ${key}`);
    if (earlier) return earlier;
    const answer = make();
    answered.set(`${path} ${key}`, answer);
    return answer;
  }

  function handle(method: string, path: string, body: Record<string, unknown>): Answer {
    if (method === 'POST' && path === '/v2/refunds') return once(path, body, () => createRefund(body));
    if (method === 'POST' && path === '/v2/customers') return once(path, body, () => createCustomer(body));
    if (method === 'POST' && path === '/v2/cards') return once(path, body, () => createCard(body));
    if (method === 'POST' && path === '/v2/payments') return once(path, body, () => createPayment(body));
    if (method === 'GET' && path === '/v2/locations') {
      const location = (id: string, name: string) => ({
        id,
        name,
        merchant_id: merchant,
        status: 'ACTIVE',
        capabilities: ['CREDIT_CARD_PROCESSING'],
        country: 'AU',
        currency: 'AUD',
      });
      return {
        status: 200,
        json: {
          locations: [
            location(merchantLocations()[0]!, 'Main gym'),
            location(merchantLocations()[1]!, 'Second gym'),
          ],
        },
      };
    }
    const item = /^\/v2\/(refunds|cards)\/([^/]+)$/.exec(path);
    if (item && method === 'GET') {
      const key = decodeURIComponent(item[2]!);
      const found = item[1] === 'refunds' ? refunds.get(key) : cards.get(key);
      if (!found) return squareError(404, 'NOT_FOUND', `Could not find ${item[1]} ${key}.`);
      return { status: 200, json: item[1] === 'refunds' ? { refund: found } : { card: found } };
    }
    if (method === 'POST' && path === '/v2/online-checkout/payment-links') return createLink(body);
    const link = /^\/v2\/online-checkout\/payment-links\/([^/]+)$/.exec(path);
    if (link) {
      const id = decodeURIComponent(link[1]!);
      const found = links.get(id);
      if (!found) return squareError(404, 'NOT_FOUND', `Payment link ${id} not found.`);
      if (method === 'GET') return { status: 200, json: { payment_link: found } };
      if (method === 'DELETE') return deleteLink(found);
    }
    const order = /^\/v2\/orders\/([^/]+)$/.exec(path);
    if (order) {
      const id = decodeURIComponent(order[1]!);
      // An order is its merchant's: another merchant's token does not find it.
      const found = orderMerchants.get(id) === merchant ? orders.get(id) : undefined;
      if (!found) return squareError(404, 'NOT_FOUND', `Order ${id} not found.`);
      if (method === 'GET') return { status: 200, json: { order: found } };
      if (method === 'PUT') return updateOrder(found, body);
    }
    return squareError(404, 'NOT_FOUND', `Unknown endpoint ${method} ${path}.`);
  }

  function createLink(body: Record<string, unknown>): Answer {
    const key = typeof body.idempotency_key === 'string' ? body.idempotency_key : '';
    const earlier = key ? createdByKey.get(key) : undefined;
    if (earlier) return earlier;

    const requested = (body.order ?? undefined) as
      | { location_id?: string; reference_id?: string; line_items?: Record<string, unknown>[] }
      | undefined;
    const quickPay = (body.quick_pay ?? undefined) as
      | { name?: string; price_money?: StubMoney; location_id?: string }
      | undefined;
    if (Boolean(requested) === Boolean(quickPay)) {
      return squareError(400, 'BAD_REQUEST', 'Exactly one of quick_pay or order is required.');
    }
    const location = requested?.location_id ?? quickPay?.location_id;
    if (!merchantLocations().includes(location ?? '')) {
      return squareError(400, 'NOT_FOUND', `Location ${location} not found.`);
    }
    if (requested?.reference_id && requested.reference_id.length > 40) {
      return squareError(
        400,
        'VALUE_TOO_LONG',
        'Field must not be greater than 40 length.',
        'order.reference_id',
      );
    }
    const lines = requested
      ? (requested.line_items ?? [])
      : [{ name: quickPay?.name, quantity: '1', base_price_money: quickPay?.price_money }];
    if (lines.length === 0) return squareError(400, 'MISSING_REQUIRED_PARAMETER', 'line_items is required.');

    const now = new Date().toISOString();
    const lineItems: StubOrder['line_items'] = [];
    for (const line of lines) {
      const price = line.base_price_money as StubMoney | undefined;
      const quantity = String(line.quantity ?? '');
      if (!price || !Number.isInteger(price.amount) || price.amount <= 0 || !/^\d+$/.test(quantity)) {
        return squareError(
          400,
          'INVALID_VALUE',
          'Each line item needs a quantity and a positive base price.',
        );
      }
      lineItems.push({
        uid: id(22),
        name: String(line.name ?? ''),
        quantity,
        base_price_money: price,
        total_money: { amount: price.amount * Number(quantity), currency: price.currency },
      });
    }
    const currency = lineItems[0]!.base_price_money.currency;
    const total = lineItems.reduce((sum, line) => sum + line.total_money.amount, 0);
    const order: StubOrder = {
      id: `${id(25)}ZY`,
      location_id: location ?? locationId,
      ...(requested?.reference_id ? { reference_id: requested.reference_id } : {}),
      source: { name: 'Tumble (stub)' },
      line_items: lineItems,
      state: 'DRAFT',
      version: 1,
      total_money: { amount: total, currency },
      net_amount_due_money: { amount: total, currency },
      created_at: now,
      updated_at: now,
    };
    const linkId = id(16).toUpperCase();
    const paymentLink: StubPaymentLink = {
      id: linkId,
      version: 1,
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      order_id: order.id,
      ...(body.checkout_options
        ? { checkout_options: body.checkout_options as Record<string, unknown> }
        : {}),
      ...(body.pre_populated_data
        ? { pre_populated_data: body.pre_populated_data as Record<string, unknown> }
        : {}),
      ...(typeof body.payment_note === 'string' ? { payment_note: body.payment_note } : {}),
      url: `${baseUrl}/pay/${linkId}`,
      long_url: `${baseUrl}/pay/${linkId}?long=1`,
      created_at: now,
    };
    orders.set(order.id, order);
    orderMerchants.set(order.id, merchant);
    links.set(linkId, paymentLink);
    const answer = {
      status: 200,
      json: { payment_link: paymentLink, related_resources: { orders: [order] } },
    };
    if (key) createdByKey.set(key, answer);
    return answer;
  }

  function createRefund(body: Record<string, unknown>): Answer {
    const payment = payments.get(String(body.payment_id ?? ''));
    if (payment?.status !== 'COMPLETED')
      return squareError(404, 'NOT_FOUND', `Payment ${body.payment_id} not found.`);
    const money = body.amount_money as StubMoney | undefined;
    const refunded = [...refunds.values()]
      .filter((r) => r.payment_id === payment.id && r.status !== 'REJECTED' && r.status !== 'FAILED')
      .reduce((sum, r) => sum + r.amount_money.amount, 0);
    if (!money || !Number.isInteger(money.amount) || money.amount <= 0) {
      return squareError(400, 'INVALID_VALUE', 'amount_money must be positive.', 'amount_money.amount');
    }
    if (money.amount > payment.amount_money.amount - refunded) {
      return squareError(
        400,
        'REFUND_AMOUNT_INVALID',
        'The requested refund amount exceeds the amount available to refund.',
      );
    }
    const now = new Date().toISOString();
    const refund: StubRefund = {
      id: `${payment.id}_${id(20)}`,
      status: 'PENDING',
      location_id: payment.location_id,
      amount_money: money,
      payment_id: payment.id,
      ...(payment.order_id ? { order_id: payment.order_id } : {}),
      ...(typeof body.reason === 'string' ? { reason: body.reason } : {}),
      created_at: now,
      updated_at: now,
    };
    refunds.set(refund.id, refund);
    return { status: 200, json: { refund } };
  }

  function createCustomer(body: Record<string, unknown>): Answer {
    const now = new Date().toISOString();
    const { idempotency_key: _key, ...fields } = body;
    const customer = { id: id(26).toUpperCase(), ...fields, created_at: now, updated_at: now, version: 0 };
    customers.set(customer.id, customer);
    return { status: 200, json: { customer } };
  }

  function createCard(body: Record<string, unknown>): Answer {
    const card = (body.card ?? {}) as { customer_id?: string; reference_id?: string };
    if (!card.customer_id || !customers.has(card.customer_id)) {
      return squareError(400, 'NOT_FOUND', `Customer ${card.customer_id} not found.`, 'card.customer_id');
    }
    if (body.source_id === 'cnon:card-nonce-declined') return declined('CARD_DECLINED', 'Card declined.');
    if (body.source_id !== 'cnon:card-nonce-ok') {
      return squareError(400, 'INVALID_CARD_DATA', 'Invalid card nonce.', 'source_id');
    }
    const saved: StubCard = {
      id: `ccof:${id(16)}`,
      card_brand: 'VISA',
      last_4: '1111',
      exp_month: 11,
      exp_year: new Date().getFullYear() + 4,
      customer_id: card.customer_id,
      ...(card.reference_id ? { reference_id: card.reference_id } : {}),
      enabled: true,
      card_type: 'CREDIT',
      created_at: new Date().toISOString(),
      version: 1,
    };
    cards.set(saved.id, saved);
    return { status: 200, json: { card: saved } };
  }

  function createPayment(body: Record<string, unknown>): Answer {
    const card = cards.get(String(body.source_id ?? ''));
    if (!card) return squareError(404, 'NOT_FOUND', `Card ${body.source_id} not found.`, 'source_id');
    if (card.customer_id !== body.customer_id) {
      return squareError(400, 'INVALID_VALUE', 'The card does not belong to this customer.', 'customer_id');
    }
    if (!merchantLocations().includes(String(body.location_id))) {
      return squareError(400, 'NOT_FOUND', 'Location not found.');
    }
    const money = body.amount_money as StubMoney | undefined;
    if (!money || !Number.isInteger(money.amount) || money.amount <= 0) {
      return squareError(400, 'INVALID_VALUE', 'amount_money must be positive.', 'amount_money.amount');
    }
    const now = new Date().toISOString();
    const failed = decliningCards.has(card.id);
    const payment: StubPayment = {
      id: id(29),
      location_id: String(body.location_id),
      status: failed ? 'FAILED' : 'COMPLETED',
      source_type: 'CARD',
      customer_id: card.customer_id,
      card_details: {
        status: failed ? 'FAILED' : 'CAPTURED',
        card: { id: card.id, card_brand: card.card_brand, last_4: card.last_4 },
      },
      ...(typeof body.reference_id === 'string' ? { reference_id: body.reference_id } : {}),
      amount_money: money,
      total_money: money,
      created_at: now,
      updated_at: now,
      version: 1,
    };
    payments.set(payment.id, payment);
    if (failed) return declined('CARD_DECLINED', "Authorization error: 'CARD_DECLINED'", payment);
    return { status: 200, json: { payment } };
  }

  /** How Square answers a refused card: PAYMENT_METHOD_ERROR, with the failed payment when there is one. */
  function declined(code: string, detail: string, payment?: StubPayment): Answer {
    return {
      status: 400,
      json: { errors: [{ category: 'PAYMENT_METHOD_ERROR', code, detail }], ...(payment ? { payment } : {}) },
    };
  }

  function deleteLink(link: StubPaymentLink): Answer {
    links.delete(link.id);
    const order = orders.get(link.order_id);
    const unpaid = order && (order.state === 'DRAFT' || order.state === 'OPEN') && !order.tenders?.length;
    if (order && unpaid && stub.deleteCancelsOrder) {
      cancel(order);
      return { status: 200, json: { id: link.id, cancelled_order_id: order.id } };
    }
    return { status: 200, json: { id: link.id } };
  }

  function updateOrder(order: StubOrder, body: Record<string, unknown>): Answer {
    if (bumpVersion) {
      bumpVersion = false;
      order.version += 1;
    }
    const change = (body.order ?? {}) as {
      version?: number;
      state?: string;
      metadata?: Record<string, string>;
    };
    if (change.version === undefined) {
      return squareError(400, 'BAD_REQUEST', 'Missing required parameter.', 'order.version');
    }
    if (change.version !== order.version) {
      return squareError(
        400,
        'VERSION_MISMATCH',
        `Supplied version ${change.version} does not match the current version ${order.version} of order ${order.id}.`,
        'order.version',
      );
    }
    if (order.state === 'COMPLETED' || order.state === 'CANCELED') {
      return squareError(400, 'BAD_REQUEST', `An order in state ${order.state} cannot be updated.`);
    }
    if (change.state !== undefined) {
      if (change.state !== 'CANCELED' && change.state !== 'OPEN') {
        return squareError(400, 'INVALID_VALUE', `Unsupported state ${change.state}.`, 'order.state');
      }
      if (change.state === 'CANCELED' && order.tenders?.length) {
        return squareError(400, 'BAD_REQUEST', 'An order with payments cannot be canceled.');
      }
    }
    if (change.metadata) order.metadata = { ...order.metadata, ...change.metadata };
    if (change.state === 'CANCELED') {
      cancel(order);
    } else {
      if (change.state === 'OPEN') order.state = 'OPEN';
      touch(order);
    }
    return { status: 200, json: { order } };
  }

  function cancel(order: StubOrder): void {
    order.state = 'CANCELED';
    touch(order);
  }

  function touch(order: StubOrder): void {
    order.version += 1;
    order.updated_at = new Date().toISOString();
  }

  const server = createServer((req, res) => {
    void serve(req, res);
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://stub');
    const path = url.pathname;
    if (method === 'GET' && path === '/oauth2/authorize') {
      // The seller allowed access on Square's page: back to redirect_uri with a code and the state.
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', authorizeCode());
      back.searchParams.set('response_type', 'code');
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    let body: Record<string, unknown> = {};
    let answer: Answer;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      requests.push({ method, path, headers: req.headers, body });
      const acting = merchantOfToken(req.headers.authorization);
      merchant = acting ?? INSTALLATION_MERCHANT;
      answer = path.startsWith('/oauth2/')
        ? oauth(path, body, req.headers.authorization)
        : acting
          ? handle(method, path, body)
          : {
              status: 401,
              json: {
                errors: [
                  {
                    category: 'AUTHENTICATION_ERROR',
                    code: 'UNAUTHORIZED',
                    detail: 'This request could not be authorized.',
                  },
                ],
              },
            };
    } catch {
      requests.push({ method, path, headers: req.headers, body: raw });
      answer = squareError(400, 'INVALID_REQUEST_ERROR', 'Invalid JSON body.');
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.json));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  return Object.assign(stub, {
    url: baseUrl,
    accessToken,
    locationId,
    signatureKey,
    notificationUrl,
    requests,
    orders,
    links,
    payments,
    refunds,
    customers,
    cards,
    applicationId,
    applicationSecret,
    authorizeCode,
    merchantTokens,
    orderMerchants,
    expireAccessToken(merchantId: string) {
      const tokens = merchantTokens.get(merchantId);
      if (!tokens) throw new Error(`square stub: merchant ${merchantId} has no token`);
      tokens.expiresAt = new Date(Date.now() - 1000).toISOString();
    },
    declineChargesOf(cardId: string) {
      decliningCards.add(cardId);
    },
    settleRefund(refundId: string, status: StubRefund['status']) {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`square stub: no refund ${refundId}`);
      refund.status = status;
      refund.updated_at = new Date().toISOString();
      return refund;
    },
    refundEvent(type: string, refund: StubRefund) {
      const eventId = randomUUID();
      const body = JSON.stringify({
        merchant_id: 'MSTUB000001',
        type,
        event_id: eventId,
        created_at: new Date().toISOString(),
        data: { type: 'refund', id: refund.id, object: { refund } },
      });
      return { eventId, body };
    },
    bumpVersionBeforeNextUpdate() {
      bumpVersion = true;
    },
    markPaid(orderId: string): StubPayment {
      const order = orders.get(orderId);
      if (!order) throw new Error(`square stub: no order ${orderId}`);
      if (order.state === 'CANCELED') throw new Error(`square stub: order ${orderId} is canceled`);
      const now = new Date().toISOString();
      const payment: StubPayment = {
        id: id(29),
        order_id: order.id,
        location_id: order.location_id,
        status: 'COMPLETED',
        amount_money: order.total_money,
        total_money: order.total_money,
        source_type: 'CARD',
        created_at: now,
        updated_at: now,
        version: 1,
      };
      order.tenders = [
        ...(order.tenders ?? []),
        {
          id: id(29),
          location_id: order.location_id,
          transaction_id: order.id,
          created_at: now,
          amount_money: order.total_money,
          type: 'CARD',
          card_details: {
            status: 'CAPTURED',
            entry_method: 'KEYED',
            card: { card_brand: 'VISA', last_4: '1111' },
          },
          payment_id: payment.id,
        },
      ];
      payments.set(payment.id, payment);
      order.state = 'OPEN';
      order.net_amount_due_money = { amount: 0, currency: order.total_money.currency };
      touch(order);
      return payment;
    },
    paymentEvent(type: string, payment: StubPayment) {
      const eventId = randomUUID();
      const body = JSON.stringify({
        merchant_id: orderMerchants.get(payment.order_id ?? '') ?? INSTALLATION_MERCHANT,
        type,
        event_id: eventId,
        created_at: new Date().toISOString(),
        data: { type: 'payment', id: payment.id, object: { payment } },
      });
      return { eventId, body };
    },
    sign(body: string | Buffer, signOptions: { key?: string; notificationUrl?: string } = {}) {
      return createHmac('sha256', signOptions.key ?? signatureKey)
        .update(signOptions.notificationUrl ?? notificationUrl)
        .update(body)
        .digest('base64');
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  });
}

function squareError(status: number, code: string, detail: string, field?: string): Answer {
  const category = status === 401 ? 'AUTHENTICATION_ERROR' : 'INVALID_REQUEST_ERROR';
  return { status, json: { errors: [{ category, code, detail, ...(field ? { field } : {}) }] } };
}

function id(length: number): string {
  return randomBytes(length).toString('base64url').replace(/[-_]/g, 'Q').slice(0, length);
}
