import type { Role } from '@tumble/contracts/auth';
import { messages } from '@tumble/contracts/messages';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Permission, permissions, roleHas } from '../../platform/permissions.ts';
import { navGroups } from '../../platform/resources/define.ts';
import { mountedResources } from '../../platform/resources/engine.service.ts';
import { type CompanyRow, createCompany, createUser, signIn } from '../../testing/factories.ts';
import { createTestApp, type TestContext } from '../../testing/harness.ts';
import { companies } from './accounts.tables.ts';

let t: TestContext;
let company: CompanyRow;
beforeAll(async () => {
  t = await createTestApp();
  company = await createCompany(t.database.db, {
    name: 'Springboard Gymnastics',
    logoFile: 'logos/spring.png',
  });
});
afterAll(() => t.close());

/** A visitor without a token sends no Authorization header, or 'Public' (SPEC.md point 6). */
const anonymousHeaders: Record<string, string>[] = [{}, { authorization: 'Public' }];

const getAcl = (query = '', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/rest/acl${query}`, headers });

/**
 * The sidebar is derived from the resource definitions (`nav` and the read permission) plus the
 * few pages that are not resources; these are the pages that are not resources, with the
 * permission each needs.
 */
const pagePermission: Record<string, Permission> = {
  '/admin/dashboard': 'admin.access',
  '/admin/my-account': 'admin.access',
  '/admin/users': 'users.manage',
  '/admin/my-company': 'company.manage',
  '/admin/mail': 'mail.read',
  '/admin/communications': 'communications.send',
  '/admin/system-emails': 'settings.read',
  '/admin/settings/emails': 'settings.read',
  '/admin/reminder-emails': 'settings.read',
  '/admin/cover': 'classes.write',
  '/admin/registration-anomalies': 'classes.write',
  '/admin/timetable': 'classes.read',
  '/admin/roll': 'roll.mark',
  '/admin/private-lessons': 'bookings.read',
  '/admin/students/invite': 'classes.write',
  '/admin/reports/daily-roll': 'classes.write',
  '/admin/reports/birthday-parties': 'bookings.read',
  '/admin/students/profile': 'parent.self',
  '/admin/students/children': 'parent.self',
  '/admin/students/classes': 'parent.self',
  '/admin/students/my-booking': 'parent.self',
  '/admin/students/my-party-booking': 'parent.self',
  '/admin/students/payments': 'parent.self',
  '/admin/students/card': 'parent.self',
  '/admin/students/private-classes': 'parent.self',
  '/admin/students/registrations': 'parent.self',
  '/admin/students/re-enroll': 'parent.self',
  '/admin/students/waiver': 'parent.self',
  '/admin/students/tasks': 'parent.self',
  '/admin/students/calendar': 'parent.self',
  '/admin/flagged': 'classes.write',
  '/admin/tasks': 'classes.write',
  '/admin/contacts': 'classes.write',
  '/admin/settings/crm': 'settings.read',
  '/admin/reports/trial-conversions': 'classes.write',
  '/admin/reports/enrollment-comparison': 'classes.write',
  '/admin/reports/insurance': 'bookings.read',
  '/admin/reports/coupon-code-usages': 'billing.read',
  '/admin/reports/vouchers': 'billing.read',
  '/admin/reports/events': 'bookings.read',
  '/admin/students': 'bookings.read',
  '/admin/import': 'classes.write',
  '/admin/company-data': 'company.manage',
  '/admin/uniform-orders': 'bookings.write',
  '/admin/invoices': 'billing.read',
  '/admin/billing-profile': 'billing.read',
  '/admin/integrations/accounting': 'billing.read',
  '/admin/integrations/payments': 'billing.read',
  '/admin/integrations/google': 'settings.read',
  '/admin/integrations/mailing': 'settings.read',
  '/admin/integrations': 'settings.read',
  '/admin/payments/record': 'bookings.write',
  '/admin/students/uniforms': 'parent.self',
  '/admin/students/invoices': 'parent.self',
  '/admin/customers': 'installation.operate',
  '/admin/subscription': 'company.manage',
  '/admin/modules': 'company.manage',
  '/admin/plans': 'installation.operate',
};
const topOf: Record<Role, string[]> = {
  companyadmin: ['/admin/my-account', '/admin/my-company', '/admin/users'],
  companystaff: ['/admin/my-account'],
  companycoach: ['/admin/my-account'],
  student: ['/admin/students/profile'],
  operator: ['/admin/my-account'],
};
/** Resources staff reach from the sidebar; the others are reached from a row (nested) or not at all. */
const navResources = () => mountedResources().filter((r) => r.nav);

describe('GET /rest/acl for a signed-in user', () => {
  it.each([
    ['companyadmin', true],
    ['companystaff', true],
    ['companycoach', true],
    ['student', false],
  ] as const)('answers the meta and navigation of a %s', async (role, isCompany) => {
    const user = await createUser(t.database.db, company.id, { role, fullName: `Pat ${role}` });
    const { headers, token } = await signIn(t.app, user, role === 'student' ? company.authhash : undefined);

    const response = await getAcl('', headers);

    expect(response.statusCode).toBe(200);
    expect(response.headers['x-auth-token']).toBe(token);
    const body = response.json();
    expect(body.name).toBe(`Pat ${role}`);
    expect(body.meta).toEqual({
      logo: '/api/v1/files/logos/spring.png',
      role,
      is_company: isCompany,
      company_id: company.id,
      company_name: 'Springboard Gymnastics',
      currency: 'USD',
    });

    const side: { path: string; label: string; group?: string }[] = body.navigation.side;
    const top = body.navigation.top.map((item: { path: string }) => item.path);
    expect(top).toEqual(topOf[role]);
    const paths = side.map((item) => item.path);
    // Each resource placed in the sidebar shows to exactly the roles that may read it, under its group.
    for (const resource of navResources()) {
      const entry = side.find((item) => item.path === `/admin/${resource.name}`);
      expect(Boolean(entry), `${role} sees ${resource.name}`).toBe(roleHas(role, resource.permissions.read));
      if (entry)
        expect(entry).toMatchObject({
          group: resource.nav!.group,
          label: resource.nav!.label ?? resource.label,
        });
    }
    // Every other entry is a known page this role may open.
    for (const path of paths.filter((p) => !navResources().some((r) => `/admin/${r.name}` === p)))
      expect(roleHas(role, pagePermission[path]!), `${role}: ${path}`).toBe(true);
    // Each page that is not a resource shows to exactly the roles that may open it (My Account and
    // My Company live in the top menu only).
    for (const path of Object.keys(pagePermission).filter((p) => !p.startsWith('/admin/my-')))
      expect(paths.includes(path), `${role}: ${path}`).toBe(roleHas(role, pagePermission[path]!));
    // Groups follow the sidebar's order, each in one run: Events, Parties, Families, Money, …
    const groups = side.map((item) => item.group).filter((g): g is string => Boolean(g));
    const runs = groups.filter((g, i) => g !== groups[i - 1]);
    expect(runs).toEqual(navGroups.filter((g) => groups.includes(g)));
    expect(side[0]?.path).toBe(role === 'student' ? '/admin/students/profile' : '/admin/dashboard');
    if (role === 'student') expect(groups).toEqual([]);
    // An entry never leads to a refusal: each resource's meta answers this role.
    for (const resource of navResources().filter((r) => paths.includes(`/admin/${r.name}`))) {
      const meta = await t.app.inject({ method: 'GET', url: `/api/v1/admin/${resource.name}/meta`, headers });
      expect(meta.statusCode, `${role} opens ${resource.name}`).toBe(200);
    }
  });

  it('shows Users only to a companyadmin, as the permission table says', async () => {
    expect(permissions['users.manage']).toEqual(['companyadmin']);
    for (const role of ['companyadmin', 'companystaff', 'companycoach', 'student'] as const) {
      const user = await createUser(t.database.db, company.id, { role });
      const { headers } = await signIn(t.app, user, role === 'student' ? company.authhash : undefined);
      const body = (await getAcl('', headers)).json();
      const labels = [...body.navigation.side, ...body.navigation.top].map((i: { label: string }) => i.label);
      expect(labels.includes('Users')).toBe(role === 'companyadmin');
      expect(labels.includes('My Company')).toBe(role === 'companyadmin');
    }
  });

  it("answers a signed-in user's own company even when an authhash of another is given", async () => {
    const other = await createCompany(t.database.db, { name: 'Elsewhere' });
    const user = await createUser(t.database.db, company.id, { role: 'companystaff' });
    const { headers } = await signIn(t.app, user);

    const body = (await getAcl(`?authhash=${other.authhash}`, headers)).json();

    expect(body.meta).toMatchObject({ role: 'companystaff', company_id: company.id });
  });

  it('answers a null logo when the company has none', async () => {
    const plain = await createCompany(t.database.db);
    const user = await createUser(t.database.db, plain.id);
    const { headers } = await signIn(t.app, user);

    expect((await getAcl('', headers)).json().meta.logo).toBeNull();
  });
});

describe('GET /rest/acl for a public visitor', () => {
  it("answers the company's branding with no role and no navigation", async () => {
    for (const headers of anonymousHeaders) {
      const response = await getAcl(`?authhash=${encodeURIComponent(company.authhash)}`, headers);

      expect(response.statusCode).toBe(200);
      expect(response.headers['x-auth-token']).toBeUndefined();
      expect(response.json()).toEqual({
        name: 'Springboard Gymnastics',
        meta: {
          logo: '/api/v1/files/logos/spring.png',
          role: null,
          is_company: false,
          company_id: company.id,
          company_name: 'Springboard Gymnastics',
          currency: 'USD',
        },
        navigation: { side: [], top: [] },
      });
    }
  });

  it('answers 404 without a token and without an authhash', async () => {
    for (const headers of anonymousHeaders) {
      const response = await getAcl('', headers);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Not found.' });
    }
  });

  it('answers 404 to an unknown authhash', async () => {
    const response = await getAcl('?authhash=not-a-company');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found.' });
  });

  it('answers 410 company_closed to the authhash of a suspended company, 404 to a pending one', async () => {
    const suspended = await createCompany(t.database.db, { name: 'Shut Gym' });
    expect((await getAcl(`?authhash=${suspended.authhash}`)).statusCode).toBe(200);
    await t.database.db.update(companies).set({ status: 'suspended' }).where(eq(companies.id, suspended.id));
    await t.syncCache();

    const response = await getAcl(`?authhash=${suspended.authhash}`);
    expect(response.statusCode).toBe(410);
    expect(response.json()).toEqual({
      message: 'Bookings with Shut Gym are closed at the moment.',
      reason: 'company_closed',
    });
    const pending = await createCompany(t.database.db, { status: 'pending' });
    expect((await getAcl(`?authhash=${pending.authhash}`)).statusCode).toBe(404);
  });

  it('answers 403 to a dead token without an authhash, so the SPA applies its session-expired rule', async () => {
    const response = await getAcl('', { authorization: `Bearer ${'z'.repeat(43)}` });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: messages.sessionExpired, reason: 'session_expired' });
  });
});
