import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A stand-in for the part of Stripe Billing the installation calls (customers, subscription-mode
 * Checkout Sessions, retrieving and updating a subscription), on 127.0.0.1 and a free port: the real
 * stripe SDK is pointed at it, so tests go through the SDK and real HTTP. It answers in Stripe's wire
 * format (form-encoded bodies with bracketed keys in, JSON out) and signs webhook events with the
 * SDK's own test helper.
 */
export interface StripeBillingStub {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Every request: method, path and the form body as flat bracketed keys. */
  requests: { method: string; path: string; body: Record<string, string> }[];
  /** Subscriptions the stub knows: id → its price. */
  subscriptions: Map<string, { price: string; status: string }>;
  /** A webhook delivery as Stripe sends it: the JSON payload and its `Stripe-Signature`. */
  event(
    id: string,
    type: string,
    created: number,
    object: Record<string, unknown>,
  ): { payload: string; signature: string };
  close(): Promise<void>;
}

export async function startStripeBillingStub(): Promise<StripeBillingStub> {
  const secretKey = 'sk_test_billing_stub';
  const webhookSecret = 'whsec_billing_stub';
  const requests: StripeBillingStub['requests'] = [];
  const subscriptions = new Map<string, { price: string; status: string }>();
  let next = 1;
  const subscriptionObject = (id: string) => {
    const sub = subscriptions.get(id)!;
    return {
      id,
      object: 'subscription',
      status: sub.status,
      items: {
        object: 'list',
        data: [{ id: `si_${id}`, object: 'subscription_item', price: { id: sub.price } }],
      },
    };
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const body = Object.fromEntries(new URLSearchParams(raw));
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({ method: req.method ?? '', path, body });
      const send = (status: number, json: object) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`)
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
      if (req.method === 'POST' && path === '/v1/customers')
        return send(200, { id: `cus_${next++}`, object: 'customer', email: body.email ?? null });
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${next++}`;
        return send(200, {
          id,
          object: 'checkout.session',
          mode: body.mode,
          customer: body.customer,
          url: `https://checkout.stripe.test/c/pay/${id}`,
        });
      }
      const match = /^\/v1\/subscriptions\/([\w-]+)$/.exec(path);
      if (match && subscriptions.has(match[1]!)) {
        if (req.method === 'POST' && body['items[0][price]'])
          subscriptions.get(match[1]!)!.price = body['items[0][price]'];
        return send(200, subscriptionObject(match[1]!));
      }
      return send(404, { error: { type: 'invalid_request_error', message: `No such route ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const signer = new Stripe(secretKey);
  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    requests,
    subscriptions,
    event(id, type, created, object) {
      const payload = JSON.stringify({
        id,
        object: 'event',
        api_version: '2026-10-28.endive',
        created,
        type,
        livemode: false,
        data: { object },
      });
      return {
        payload,
        signature: signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
