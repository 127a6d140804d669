import { platformMessages } from '@tumble/contracts/platform';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../features/accounts/accounts.tables.ts';
import { createCompany, createUser, sessionFor } from '../testing/factories.ts';
import { createTestApp, type TestContext } from '../testing/harness.ts';
import { UNREACHABLE_PAYMENT_KEYS } from '../testing/payment-env.ts';
import { plans } from './installation/installation.tables.ts';
import { subscriptions } from './installation/subscriptions.tables.ts';
import { type ModuleKey, moduleCatalogue, moduleKeys, moduleOfPage, moduleOfRoute } from './modules.ts';

/** Walking every route once per module: minutes on a busy machine. */
const EVERY_ROUTE_TIMEOUT = 600_000;

type Headers = Record<string, string>;

describe('modules (SPEC modules)', () => {
  let t: TestContext;
  let company: { id: number; authhash: string };
  let admin: Headers;
  let parent: Headers;

  const inject = (method: string, url: string, headers: Headers = {}, payload?: object) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers,
      payload: method === 'GET' || method === 'DELETE' ? undefined : (payload ?? {}),
    });

  const setDisabled = async (keys: string[]) => {
    await t.database.db.update(companies).set({ disabledModules: keys }).where(eq(companies.id, company.id));
    await t.syncCache();
  };

  beforeAll(async () => {
    t = await createTestApp(UNREACHABLE_PAYMENT_KEYS);
    const { db } = t.database;
    company = await createCompany(db, { paymentMethod: 'test' });
    admin = (await sessionFor(db, await createUser(db, company.id, { role: 'companyadmin' }))).headers;
    parent = (await sessionFor(db, await createUser(db, company.id, { role: 'student' }))).headers;
  });
  afterAll(() => t.close());

  it('places routes and pages by the longest prefix; what no module names is always on', () => {
    expect(moduleOfRoute('/api/v1/admin/timetable')).toBe('classes');
    expect(moduleOfRoute('/api/v1/admin/terms/:id/billing-runs')).toBe('billing');
    expect(moduleOfRoute('/api/v1/admin/terms/:id/generate')).toBe('classes');
    expect(moduleOfRoute('/api/v1/admin/coaches/:parentId/private-sessions/:id')).toBe('private-lessons');
    expect(moduleOfRoute('/api/v1/admin/coaches/:parentId/leaves')).toBeNull();
    expect(moduleOfRoute('/api/v1/event-booking/waiver/check')).toBe('waivers');
    expect(moduleOfRoute('/api/v1/admin/eventsx')).toBeNull();
    expect(moduleOfRoute('/api/v1/admin/my-company')).toBeNull();
    expect(moduleOfPage('/admin/timetable')).toBe('classes');
    expect(moduleOfPage('/admin/dashboard')).toBeNull();
  });

  it('a company without a plan keeps every module', async () => {
    const response = await inject('GET', '/api/v1/modules', admin);
    expect(response.statusCode).toBe(200);
    expect(response.json().enabled.sort()).toEqual([...moduleKeys].sort());
    expect(response.json().hidden_pages).toEqual([]);
  });

  /**
   * The module walker: for every module, turn it off, and every route the server registers that
   * belongs to it answers 404 while every other route answers exactly as with every module on.
   * Each route is called by the caller who may call it: the company admin (staff and signed-in
   * routes), a parent (parent.self routes) or a visitor naming the company by authhash (public).
   */
  it(
    'turning any one module off makes each of its routes answer 404 and changes no other route',
    async () => {
      const routes = t.app.routeAccess.filter(
        // Logging out would end the session every other call needs.
        (r) => r.url !== '/rest/logout',
      );
      const callOf = (route: (typeof routes)[number]): [string, Headers] => {
        const path = route.url
          .replace(/:(id|parentId|ancestor\d+Id)/g, '1')
          .replace(':action', 'delete')
          .replace(':token', 'missing')
          .replace('*', 'missing.png');
        if (route.access === 'public') return [`${path}?authhash=${company.authhash}`, {}];
        return [path, route.access === 'parent.self' ? parent : admin];
      };
      const walk = async () => {
        const statuses = new Map<string, number>();
        for (const route of routes) {
          const [url, headers] = callOf(route);
          const response = await inject(route.method, url, headers);
          statuses.set(`${route.method} ${route.url}`, response.statusCode);
        }
        return statuses;
      };

      await setDisabled([]);
      // A first walk makes what later calls find (a mail the walk itself queues is the outbox's
      // first row); the next two, with every module on, must then answer alike.
      await walk();
      const baseline = await walk();
      const again = await walk();
      const unstable = [...baseline.keys()].filter((k) => baseline.get(k) !== again.get(k));
      expect(unstable).toEqual([]);

      const covered = new Set<ModuleKey>();
      for (const module of moduleCatalogue) {
        await setDisabled([module.key]);
        const off = await walk();
        const changed: string[] = [];
        for (const route of routes) {
          const key = `${route.method} ${route.url}`;
          if (moduleOfRoute(route.url) === module.key) {
            covered.add(module.key);
            if (off.get(key) !== 404) changed.push(`${key}: ${off.get(key)}, not 404`);
          } else if (off.get(key) !== baseline.get(key)) {
            changed.push(`${key}: ${baseline.get(key)} → ${off.get(key)}`);
          }
        }
        expect(changed, `with ${module.key} off`).toEqual([]);
      }
      await setDisabled([]);
      // Every module owns at least one registered route: a module that matches nothing is a typo.
      expect(moduleKeys.filter((k) => !covered.has(k))).toEqual([]);
    },
    EVERY_ROUTE_TIMEOUT,
  );

  it('the admin turns a module off and on (audited); its pages leave the navigation', async () => {
    const nav = async () =>
      ((await inject('GET', '/rest/acl', admin)).json().navigation.side as { path: string }[]).map(
        (e) => e.path,
      );
    expect(await nav()).toContain('/admin/timetable');

    const off = await inject('POST', '/api/v1/admin/modules', admin, { key: 'classes', enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().modules.find((m: { key: string }) => m.key === 'classes').enabled).toBe(false);
    expect(await nav()).not.toContain('/admin/timetable');
    expect(await nav()).not.toContain('/admin/terms');
    expect(await nav()).toContain('/admin/dashboard');
    expect((await inject('GET', '/api/v1/admin/timetable', admin)).statusCode).toBe(404);
    const hidden = (await inject('GET', '/api/v1/modules', admin)).json().hidden_pages;
    expect(hidden).toContain('/admin/timetable');

    const audit = await t.database.db.execute<{ action: string; summary: string }>(
      sql`select action, summary from audit_log where company_id = ${company.id} order by id desc limit 1`,
    );
    expect(audit.rows[0]).toMatchObject({ action: 'module.disable' });
    expect(audit.rows[0]!.summary).toContain('classes');

    const on = await inject('POST', '/api/v1/admin/modules', admin, { key: 'classes', enabled: true });
    expect(on.statusCode).toBe(200);
    expect(await nav()).toContain('/admin/timetable');
    expect((await inject('GET', '/api/v1/admin/timetable', admin)).statusCode).not.toBe(404);

    const unknown = await inject('POST', '/api/v1/admin/modules', admin, { key: 'nope', enabled: false });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(platformMessages.unknownModule);
  });

  it("a plan's modules bound the company's: one outside the plan is off and cannot be turned on", async () => {
    const { db } = t.database;
    const other = await createCompany(db, { paymentMethod: 'test' });
    const otherAdmin = (await sessionFor(db, await createUser(db, other.id, { role: 'companyadmin' })))
      .headers;
    const [plan] = await db
      .insert(plans)
      .values({ name: `Events only ${other.id}`, modules: ['events', 'reports'] })
      .returning();
    await db
      .insert(subscriptions)
      .values({ companyId: other.id, planId: plan!.id, status: 'active', provider: 'test' });

    expect((await inject('GET', '/api/v1/modules', otherAdmin)).json().enabled.sort()).toEqual([
      'events',
      'reports',
    ]);
    expect((await inject('GET', '/api/v1/admin/timetable', otherAdmin)).statusCode).toBe(404);
    const refused = await inject('POST', '/api/v1/admin/modules', otherAdmin, {
      key: 'classes',
      enabled: true,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(platformMessages.moduleNotInPlan);
    // The first company (no plan) is untouched by the other's plan.
    expect((await inject('GET', '/api/v1/admin/timetable', admin)).statusCode).not.toBe(404);
  });
});
