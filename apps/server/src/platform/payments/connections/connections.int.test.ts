import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../../features/bookings/bookings.tables.ts';
import { createBookableEvent } from '../../../testing/booking-fixtures.ts';
import { type CompanyRow, createCompany, createUser, sessionFor } from '../../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../../testing/harness.ts';
import { payments } from '../payments.tables.ts';
import * as squareStub from '../testing/square-stub.ts';
import * as stripeStub from '../testing/stripe-stub.ts';
import { paymentConnections } from './connections.tables.ts';

/**
 * Companies paid into their own accounts (issue 18): Stripe Connect OAuth and Square OAuth against
 * local stubs speaking the providers' OAuth and API endpoints, through the real SDKs. The
 * installation has Stripe keys (a company without a connection is paid through them, as before)
 * and a Square application but no Square account of its own.
 */
describe('payment connections', () => {
  let t: TestContext;
  let stripe: stripeStub.StripeStub;
  let square: squareStub.SquareStub;
  const page = '/api/v1/admin/integrations/payments';

  beforeAll(async () => {
    stripe = await stripeStub.start();
    square = await squareStub.start({ notificationUrl: 'http://tumble.test/integrations/square/webhook' });
    t = await createTestApp({
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_stub',
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
      STRIPE_CONNECT_CLIENT_ID: 'ca_stub',
      STRIPE_CONNECT_URL: stripe.url,
      STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect_endpoint',
      SQUARE_WEBHOOK_SIGNATURE_KEY: square.signatureKey,
      SQUARE_BASE_URL: square.url,
      SQUARE_APPLICATION_ID: square.applicationId,
      SQUARE_APPLICATION_SECRET: square.applicationSecret,
      SQUARE_CONNECT_URL: square.url,
    });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
    await square.close();
  });

  async function companyWithAdmin(paymentMethod: 'stripe' | 'square') {
    const company = await createCompany(t.database.db, { paymentMethod });
    const admin = await createUser(t.database.db, company.id, { role: 'companyadmin' });
    return { company, headers: (await sessionFor(t.database.db, admin)).headers };
  }

  const post = (url: string, headers: Record<string, string>, payload: object = {}) =>
    t.app.inject({ method: 'POST', url, headers, payload });

  const rowOf = async (companyId: number, provider: 'stripe' | 'square') =>
    (
      await t.database.db
        .select()
        .from(paymentConnections)
        .where(and(eq(paymentConnections.companyId, companyId), eq(paymentConnections.provider, provider)))
    )[0];

  /** Connect starts, the provider's page (the stub) approves and redirects: answers our callback's redirect. */
  async function connectThroughBrowser(provider: 'stripe' | 'square', headers: Record<string, string>) {
    const started = await post(`${page}/${provider}/connect`, headers);
    expect(started.statusCode, started.body).toBe(200);
    const authorize = await fetch(started.json().url, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const back = new URL(authorize.headers.get('location')!);
    const done = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(done.statusCode).toBe(302);
    return { location: done.headers.location as string, state: back.searchParams.get('state')! };
  }

  /** The state of a started authorisation, from the provider's authorize URL. */
  async function startedState(provider: 'stripe' | 'square', headers: Record<string, string>) {
    const started = await post(`${page}/${provider}/connect`, headers);
    return new URL(started.json().url).searchParams.get('state')!;
  }

  async function book(company: CompanyRow) {
    const fixture = await createBookableEvent(t.database.db, company.id, { capacity: 5 });
    const parent = await createUser(t.database.db, company.id, { role: 'student' });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/booking/checkout?authhash=${company.authhash}`,
      headers: (await sessionFor(t.database.db, parent)).headers,
      payload: {
        event_id: fixture.event.id,
        quantity: 1,
        booked: [fixture.cell()],
        children: [
          { first_name: 'Sam', last_name: 'Lee', dob: '2019-03-03', insurance_type: 'daily_insurance' },
        ],
        amount: 4800,
        accept_terms: true,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { sessionId: string; booking_hash: string; stripe_account?: string };
  }

  const bookingStatus = async (reference: string) =>
    (await t.database.db.select().from(bookings).where(eq(bookings.reference, reference)))[0]!.status;

  const deliverStripe = (payload: string, secret?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/integrations/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripe.signatureHeader(payload, secret ? { secret } : {}),
      },
      payload,
    });

  const deliverSquare = (body: string) =>
    t.app.inject({
      method: 'POST',
      url: '/integrations/square/webhook',
      headers: { 'content-type': 'application/json', 'x-square-hmacsha256-signature': square.sign(body) },
      payload: body,
    });

  describe('Stripe Connect', () => {
    it('connects the account the user allowed through OAuth, once per state', async () => {
      const { company, headers } = await companyWithAdmin('stripe');
      const started = await post(`${page}/stripe/connect`, headers);
      const url = new URL(started.json().url);
      expect(`${url.origin}${url.pathname}`).toBe(`${stripe.url}/oauth/authorize`);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        response_type: 'code',
        client_id: 'ca_stub',
        scope: 'read_write',
        redirect_uri: 'http://tumble.test/integrations/stripe/oauth-callback',
      });
      // Only the state's hash is stored.
      const state = url.searchParams.get('state')!;
      expect((await rowOf(company.id, 'stripe'))!.oauthStateHash).not.toBe(state);

      const code = stripe.authorizeCode('acct_1Gym');
      const done = await t.app.inject({
        method: 'GET',
        url: `/integrations/stripe/oauth-callback?code=${code}&scope=read_write&state=${state}`,
      });
      expect(done.headers.location).toBe('/admin/integrations/payments?connected=stripe');
      const status = (await t.app.inject({ method: 'GET', url: page, headers })).json();
      expect(status.connections[0]).toMatchObject({
        provider: 'stripe',
        state: 'connected',
        account_id: 'acct_1Gym',
      });
      // The same state a second time is refused (used once).
      const again = await t.app.inject({
        method: 'GET',
        url: `/integrations/stripe/oauth-callback?code=${stripe.authorizeCode()}&state=${state}`,
      });
      expect(again.headers.location).toContain('error=');
      expect((await rowOf(company.id, 'stripe'))!.accountId).toBe('acct_1Gym');
    });

    it('refuses an unknown or expired state, a refusal and a bad code, and stores nothing', async () => {
      const { company, headers } = await companyWithAdmin('stripe');
      const callback = (query: string) =>
        t.app.inject({ method: 'GET', url: `/integrations/stripe/oauth-callback?${query}` });
      const unknown = await callback(`code=${stripe.authorizeCode()}&state=not-ours`);
      expect(decodeURIComponent(unknown.headers.location as string)).toContain(
        'This sign-in was not started here or has expired. Please connect again.',
      );

      const expiredState = await startedState('stripe', headers);
      await t.database.db
        .update(paymentConnections)
        .set({ oauthStateExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(paymentConnections.companyId, company.id));
      const code = stripe.authorizeCode('acct_never');
      const expired = await callback(`code=${code}&state=${expiredState}`);
      expect(expired.headers.location).toContain('error=');

      const refused = await callback(`error=access_denied&state=${await startedState('stripe', headers)}`);
      expect(decodeURIComponent(refused.headers.location as string)).toContain('access was not allowed');

      const badCode = await callback(`code=ac_forged&state=${await startedState('stripe', headers)}`);
      expect(decodeURIComponent(badCode.headers.location as string)).toContain(
        'The provider did not accept the connection.',
      );

      expect((await rowOf(company.id, 'stripe'))!.accountId).toBeNull();
      // The code of the expired attempt was never exchanged.
      expect(stripe.connectedAccounts.has('acct_never')).toBe(false);
    });

    it("takes a connected company's checkout on its account; another company's stays on the installation's", async () => {
      const connected = await companyWithAdmin('stripe');
      const { location } = await connectThroughBrowser('stripe', connected.headers);
      expect(location).toBe('/admin/integrations/payments?connected=stripe');
      const account = (await rowOf(connected.company.id, 'stripe'))!.accountId!;
      const plain = await companyWithAdmin('stripe');
      // The Integrations page's Payments entry names the company's own account and this page.
      const integrations = await t.app.inject({
        method: 'GET',
        url: '/api/v1/admin/integrations',
        headers: connected.headers,
      });
      expect(
        integrations.json().integrations.find((i: { kind: string }) => i.kind === 'payments'),
      ).toMatchObject({
        state: 'connected',
        detail: `Stripe: your account ${account}`,
        page: '/admin/integrations/payments',
      });

      const own = await book(connected.company);
      const theirs = await book(plain.company);
      const created = (id: string) =>
        stripe.requests.find(
          (r) => r.method === 'POST' && r.path === '/v1/checkout/sessions' && stripe.sessionAccounts.get(id),
        );
      expect(stripe.sessionAccounts.get(own.sessionId)).toBe(account);
      // Stripe.js is created for the account, or it would not find the session.
      expect(own.stripe_account).toBe(account);
      expect(theirs.stripe_account).toBeUndefined();
      expect(created(own.sessionId)?.headers['stripe-account']).toBe(account);
      // No connection: today's behaviour, the installation's own account (no Stripe-Account header).
      expect(stripe.sessionAccounts.has(theirs.sessionId)).toBe(false);
      expect(stripe.sessions.get(theirs.sessionId)).toBeDefined();

      // The Connect event names the account: it settles that company's booking. It comes signed by
      // the Connect endpoint's own secret; a secret of neither endpoint is refused.
      stripe.markPaid(own.sessionId);
      const event = stripe.checkoutEvent('checkout.session.completed', own.sessionId);
      expect(JSON.parse(event.payload).account).toBe(account);
      expect((await deliverStripe(event.payload, 'whsec_someone')).statusCode).toBe(400);
      expect(await bookingStatus(own.booking_hash)).toBe('pending');
      expect((await deliverStripe(event.payload, 'whsec_connect_endpoint')).statusCode).toBe(200);
      expect(await bookingStatus(own.booking_hash)).toBe('confirmed');

      // The installation's own event (no account) still settles the unconnected company.
      stripe.markPaid(theirs.sessionId);
      await deliverStripe(stripe.checkoutEvent('checkout.session.completed', theirs.sessionId).payload);
      expect(await bookingStatus(theirs.booking_hash)).toBe('confirmed');
    });

    it('an event for an unknown account, or naming another company, changes nothing', async () => {
      const a = await companyWithAdmin('stripe');
      await connectThroughBrowser('stripe', a.headers);
      const b = await companyWithAdmin('stripe');
      await connectThroughBrowser('stripe', b.headers);
      const accountOfB = (await rowOf(b.company.id, 'stripe'))!.accountId!;
      const booking = await book(a.company);
      stripe.markPaid(booking.sessionId);
      const event = JSON.parse(stripe.checkoutEvent('checkout.session.completed', booking.sessionId).payload);

      const unknown = await deliverStripe(JSON.stringify({ ...event, account: 'acct_nobody' }));
      expect(unknown.statusCode).toBe(200);
      const foreign = await deliverStripe(JSON.stringify({ ...event, account: accountOfB }));
      expect(foreign.statusCode).toBe(200);
      const platform = await deliverStripe(JSON.stringify({ ...event, account: undefined }));
      expect(platform.statusCode).toBe(200);
      expect(await bookingStatus(booking.booking_hash)).toBe('pending');
      const [payment] = await t.database.db
        .select()
        .from(payments)
        .where(eq(payments.providerRef, booking.sessionId));
      expect(payment!.status).toBe('open');
    });

    it('disconnects (deauthorize at Stripe); checkouts then use the installation again', async () => {
      const { company, headers } = await companyWithAdmin('stripe');
      await connectThroughBrowser('stripe', headers);
      const account = (await rowOf(company.id, 'stripe'))!.accountId!;
      // Another company's disconnect touches nothing of this one.
      const other = await companyWithAdmin('stripe');
      await post(`${page}/stripe/disconnect`, other.headers);
      expect((await rowOf(company.id, 'stripe'))!.accountId).toBe(account);

      const response = await post(`${page}/stripe/disconnect`, headers);
      expect(response.statusCode).toBe(200);
      expect(response.json().connections[0]).toMatchObject({ state: 'not_connected', account_id: null });
      const deauthorize = stripe.requests.filter((r) => r.path === '/oauth/deauthorize').at(-1);
      expect(deauthorize?.body).toMatchObject({ client_id: 'ca_stub', stripe_user_id: account });
      expect(stripe.connectedAccounts.has(account)).toBe(false);
      const booking = await book(company);
      expect(stripe.sessionAccounts.has(booking.sessionId)).toBe(false);
    });

    it('an account already connected to another company is refused (its webhooks would name two)', async () => {
      const a = await companyWithAdmin('stripe');
      const b = await companyWithAdmin('stripe');
      const connect = async (headers: Record<string, string>) =>
        t.app.inject({
          method: 'GET',
          url: `/integrations/stripe/oauth-callback?code=${stripe.authorizeCode('acct_shared')}&state=${await startedState('stripe', headers)}`,
        });
      expect((await connect(a.headers)).headers.location).toBe(
        '/admin/integrations/payments?connected=stripe',
      );
      const refused = await connect(b.headers);
      expect(decodeURIComponent(refused.headers.location as string)).toContain(
        'This account is already connected to another company.',
      );
      expect((await rowOf(b.company.id, 'stripe'))!.accountId).toBeNull();
      expect((await rowOf(a.company.id, 'stripe'))!.accountId).toBe('acct_shared');
    });

    it('only the administrator connects; staff read the state; another company sees its own', async () => {
      const { company, headers } = await companyWithAdmin('stripe');
      await connectThroughBrowser('stripe', headers);
      const staff = await createUser(t.database.db, company.id, { role: 'companystaff' });
      const staffHeaders = (await sessionFor(t.database.db, staff)).headers;
      expect((await post(`${page}/stripe/connect`, staffHeaders)).statusCode).toBe(403);
      expect((await post(`${page}/stripe/disconnect`, staffHeaders)).statusCode).toBe(403);
      const other = await companyWithAdmin('stripe');
      const theirs = (await t.app.inject({ method: 'GET', url: page, headers: other.headers })).json();
      expect(theirs.connections[0]).toMatchObject({ state: 'not_connected', account_id: null });
    });
  });

  describe('Square OAuth', () => {
    it('connects the merchant (tokens sealed), then a location; checkouts use its token and location', async () => {
      const { company, headers } = await companyWithAdmin('square');
      // No Square account of the installation: an unconnected company cannot take cards.
      const before = await t.app.inject({
        method: 'POST',
        url: `/api/v1/booking/checkout?authhash=${company.authhash}`,
        payload: {},
      });
      expect(before.statusCode).not.toBe(200);

      const started = new URL((await post(`${page}/square/connect`, headers)).json().url);
      expect(`${started.origin}${started.pathname}`).toBe(`${square.url}/oauth2/authorize`);
      expect(started.searchParams.get('client_id')).toBe(square.applicationId);
      expect(started.searchParams.get('scope')).toContain('PAYMENTS_WRITE');
      const code = square.authorizeCode('MCONNECTED1');
      const done = await t.app.inject({
        method: 'GET',
        url: `/integrations/square/oauth-callback?code=${code}&response_type=code&state=${started.searchParams.get('state')}`,
      });
      expect(done.headers.location).toBe('/admin/integrations/payments?connected=square');
      const row = (await rowOf(company.id, 'square'))!;
      const issued = square.merchantTokens.get('MCONNECTED1')!;
      expect(row.accountId).toBe('MCONNECTED1');
      expect(row.accessToken).toMatch(/^v1\./);
      expect(row.accessToken).not.toContain(issued.accessToken);
      expect(row.refreshToken).not.toContain(issued.refreshToken);

      let status = (await t.app.inject({ method: 'GET', url: page, headers })).json();
      expect(status.connections[1]).toMatchObject({ provider: 'square', state: 'needs_location' });
      const locations = (
        await t.app.inject({ method: 'GET', url: `${page}/square/locations`, headers })
      ).json();
      expect(locations.locations.map((l: { id: string }) => l.id)).toEqual([
        'LMCONNECTED11',
        'LMCONNECTED12',
      ]);
      const wrong = await post(`${page}/square/location`, headers, { location_id: 'LSOMEONEELSE' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('Please choose one of your Square locations.');
      status = (await post(`${page}/square/location`, headers, { location_id: 'LMCONNECTED12' })).json();
      expect(status.connections[1]).toMatchObject({
        state: 'connected',
        location_id: 'LMCONNECTED12',
        location_name: 'Second gym',
      });

      const booking = await book(company);
      const link = square.requests.filter((r) => r.path === '/v2/online-checkout/payment-links').at(-1)!;
      expect(link.headers.authorization).toBe(`Bearer ${issued.accessToken}`);
      expect((link.body as { order: { location_id: string } }).order.location_id).toBe('LMCONNECTED12');
      expect(square.orderMerchants.get(booking.sessionId)).toBe('MCONNECTED1');

      // The merchant's event names the merchant: it settles this company's booking.
      const payment = square.markPaid(booking.sessionId);
      const event = square.paymentEvent('payment.updated', payment);
      expect(JSON.parse(event.body).merchant_id).toBe('MCONNECTED1');
      expect((await deliverSquare(event.body)).statusCode).toBe(200);
      expect(await bookingStatus(booking.booking_hash)).toBe('confirmed');
    });

    it("an event of a merchant nobody connected changes nothing for a connected company's order", async () => {
      const { company, headers } = await companyWithAdmin('square');
      await connectThroughBrowser('square', headers);
      const merchant = (await rowOf(company.id, 'square'))!.accountId!;
      await post(`${page}/square/location`, headers, { location_id: `L${merchant}1` });
      const booking = await book(company);
      const event = JSON.parse(
        square.paymentEvent('payment.updated', square.markPaid(booking.sessionId)).body,
      );
      const response = await deliverSquare(JSON.stringify({ ...event, merchant_id: 'MSOMEONE' }));
      expect(response.statusCode).toBe(200);
      expect(await bookingStatus(booking.booking_hash)).toBe('pending');
    });

    it('refreshes an access token about to run out before using it', async () => {
      const { company, headers } = await companyWithAdmin('square');
      await connectThroughBrowser('square', headers);
      const merchant = (await rowOf(company.id, 'square'))!.accountId!;
      await post(`${page}/square/location`, headers, { location_id: `L${merchant}1` });
      const old = square.merchantTokens.get(merchant)!.accessToken;
      square.expireAccessToken(merchant);
      await t.database.db
        .update(paymentConnections)
        .set({ accessTokenExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(paymentConnections.companyId, company.id));

      await book(company);
      const refresh = square.requests.filter((r) => r.path === '/oauth2/token').at(-1)!;
      expect(refresh.body).toMatchObject({ grant_type: 'refresh_token', client_id: square.applicationId });
      const renewed = square.merchantTokens.get(merchant)!.accessToken;
      expect(renewed).not.toBe(old);
      const link = square.requests.filter((r) => r.path === '/v2/online-checkout/payment-links').at(-1)!;
      expect(link.headers.authorization).toBe(`Bearer ${renewed}`);
      expect((await rowOf(company.id, 'square'))!.accessTokenExpiresAt!.getTime()).toBeGreaterThan(
        Date.now() + 29 * 24 * 3600 * 1000,
      );
    });

    it('disconnects (revoke at Square with the application secret); the tokens are gone', async () => {
      const { company, headers } = await companyWithAdmin('square');
      await connectThroughBrowser('square', headers);
      const merchant = (await rowOf(company.id, 'square'))!.accountId!;
      const response = await post(`${page}/square/disconnect`, headers);
      expect(response.statusCode).toBe(200);
      const revoke = square.requests.filter((r) => r.path === '/oauth2/revoke').at(-1)!;
      expect(revoke.headers.authorization).toBe(`Client ${square.applicationSecret}`);
      expect(revoke.body).toMatchObject({ client_id: square.applicationId, merchant_id: merchant });
      expect(square.merchantTokens.has(merchant)).toBe(false);
      const row = (await rowOf(company.id, 'square'))!;
      expect([row.accountId, row.accessToken, row.refreshToken]).toEqual([null, null, null]);
    });
  });
});
