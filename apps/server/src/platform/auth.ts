import type { Role } from '@tumble/contracts/auth';
import { TOKEN_HEADER } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { authSessions, companies, users } from '../features/accounts/accounts.tables.ts';
import { recordAudit } from './audit/audit.ts';
import { AppError, ForbiddenError, NotFoundError, UnauthorizedError } from './errors.ts';
import { assertRouteModule } from './modules.ts';
import { type Access, roleHas } from './permissions.ts';
import { cachedFinding } from './public-cache.ts';
import { sha256 } from './secrets.ts';
import { Tenant } from './tenancy.ts';

/** Session lifetime: ends after this long without a request, and in any case this long after sign-in. */
export const SESSION_IDLE_MS = 4 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

export interface AuthContext {
  sessionId: number;
  token: string;
  userId: number;
  role: Role;
  fullName: string;
  email: string;
  tenant: Tenant;
  /**
   * An operator's support access (decision 018): `tenant` is the company being helped and `role`
   * its administrator's; `home` is the operator's own company, where the session row lives.
   */
  support?: { companyId: number; reason: string; until: Date; home: Tenant };
}

/** How long an operator's support access lasts before the session falls back to the operator's own. */
export const SUPPORT_ACCESS_MS = 60 * 60 * 1000;

/**
 * 410 from a suspended company's public pages: the SPA shows "bookings are closed" instead of a
 * bare not-found (decision 018). Nothing of the company is deleted.
 */
export class CompanyClosedError extends AppError {
  constructor(companyName: string) {
    super(410, `Bookings with ${companyName} are closed at the moment.`, {}, 'company_closed');
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    /** A token was sent but is unknown, revoked or expired. */
    authExpired: boolean;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyInstance {
    /** Every guarded route with its declared access, for the route-walking tests. */
    routeAccess: { method: string; url: string; access: Access }[];
  }
}

/** Paths whose routes must declare `config.access`. */
const GUARDED = /^\/(api\/v1|rest|integrations)(\/|$)/;

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null; // 'Public' or nothing: an anonymous visitor
  const token = header.slice('Bearer '.length).trim();
  return token.length >= 20 && token.length <= 200 ? token : null;
}

async function loadSession(app: FastifyInstance, token: string): Promise<AuthContext | null> {
  const { db } = app.deps.database;
  const now = new Date();
  const [row] = await db
    .select({
      sessionId: authSessions.id,
      lastSeenAt: authSessions.lastSeenAt,
      userId: users.id,
      role: users.role,
      fullName: users.fullName,
      email: users.email,
      companyId: users.companyId,
      supportCompanyId: authSessions.supportCompanyId,
      supportReason: authSessions.supportReason,
      supportUntil: authSessions.supportUntil,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    // cross-tenant: the token is what tells us the company.
    .where(
      and(
        eq(authSessions.tokenHash, sha256(token)),
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, now),
        gt(authSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
        eq(users.status, 'active'),
        eq(companies.status, 'active'),
      ),
    )
    .limit(1);
  if (!row) return null;
  const tenant = new Tenant(row.companyId);
  // Touch at most once a minute: the idle clock needs minutes, not a write per request.
  if (now.getTime() - row.lastSeenAt.getTime() > 60_000) {
    await db
      .update(authSessions)
      .set({ lastSeenAt: sql`now()` })
      .where(tenant.byId(authSessions, row.sessionId));
  }
  const session = {
    sessionId: row.sessionId,
    token,
    userId: row.userId,
    role: row.role,
    fullName: row.fullName,
    email: row.email,
    tenant,
  };
  // An operator inside a company acts as its administrator, under the operator's own name (so the
  // audit log says who), until the support access runs out.
  const supporting =
    row.role === 'operator' && row.supportCompanyId && row.supportUntil && row.supportUntil > now;
  if (!supporting) return session;
  return {
    ...session,
    role: 'companyadmin',
    fullName: `${row.fullName} (operator support)`,
    tenant: new Tenant(row.supportCompanyId!),
    support: {
      companyId: row.supportCompanyId!,
      reason: row.supportReason ?? '',
      until: row.supportUntil!,
      home: tenant,
    },
  };
}

/**
 * Resolves the session of every request and enforces each route's `config.access` against the
 * permission table. A route under /api/v1, /rest or /integrations without `access` fails at start.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('auth', null);
  app.decorateRequest('authExpired', false);

  app.decorate('routeAccess', []);
  app.addHook('onRoute', (route) => {
    if (!GUARDED.test(route.url)) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} does not declare config.access`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.routeAccess.push({ method, url: route.url, access });
    }
  });

  // Authorisation runs before the body is parsed or validated: a refused caller learns nothing
  // about the route's input.
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (token) {
      request.auth = await loadSession(app, token);
      request.authExpired = request.auth === null;
    }
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return;
    if (!request.auth) {
      // 403 makes the SPA clear its session and say so (SPEC.md point 4).
      if (request.authExpired) throw new ForbiddenError(messages.sessionExpired, 'session_expired');
      throw new UnauthorizedError();
    }
    if (access !== 'signed-in' && !roleHas(request.auth.role, access)) throw new ForbiddenError();
  });

  app.addHook('onSend', async (request, reply) => {
    if (request.auth) reply.header(TOKEN_HEADER, request.auth.token);
  });

  // Every call an operator makes inside a company is in that company's audit log under the
  // operator's name (decision 018), reads included: support sees families' details. The user meta
  // the SPA reloads on every page is left out. Path only: a query can carry what was searched for.
  // Written before the answer leaves (onSend, with its status known): the operator never sees a
  // family's details that the log does not already hold.
  app.addHook('onSend', async (request, reply) => {
    const auth = request.auth;
    if (!auth?.support || !GUARDED.test(request.url) || request.url.startsWith('/rest/acl')) return;
    try {
      await recordAudit(app.deps.database.db, auth, {
        action: 'support-request',
        entity: 'requests',
        entityId: null,
        after: { method: request.method, path: request.url.split('?')[0], status: reply.statusCode },
      });
    } catch (error) {
      request.log.error({ err: error }, 'could not audit a support request');
    }
  });
});

/** The signed-in user of a route whose access is not 'public'. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new UnauthorizedError();
  return request.auth;
}

/**
 * The tenant of a public call: the company named by `authhash`. A signed-in parent of another
 * company gets 404, as if the page did not exist (a parent acts only in their own company).
 */
export async function publicTenant(
  app: FastifyInstance,
  request: FastifyRequest,
  authhash: string | undefined,
): Promise<Tenant> {
  if (!authhash) {
    if (request.auth) {
      await assertRouteModule(app.deps.database.db, request, request.auth.tenant);
      return request.auth.tenant;
    }
    throw new NotFoundError();
  }
  const { db } = app.deps.database;
  // Every public call starts here: from the public read cache.
  const company = await cachedFinding(db, `company-by-authhash:${authhash}`, async () => {
    const [row] = await db
      .select({ id: companies.id, name: companies.name, status: companies.status })
      .from(companies)
      // cross-tenant: a public page names its company by authhash alone.
      .where(and(eq(companies.authhash, authhash), eq(companies.kind, 'customer')))
      .limit(1);
    return row;
  });
  if (company?.status === 'suspended') throw new CompanyClosedError(company.name);
  if (company?.status !== 'active') throw new NotFoundError();
  if (request.auth && request.auth.tenant.companyId !== company.id && request.auth.role === 'student') {
    throw new NotFoundError();
  }
  const tenant = new Tenant(company.id);
  // A module the company does not have answers as if its public pages did not exist.
  await assertRouteModule(app.deps.database.db, request, tenant);
  return tenant;
}
