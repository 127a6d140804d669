import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { companies } from '../features/accounts/accounts.tables.ts';
import { NotFoundError } from './errors.ts';
import { plans } from './installation/installation.tables.ts';
import { subscriptions } from './installation/subscriptions.tables.ts';
import { cached, cachedFinding } from './public-cache.ts';
import { Tenant } from './tenancy.ts';

/**
 * What each module of the product is (SPEC modules): the API routes it owns (URL prefixes under
 * /api/v1, each covering the path and everything below it), the engine resources it owns (their
 * API under /api/v1/admin/<name> and their sidebar entry /admin/<name>) and the SPA pages it owns.
 * A route or page belongs to the module with the longest matching prefix (private sessions under
 * /admin/coaches belong to private lessons); what no module names is always on (accounts,
 * families, settings, the dashboard, payments and webhooks).
 *
 * Only routes whose company is known where the gate runs are named: staff and parent routes (the
 * session) and public pages (publicTenant). Webhooks and OAuth callbacks find their company
 * elsewhere and stay outside every module.
 */
export const moduleCatalogue = [
  {
    key: 'events',
    label: 'Events',
    description: 'Holiday programs and events: sessions, tickets, bookings and the public booking page.',
    resources: ['events', 'insurances', 'restricted-dates'],
    api: ['/booking', '/events', '/students/my-bookings', '/students/my-waitlist', '/students/events'],
    pages: ['/admin/students/my-booking'],
  },
  {
    key: 'parties',
    label: 'Birthday parties',
    description: 'Party slots, pricing, party bookings, guests and invitations.',
    resources: ['slots', 'party-bookings', 'birthday-pricing', 'party-invitation-settings'],
    api: ['/birthday-party', '/students/my-party-bookings'],
    pages: ['/admin/students/my-party-booking'],
  },
  {
    key: 'classes',
    label: 'Classes',
    description: 'Terms, classes, the timetable, rolls, enrolments and the registration form.',
    resources: [
      'terms',
      'term-classes',
      'class-types',
      'rooms',
      'class-payments',
      'registration-forms',
      'embed-origins',
    ],
    api: [
      '/admin/timetable',
      '/admin/cover',
      '/admin/roll',
      '/admin/registration-anomalies',
      '/admin/term-calendar',
      '/admin/rollovers',
      '/admin/class-students',
      '/registration',
      '/students/classes',
      '/students/enrolments',
      '/students/re-enrol',
    ],
    pages: [
      '/admin/timetable',
      '/admin/cover',
      '/admin/registration-anomalies',
      '/admin/roll',
      '/admin/students/classes',
      '/admin/students/re-enroll',
      '/admin/students/registrations',
    ],
  },
  {
    key: 'private-lessons',
    label: 'Private lessons',
    description: "Coaches' private sessions that families book and pay for.",
    resources: ['private-lesson-policy'],
    api: ['/admin/private-lessons', '/admin/coaches/:parentId/private-sessions', '/students/private-lessons'],
    pages: ['/admin/private-lessons', '/admin/students/private-classes'],
  },
  {
    key: 'waivers',
    label: 'Waivers',
    description: 'Waiver templates, signing before an event, party or class, and signed waivers.',
    resources: ['waivers'],
    api: [
      '/admin/signed-waivers',
      '/event-booking/waiver',
      '/birthday-party/waiver',
      '/registration/waiver',
      '/students/waivers',
    ],
    pages: ['/admin/students/waiver'],
  },
  {
    key: 'billing',
    label: 'Invoices',
    description: 'Invoices, credit notes, term billing runs, statements and paying invoices online.',
    resources: ['payment-terms'],
    api: [
      '/admin/invoices',
      '/admin/credit-notes',
      '/admin/billing-profile',
      '/admin/billing-runs',
      '/admin/terms/:id/billing',
      '/admin/terms/:id/billing-runs',
      '/admin/parents/:id/statement',
      '/students/invoices',
      '/students/invoice-payment',
      '/students/statement',
    ],
    pages: ['/admin/invoices', '/admin/billing-profile', '/admin/students/invoices'],
  },
  {
    key: 'students',
    label: 'Flags and tasks',
    description: "Flags on children and families, task lists and the families' tasks.",
    resources: ['flags', 'task-lists'],
    api: ['/admin/flagged', '/admin/tasks', '/students/tasks'],
    pages: ['/admin/flagged', '/admin/tasks', '/admin/students/tasks'],
  },
  {
    key: 'uniforms',
    label: 'Uniforms',
    description: 'Uniform types and sizes, orders by families and the front desk, coaches’ uniforms.',
    resources: ['uniform-types'],
    api: ['/admin/uniform-orders', '/admin/coaches/:parentId/uniforms', '/students/uniform-orders'],
    pages: ['/admin/uniform-orders', '/admin/students/uniforms'],
  },
  {
    key: 'communications',
    label: 'Communications',
    description: 'Mass mail, reminder emails and contacts.',
    resources: ['reminder-emails', 'contacts'],
    api: ['/admin/communications', '/communications', '/admin/contacts', '/admin/settings/crm'],
    pages: ['/admin/communications', '/admin/contacts', '/admin/settings/crm'],
  },
  {
    key: 'reports',
    label: 'Reports',
    description:
      'Daily roll, insurance, coupon usage, trial conversions, enrolment comparison and the money reports.',
    resources: [],
    api: ['/admin/reports'],
    pages: ['/admin/reports'],
  },
  {
    key: 'integrations',
    label: 'Integrations',
    description: 'Accounting (Xero), mailing lists and Google.',
    resources: [],
    api: ['/admin/integrations/accounting', '/admin/integrations/mailing', '/admin/integrations/google'],
    pages: ['/admin/integrations/accounting', '/admin/integrations/mailing', '/admin/integrations/google'],
  },
] as const satisfies readonly {
  key: string;
  label: string;
  description: string;
  resources: readonly string[];
  api: readonly string[];
  pages: readonly string[];
}[];

export type ModuleKey = (typeof moduleCatalogue)[number]['key'];
export const moduleKeys: readonly ModuleKey[] = moduleCatalogue.map((m) => m.key);

export function isModuleKey(value: string): value is ModuleKey {
  return (moduleKeys as readonly string[]).includes(value);
}

const API = '/api/v1';

/** Every prefix with its module, longest first: the first match is the most specific. */
const apiPrefixes = moduleCatalogue
  .flatMap((m) => [
    ...m.api.map((p) => ({ prefix: `${API}${p}`, key: m.key as ModuleKey })),
    ...m.resources.map((r) => ({ prefix: `${API}/admin/${r}`, key: m.key as ModuleKey })),
  ])
  .sort((a, b) => b.prefix.length - a.prefix.length);

const pagePrefixes = moduleCatalogue
  .flatMap((m) => [
    ...m.pages.map((p) => ({ prefix: p, key: m.key as ModuleKey })),
    ...m.resources.map((r) => ({ prefix: `/admin/${r}`, key: m.key as ModuleKey })),
  ])
  .sort((a, b) => b.prefix.length - a.prefix.length);

const under = (path: string, prefix: string) =>
  path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`);

/** The module a route (its pattern, e.g. `/api/v1/admin/terms/:id/billing`) belongs to; null: always on. */
export function moduleOfRoute(url: string | undefined): ModuleKey | null {
  if (!url) return null;
  return apiPrefixes.find((p) => under(url, p.prefix))?.key ?? null;
}

/** The module an SPA page (`/admin/timetable`) belongs to; null: always on. */
export function moduleOfPage(path: string): ModuleKey | null {
  return pagePrefixes.find((p) => under(path, p.prefix))?.key ?? null;
}

/** A company's modules: its plan's (every module without a plan) minus the ones it turned off. */
export function modulesOf(
  planModules: readonly string[] | null,
  disabled: readonly string[],
): Set<ModuleKey> {
  const offered = planModules === null ? moduleKeys : moduleKeys.filter((k) => planModules.includes(k));
  return new Set(offered.filter((k) => !disabled.includes(k)));
}

/** The company's plan modules (null: no plan) and the modules it turned off. */
export async function moduleSettings(
  db: Db,
  tenant: Tenant,
): Promise<{ planModules: string[] | null; disabled: string[] }> {
  const [row] = await db
    .select({ disabled: companies.disabledModules, planModules: plans.modules })
    .from(companies)
    .leftJoin(subscriptions, eq(subscriptions.companyId, companies.id))
    .leftJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(companies.id, tenant.companyId))
    .limit(1);
  return { planModules: row?.planModules ?? null, disabled: row?.disabled ?? [] };
}

export async function enabledModules(db: Db, tenant: Tenant): Promise<Set<ModuleKey>> {
  // Every request checks them: from the public read cache (a transaction reads them itself). The
  // toggle reads moduleSettings directly, so its answer shows its own change.
  const { planModules, disabled } = await cached(db, tenant, 'module-settings', () =>
    moduleSettings(db, tenant),
  );
  return modulesOf(planModules, disabled);
}

/**
 * Answers 404 when the request's route belongs to a module the company does not have, as if the
 * route did not exist. Public routes call it from publicTenant, once the company is known.
 */
export async function assertRouteModule(db: Db, request: FastifyRequest, tenant: Tenant): Promise<void> {
  const module = moduleOfRoute(request.routeOptions.url);
  if (module && !(await enabledModules(db, tenant)).has(module)) throw new NotFoundError();
}

/**
 * Gates every route of a module before its input is even read: staff and parent routes by the
 * session's company, public pages by the company their `authhash` names (or the signed-in user's,
 * as publicTenant does). A public page naming its company in the body is gated by publicTenant.
 */
export const modulesPlugin = fp(async (app: FastifyInstance) => {
  const { db } = app.deps.database;
  app.addHook('onRequest', async (request) => {
    if (!moduleOfRoute(request.routeOptions.url)) return;
    if (request.routeOptions.config.access !== 'public') {
      if (request.auth) await assertRouteModule(db, request, request.auth.tenant);
      return;
    }
    const { authhash } = (request.query ?? {}) as { authhash?: unknown };
    if (typeof authhash === 'string' && authhash) {
      const company = await cachedFinding(db, `company-id-by-authhash:${authhash}`, async () => {
        const [row] = await db
          .select({ id: companies.id })
          .from(companies)
          // cross-tenant: a public page names its company by authhash alone.
          .where(eq(companies.authhash, authhash))
          .limit(1);
        return row;
      });
      if (company) await assertRouteModule(db, request, new Tenant(company.id));
    } else if (request.auth) {
      await assertRouteModule(db, request, request.auth.tenant);
    }
  });
});

/** The SPA pages of every module the company does not have (the SPA shows them as not found). */
export function hiddenPages(enabled: ReadonlySet<ModuleKey>): string[] {
  return pagePrefixes.filter((p) => !enabled.has(p.key)).map((p) => p.prefix);
}
