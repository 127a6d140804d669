import type {
  PaymentConnection,
  PaymentConnectionProvider,
  PaymentConnectionsStatus,
  SquareLocations,
} from '@tumble/contracts/payment-connections';
import { and, eq, isNotNull } from 'drizzle-orm';
import Stripe from 'stripe';
import type { Config } from '../../../config.ts';
import type { Db } from '../../../db/client.ts';
import { companyOf, contactOf } from '../../../features/accounts/accounts.service.ts';
import { recordAudit } from '../../audit/audit.ts';
import type { AuthContext } from '../../auth.ts';
import type { AppDeps } from '../../deps.ts';
import { BadRequestError } from '../../errors.ts';
import { randomToken, sha256 } from '../../secrets.ts';
import { Tenant } from '../../tenancy.ts';
import { open, seal } from '../../token-box.ts';
import { payments } from '../payments.tables.ts';
import type { WebhookNotice } from '../provider.ts';
import { isSquareError, squareClient as newSquareClient, squareSdk } from '../square.ts';
import { STRIPE_API_VERSION } from '../stripe.ts';
import { paymentConnections } from './connections.tables.ts';

/**
 * A company's own Stripe or Square account (issue 18, decision 008). Stripe: Connect with Standard
 * accounts through OAuth (connect.stripe.com/oauth/authorize, POST /oauth/token → stripe_user_id,
 * POST /oauth/deauthorize); the platform key then acts for the account with `Stripe-Account`.
 * Square: OAuth (connect.squareup.com/oauth2/authorize, POST /oauth2/token with the code, later
 * with the refresh token, POST /oauth2/revoke), then a location from GET /v2/locations; payments
 * use the merchant's token. The `state` of an authorisation in flight is kept as its SHA-256 with
 * an expiry, like the Xero connection (features/billing/accounting).
 */

type Row = typeof paymentConnections.$inferSelect;

/** Minutes an authorisation at Stripe or Square may take before its `state` is refused. */
const CONNECT_MINUTES = 15;
/** Square's access tokens live 30 days; one this close to its end is refreshed before use. */
const REFRESH_MARGIN_MS = 24 * 60 * 60 * 1000;
/** What Square payment links, card payments, customers, refunds and locations need. */
const SQUARE_SCOPES = [
  'MERCHANT_PROFILE_READ',
  'PAYMENTS_READ',
  'PAYMENTS_WRITE',
  'ORDERS_READ',
  'ORDERS_WRITE',
  'CUSTOMERS_READ',
  'CUSTOMERS_WRITE',
];

export const connectionsPage = '/admin/integrations/payments';
export const callbackPath = (provider: PaymentConnectionProvider) =>
  `/integrations/${provider}/oauth-callback`;
const redirectUri = (config: Config, provider: PaymentConnectionProvider) =>
  `${config.publicUrl}${callbackPath(provider)}`;

export const connectionMessages = {
  notAvailable: 'Connecting your own account is not set up on this installation.',
  badState: 'This sign-in was not started here or has expired. Please connect again.',
  refused: 'The account was not connected: access was not allowed.',
  failed: 'The provider did not accept the connection. Please connect again.',
  takenAccount: 'This account is already connected to another company.',
  unknownLocation: 'Please choose one of your Square locations.',
  notConnected: 'Square is not connected.',
};

export function connectAvailable(config: Config, provider: PaymentConnectionProvider): boolean {
  return provider === 'stripe'
    ? Boolean(config.STRIPE_CONNECT_CLIENT_ID && config.STRIPE_SECRET_KEY)
    : Boolean(config.SQUARE_APPLICATION_ID && config.SQUARE_APPLICATION_SECRET);
}

/** The platform's Stripe client (the installation's key), pointed at the stub in tests. */
function stripeClient(config: Config): Stripe {
  const base = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : null;
  return new Stripe(config.STRIPE_SECRET_KEY ?? '', {
    apiVersion: STRIPE_API_VERSION,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'http:' ? 80 : 443)),
          protocol: base.protocol === 'http:' ? ('http' as const) : ('https' as const),
        }
      : {}),
  });
}

/** A Square client with a merchant's token (or none: the OAuth token endpoint needs none). */
function squareClient(config: Config, token?: string) {
  return newSquareClient({
    ...(token ? { token } : {}),
    environment: config.SQUARE_ENVIRONMENT,
    ...(config.SQUARE_BASE_URL ? { baseUrl: config.SQUARE_BASE_URL } : {}),
  });
}

function squareConnectUrl(config: Config): string {
  return (
    config.SQUARE_CONNECT_URL ??
    (config.SQUARE_ENVIRONMENT === 'production'
      ? 'https://connect.squareup.com'
      : 'https://connect.squareupsandbox.com')
  );
}

async function rowOf(db: Db, tenant: Tenant, provider: PaymentConnectionProvider): Promise<Row | null> {
  const [row] = await db
    .select()
    .from(paymentConnections)
    .where(tenant.where(paymentConnections, eq(paymentConnections.provider, provider)));
  return row ?? null;
}

function stateOf(row: Row | null): PaymentConnection['state'] {
  if (!row?.accountId) return 'not_connected';
  if (row.provider === 'square' && !row.accessToken) return 'expired';
  if (row.provider === 'square' && !row.locationId) return 'needs_location';
  return 'connected';
}

function connectionOf(
  config: Config,
  provider: PaymentConnectionProvider,
  row: Row | null,
): PaymentConnection {
  return {
    provider,
    state: stateOf(row),
    available: connectAvailable(config, provider),
    account_id: row?.accountId ?? null,
    location_id: row?.locationId ?? null,
    location_name: row?.locationName ?? null,
    connected_at: row?.connectedAt?.toISOString() ?? null,
    last_error: row?.lastError ?? null,
  };
}

export async function paymentConnectionsOf(deps: AppDeps, tenant: Tenant): Promise<PaymentConnectionsStatus> {
  const { db } = deps.database;
  const { paymentMethod } = await companyOf(db, tenant);
  return {
    payment_method: paymentMethod,
    connections: await Promise.all(
      (['stripe', 'square'] as const).map(async (p) =>
        connectionOf(deps.config, p, await rowOf(db, tenant, p)),
      ),
    ),
  };
}

/**
 * For the Integrations page (features/integrations): the connection of the company's payment
 * method in a line. `installation` when the company has none and is paid through the
 * installation's own keys (an installation serving one company).
 */
export async function paymentConnectionSummary(
  deps: AppDeps,
  tenant: Tenant,
): Promise<{
  paymentMethod: 'stripe' | 'square' | 'test';
  state: PaymentConnection['state'] | 'installation';
  accountId: string | null;
  lastError: string | null;
}> {
  const status = await paymentConnectionsOf(deps, tenant);
  const method = status.payment_method;
  const connection = status.connections.find((c) => c.provider === method);
  if (!connection || connection.state === 'not_connected') {
    return { paymentMethod: method, state: 'installation', accountId: null, lastError: null };
  }
  return {
    paymentMethod: method,
    state: connection.state,
    accountId: connection.account_id,
    lastError: connection.last_error,
  };
}

/** Step 1: a one-time `state` (kept hashed, with an expiry) and the provider's page to go to. */
export async function startConnect(
  deps: AppDeps,
  auth: AuthContext,
  provider: PaymentConnectionProvider,
): Promise<{ url: string }> {
  const { config } = deps;
  if (!connectAvailable(config, provider)) throw new BadRequestError(connectionMessages.notAvailable);
  const { db } = deps.database;
  const state = randomToken();
  const pending = {
    oauthStateHash: sha256(state),
    oauthStartedBy: auth.userId,
    oauthStateExpiresAt: new Date(Date.now() + CONNECT_MINUTES * 60_000),
  };
  await db
    .insert(paymentConnections)
    .values(auth.tenant.values({ provider, ...pending }))
    .onConflictDoUpdate({
      target: [paymentConnections.companyId, paymentConnections.provider],
      set: pending,
    });
  if (provider === 'stripe') {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: config.STRIPE_CONNECT_CLIENT_ID ?? '',
      scope: 'read_write',
      state,
      redirect_uri: redirectUri(config, 'stripe'),
    });
    return { url: `${config.STRIPE_CONNECT_URL.replace(/\/$/, '')}/oauth/authorize?${query}` };
  }
  const query = new URLSearchParams({
    client_id: config.SQUARE_APPLICATION_ID ?? '',
    scope: SQUARE_SCOPES.join(' '),
    session: 'false',
    state,
    redirect_uri: redirectUri(config, 'square'),
  });
  return { url: `${squareConnectUrl(config).replace(/\/$/, '')}/oauth2/authorize?${query}` };
}

/**
 * Step 2: the provider sends the browser back with `code` and our `state`. The state names the
 * company (not the session: the callback arrives from the provider's site); it is used once. A
 * bad or expired state, a refusal or a code the provider does not accept stores nothing. Answers
 * where to send the browser.
 */
export async function finishConnect(
  deps: AppDeps,
  provider: PaymentConnectionProvider,
  query: { code?: string; state?: string; error?: string },
): Promise<string> {
  const fail = (message: string) => `${connectionsPage}?error=${encodeURIComponent(message)}`;
  if (!query.state || !connectAvailable(deps.config, provider)) return fail(connectionMessages.badState);
  const { db } = deps.database;
  const [row] = await db
    .select()
    .from(paymentConnections)
    // cross-tenant: the one-time state (256 random bits, stored hashed) is what finds the company.
    .where(
      and(
        eq(paymentConnections.provider, provider),
        eq(paymentConnections.oauthStateHash, sha256(query.state)),
      ),
    );
  if (!row) return fail(connectionMessages.badState);
  const tenant = new Tenant(row.companyId);
  await db
    .update(paymentConnections)
    .set({ oauthStateHash: null, oauthStateExpiresAt: null })
    .where(tenant.where(paymentConnections, eq(paymentConnections.provider, provider)));
  if (!row.oauthStateExpiresAt || row.oauthStateExpiresAt < new Date())
    return fail(connectionMessages.badState);
  if (query.error || !query.code) return fail(connectionMessages.refused);

  let connected: Partial<Row> & { accountId: string };
  try {
    connected =
      provider === 'stripe'
        ? await stripeToken(deps.config, query.code)
        : await squareToken(deps.config, query.code);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError || isSquareError(error)) {
      return fail(connectionMessages.failed);
    }
    throw error;
  }
  const [taken] = await db
    .select({ companyId: paymentConnections.companyId })
    .from(paymentConnections)
    // cross-tenant: one account serves one company (its webhooks name the account).
    .where(
      and(eq(paymentConnections.provider, provider), eq(paymentConnections.accountId, connected.accountId)),
    );
  if (taken && taken.companyId !== row.companyId) return fail(connectionMessages.takenAccount);
  await db.transaction(async (tx) => {
    await tx
      .update(paymentConnections)
      .set({
        accessToken: null,
        refreshToken: null,
        accessTokenExpiresAt: null,
        locationId: null,
        locationName: null,
        ...connected,
        connectedAt: new Date(),
        connectedBy: row.oauthStartedBy,
        lastError: null,
      })
      .where(tenant.where(paymentConnections, eq(paymentConnections.provider, provider)));
    if (row.oauthStartedBy) {
      const [after] = await tx
        .select({
          id: paymentConnections.id,
          provider: paymentConnections.provider,
          account: paymentConnections.accountId,
        })
        .from(paymentConnections)
        .where(tenant.where(paymentConnections, eq(paymentConnections.provider, provider)));
      await recordAudit(tx, await auditorOf(tx, tenant, row.oauthStartedBy), {
        action: `payment_connection.connect`,
        entity: 'payment_connection',
        entityId: row.id,
        after: after ?? null,
      });
    }
  });
  return `${connectionsPage}?connected=${provider}`;
}

/** Who started the authorisation, as the audit log names staff (the callback has no session). */
async function auditorOf(tx: Db, tenant: Tenant, userId: number): Promise<AuthContext> {
  const user = await contactOf(tx, tenant, userId);
  return {
    sessionId: 0,
    token: '',
    userId,
    role: 'companyadmin',
    fullName: user.fullName,
    email: user.email,
    tenant,
  };
}

async function stripeToken(config: Config, code: string) {
  const token = await stripeClient(config).oauth.token({ grant_type: 'authorization_code', code });
  if (!token.stripe_user_id) throw new Stripe.errors.StripeInvalidGrantError({ message: 'No account.' });
  return { accountId: token.stripe_user_id };
}

async function squareToken(config: Config, code: string) {
  const token = await (await squareClient(config)).oAuth.obtainToken({
    clientId: config.SQUARE_APPLICATION_ID ?? '',
    clientSecret: config.SQUARE_APPLICATION_SECRET ?? '',
    code,
    grantType: 'authorization_code',
    redirectUri: redirectUri(config, 'square'),
  });
  if (!token.accessToken || !token.refreshToken || !token.merchantId || !token.expiresAt) {
    throw new (await squareSdk()).SquareError({ message: 'Square returned an incomplete token.' });
  }
  return {
    accountId: token.merchantId,
    accessToken: seal(config, token.accessToken),
    refreshToken: seal(config, token.refreshToken),
    accessTokenExpiresAt: new Date(token.expiresAt),
  };
}

/** The merchant's locations that can take card payments, for choosing one. */
export async function squareLocations(deps: AppDeps, tenant: Tenant): Promise<SquareLocations> {
  const access = await squareAccessOf(deps, tenant);
  if (!access) throw new BadRequestError(connectionMessages.notConnected);
  const { locations } = await (await squareClient(deps.config, access.accessToken)).locations.list();
  return {
    locations: (locations ?? [])
      .filter(
        (l) => l.id && l.status === 'ACTIVE' && (l.capabilities ?? []).includes('CREDIT_CARD_PROCESSING'),
      )
      .map((l) => ({ id: l.id!, name: l.name ?? l.id! })),
  };
}

export async function chooseSquareLocation(
  deps: AppDeps,
  auth: AuthContext,
  locationId: string,
): Promise<void> {
  const { locations } = await squareLocations(deps, auth.tenant);
  const location = locations.find((l) => l.id === locationId);
  if (!location) throw new BadRequestError(connectionMessages.unknownLocation);
  await deps.database.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ id: paymentConnections.id, location: paymentConnections.locationId })
      .from(paymentConnections)
      .where(auth.tenant.where(paymentConnections, eq(paymentConnections.provider, 'square')))
      .for('update');
    await tx
      .update(paymentConnections)
      .set({ locationId: location.id, locationName: location.name })
      .where(auth.tenant.where(paymentConnections, eq(paymentConnections.provider, 'square')));
    await recordAudit(tx, auth, {
      action: 'payment_connection.location',
      entity: 'payment_connection',
      entityId: before?.id ?? null,
      before: before ?? null,
      after: { id: before?.id ?? null, location: location.id },
    });
  });
}

/**
 * Disconnects: Stripe deauthorizes the account from the platform, Square revokes the merchant's
 * tokens. The connection is forgotten here either way (a failure there is kept as the last error
 * in words only if forgetting failed, which it cannot), and payments go back to the installation's
 * keys when it has them.
 */
export async function disconnect(deps: AppDeps, auth: AuthContext, provider: PaymentConnectionProvider) {
  const { config } = deps;
  const { db } = deps.database;
  const row = await rowOf(db, auth.tenant, provider);
  if (!row?.accountId) return;
  try {
    if (provider === 'stripe') {
      await stripeClient(config).oauth.deauthorize({
        client_id: config.STRIPE_CONNECT_CLIENT_ID ?? '',
        stripe_user_id: row.accountId,
      });
    } else {
      // Revoking is authorised by the application secret (`Authorization: Client …`), not a token.
      await (await squareClient(config, config.SQUARE_APPLICATION_SECRET)).oAuth.revokeToken(
        { clientId: config.SQUARE_APPLICATION_ID ?? '', merchantId: row.accountId },
        { headers: { Authorization: `Client ${config.SQUARE_APPLICATION_SECRET ?? ''}` } },
      );
    }
  } catch (error) {
    // Already disconnected at the provider (the company did it there): nothing left to undo.
    if (!(error instanceof Stripe.errors.StripeError || isSquareError(error))) throw error;
  }
  await db.transaction(async (tx) => {
    await tx
      .update(paymentConnections)
      .set({
        accountId: null,
        accessToken: null,
        refreshToken: null,
        accessTokenExpiresAt: null,
        locationId: null,
        locationName: null,
        connectedAt: null,
        connectedBy: null,
        lastError: null,
      })
      .where(auth.tenant.where(paymentConnections, eq(paymentConnections.provider, provider)));
    await recordAudit(tx, auth, {
      action: 'payment_connection.disconnect',
      entity: 'payment_connection',
      entityId: row.id,
      before: { id: row.id, provider, account: row.accountId },
      after: { id: row.id, provider, account: null },
    });
  });
}

// ---- What the providers use (registry.ts) ------------------------------------------------------

/** The company's connected Stripe account (acct_…), or null when it has none. */
export async function stripeAccountOf(deps: AppDeps, tenant: Tenant): Promise<string | null> {
  return (await rowOf(deps.database.db, tenant, 'stripe'))?.accountId ?? null;
}

/**
 * Whether the company has connected an account of this provider (connected, waiting for a
 * location, or expired): then its payments never fall back to the installation's account.
 */
export async function hasConnection(deps: AppDeps, tenant: Tenant, provider: PaymentConnectionProvider) {
  return Boolean((await rowOf(deps.database.db, tenant, provider))?.accountId);
}

/**
 * The merchant's access token (refreshed when it is about to run out; Square's refresh token of
 * the code flow stays the same and does not expire) and location. Null when Square is not
 * connected; `locationId` null while no location is chosen. A refused refresh ends the tokens
 * (state "expired") and staff connect again.
 */
export async function squareAccessOf(
  deps: AppDeps,
  tenant: Tenant,
  now: Date = new Date(),
): Promise<{ accessToken: string; locationId: string | null; merchantId: string } | null> {
  const { config } = deps;
  const { db } = deps.database;
  const row = await rowOf(db, tenant, 'square');
  if (!row?.accountId || !row.accessToken || !row.refreshToken) return null;
  const expiresAt = row.accessTokenExpiresAt ?? new Date(0);
  if (expiresAt.getTime() - now.getTime() > REFRESH_MARGIN_MS) {
    return {
      accessToken: open(config, row.accessToken),
      locationId: row.locationId,
      merchantId: row.accountId,
    };
  }
  try {
    const token = await (await squareClient(config)).oAuth.obtainToken({
      clientId: config.SQUARE_APPLICATION_ID ?? '',
      clientSecret: config.SQUARE_APPLICATION_SECRET ?? '',
      refreshToken: open(config, row.refreshToken),
      grantType: 'refresh_token',
    });
    if (!token.accessToken || !token.expiresAt)
      throw new (await squareSdk()).SquareError({ message: 'No access token.' });
    await db
      .update(paymentConnections)
      .set({
        accessToken: seal(config, token.accessToken),
        ...(token.refreshToken ? { refreshToken: seal(config, token.refreshToken) } : {}),
        accessTokenExpiresAt: new Date(token.expiresAt),
        lastError: null,
      })
      .where(tenant.where(paymentConnections, eq(paymentConnections.provider, 'square')));
    return { accessToken: token.accessToken, locationId: row.locationId, merchantId: row.accountId };
  } catch (error) {
    if (!isSquareError(error)) throw error;
    if (error.statusCode === 400 || error.statusCode === 401) {
      await db
        .update(paymentConnections)
        .set({
          accessToken: null,
          refreshToken: null,
          accessTokenExpiresAt: null,
          lastError: 'Square no longer accepts the connection: connect again.',
        })
        .where(tenant.where(paymentConnections, eq(paymentConnections.provider, 'square')));
      return null;
    }
    throw error;
  }
}

// ---- Webhooks ---------------------------------------------------------------------------------

/** The company whose connected account this is; null for an account no company connected. */
async function companyOfAccount(db: Db, provider: PaymentConnectionProvider, accountId: string) {
  const [row] = await db
    .select({ companyId: paymentConnections.companyId })
    .from(paymentConnections)
    // cross-tenant: a webhook names only the provider's account; the connection names the company.
    .where(and(eq(paymentConnections.provider, provider), eq(paymentConnections.accountId, accountId)));
  return row?.companyId ?? null;
}

/**
 * Whether a verified webhook may act. A Connect event names its account (`account`), a Square
 * event its merchant (`merchant_id`): the account names the company, and a checkout is settled
 * only when it is that company's. A Stripe event for an account nobody connected changes nothing.
 * An event of the installation's own account (no `account`; a Square merchant nobody connected)
 * only settles checkouts of companies without a connection of that provider: today's behaviour
 * for an installation serving one company.
 */
export async function webhookMayAct(
  deps: AppDeps,
  provider: PaymentConnectionProvider,
  rawBody: Buffer,
  notice: WebhookNotice,
): Promise<boolean> {
  const { db } = deps.database;
  const event = JSON.parse(rawBody.toString('utf8')) as { account?: unknown; merchant_id?: unknown };
  const named = provider === 'stripe' ? event.account : event.merchant_id;
  const account = typeof named === 'string' && named !== '' ? named : null;
  const company = account ? await companyOfAccount(db, provider, account) : null;
  if (provider === 'stripe' && account && company === null) return false;
  if (notice.kind !== 'checkout') return true;
  const [payment] = await db
    .select({ companyId: payments.companyId })
    .from(payments)
    // cross-tenant: a provider's notice names only its own session id; the payment names the company.
    .where(and(eq(payments.provider, provider), eq(payments.providerRef, notice.sessionId)));
  if (!payment) return true;
  if (company !== null) return payment.companyId === company;
  return !(await hasConnection(deps, new Tenant(payment.companyId), provider));
}

/** The Square location of the company's connection (our card page's Web Payments SDK needs it). */
export async function squareLocationOf(deps: AppDeps, tenant: Tenant): Promise<string | null> {
  const [row] = await deps.database.db
    .select({ locationId: paymentConnections.locationId })
    .from(paymentConnections)
    .where(
      tenant.where(
        paymentConnections,
        eq(paymentConnections.provider, 'square'),
        isNotNull(paymentConnections.accountId),
      ),
    );
  return row?.locationId ?? null;
}
