import type { Role } from '@tumble/contracts/auth';
import { messages } from '@tumble/contracts/messages';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Permission, permissions, roleHas } from '../../platform/permissions.ts';
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

/** What each role must see, written out by hand from the permission table. */
const catalogPages = [
  '/admin/events',
  '/admin/slots',
  '/admin/venues',
  '/admin/rooms',
  '/admin/restricted-dates',
  '/admin/waivers',
];
/** Side order of the navigation: events, party bookings, slots, payments, parents, then the rest. */
const sideOf = (role: 'companyadmin' | 'companystaff' | 'companycoach', rest: string[]) => {
  const billing = role !== 'companycoach';
  return [
    '/admin/dashboard',
    '/admin/events',
    '/admin/party-bookings',
    '/admin/reports/birthday-parties',
    '/admin/slots',
    ...(billing ? ['/admin/payments'] : []),
    '/admin/parents',
    ...catalogPages.filter((p) => p !== '/admin/events' && p !== '/admin/slots'),
    ...rest,
  ];
};
const billingPages = [
  '/admin/insurances',
  '/admin/coupons',
  '/admin/promotional-codes',
  '/admin/nsw-settings',
  '/admin/payment-methods',
  '/admin/surcharges',
  '/admin/payment-terms',
  '/admin/birthday-pricing',
];
const settingsPages = ['/admin/party-invitation-settings', '/admin/system-emails'];
const parentPages = [
  '/admin/students/profile',
  '/admin/students/children',
  '/admin/students/my-booking',
  '/admin/students/my-party-booking',
  '/admin/students/payments',
  '/admin/students/waiver',
];
const expectedNavigation: Record<Role, { side: string[]; top: string[] }> = {
  companyadmin: {
    side: sideOf('companyadmin', [
      ...billingPages,
      ...settingsPages,
      '/admin/users',
      '/admin/mail',
      '/admin/audit-log',
    ]),
    top: ['/admin/my-account', '/admin/my-company', '/admin/users'],
  },
  companystaff: {
    side: sideOf('companystaff', [...billingPages, ...settingsPages, '/admin/mail']),
    top: ['/admin/my-account'],
  },
  companycoach: { side: sideOf('companycoach', []), top: ['/admin/my-account'] },
  student: { side: parentPages, top: ['/admin/students/profile'] },
};

/** The permission each navigation path needs (platform/permissions.ts). */
const pathPermission: Record<string, Permission> = {
  '/admin/dashboard': 'admin.access',
  '/admin/my-account': 'admin.access',
  '/admin/users': 'users.manage',
  '/admin/my-company': 'company.manage',
  '/admin/mail': 'mail.read',
  '/admin/audit-log': 'company.manage',
  ...Object.fromEntries(parentPages.map((p) => [p, 'parent.self' as const])),
  ...Object.fromEntries(catalogPages.map((p) => [p, 'catalog.read' as const])),
  '/admin/party-bookings': 'bookings.read',
  '/admin/reports/birthday-parties': 'bookings.read',
  '/admin/parents': 'bookings.read',
  '/admin/payments': 'billing.read',
  ...Object.fromEntries(billingPages.map((p) => [p, 'billing.read' as const])),
  ...Object.fromEntries(settingsPages.map((p) => [p, 'settings.read' as const])),
};

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
    });

    const side = body.navigation.side.map((item: { path: string }) => item.path);
    const top = body.navigation.top.map((item: { path: string }) => item.path);
    expect({ side, top }).toEqual(expectedNavigation[role]);
    // Every entry shown is one the permission table grants this role.
    for (const path of [...side, ...top]) expect(roleHas(role, pathPermission[path]!)).toBe(true);
    for (const item of [...body.navigation.side, ...body.navigation.top]) {
      expect(Object.keys(item).sort()).toEqual(
        'icon' in item ? ['icon', 'label', 'path'] : ['label', 'path'],
      );
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

  it('answers 404 to the authhash of a suspended company', async () => {
    const suspended = await createCompany(t.database.db);
    expect((await getAcl(`?authhash=${suspended.authhash}`)).statusCode).toBe(200);
    await t.database.db.update(companies).set({ status: 'suspended' }).where(eq(companies.id, suspended.id));

    const response = await getAcl(`?authhash=${suspended.authhash}`);
    expect(response.statusCode).toBe(404);
  });

  it('answers 403 to a dead token without an authhash, so the SPA applies its session-expired rule', async () => {
    const response = await getAcl('', { authorization: `Bearer ${'z'.repeat(43)}` });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: messages.sessionExpired, reason: 'session_expired' });
  });
});
