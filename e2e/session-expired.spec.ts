import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiAclStatus, apiLogout, storedToken } from './support/api.ts';
import { company, useCompany } from './support/company.ts';
import { expectAt, location, parentViewport, staffViewport, useBrowser, usePage } from './support/harness.ts';
import { specText } from './support/spec-text.ts';
import { shows, sidebar, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/** Revokes the page's session on the server, as another tab's logout or an expiry would. */
async function revokeSession(page: Page): Promise<void> {
  const token = await storedToken(page);
  expect(token, 'the token the SPA stored').toMatch(/.{20,}/);
  expect(await apiAclStatus(token as string)).toBe(200);
  expect(await apiLogout(token as string)).toBe(204);
  expect(await apiAclStatus(token as string), 'the revoked token is refused').toBe(403);
}

/** Every page the browser loads from now on (full document loads), to spot a redirect loop. */
function recordPageLoads(page: Page): string[] {
  const loaded: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document' && request.frame() === page.mainFrame()) {
      const url = new URL(request.url());
      loaded.push(url.pathname + url.search);
    }
  });
  return loaded;
}

describe.each(staffViewport)('session expired (%s)', (viewport) => {
  const fixture = usePage('session-expired', viewport, browser);

  it('a staff member on a parent checkout link is told the page is for parents, stays signed in, and can sign in as a parent (issue 21 point 13)', async () => {
    const { page, shot, takeDialogs } = fixture();
    await page.goto('/admin/login');
    await submitSignIn(page, company().admin.email, company().admin.password);
    await expectAt(page, '/admin/dashboard');
    await shows(page.getByRole('main').getByRole('heading', { name: company().name }), 'the dashboard');
    const token = await storedToken(page);

    const checkout = `/birthday-party/booking/checkout?authhash=${company().authhash}`;
    await page.goto(checkout);
    await shows(
      page.getByRole('heading', { name: 'This page is for parents' }),
      "'This page is for parents'",
    );
    await shows(page.getByText(/signed in with a staff account \(Administrator\)/), 'whose account it is');
    await page.waitForLoadState('networkidle');
    // Not an expired session: no alert, the staff session is kept.
    expect(takeDialogs()).toEqual([]);
    expect(await storedToken(page)).toBe(token);
    expect(await apiAclStatus(token as string)).toBe(200);
    await shot('wrong-role');

    await page.getByRole('button', { name: 'Sign in as a parent' }).click();
    await expectAt(page, '/admin/students/login');
    const params = new URL(page.url()).searchParams;
    expect(params.get('authhash')).toBe(company().authhash);
    expect(params.get('redirect')).toBe(checkout);
    expect(await storedToken(page)).toBeNull();
    expect(takeDialogs()).toEqual([]);
    await shot('wrong-role-parent-sign-in');
  });

  it('a staff page whose session was revoked alerts once and ends on /admin/login', async () => {
    const { page, shot, takeDialogs } = fixture();
    await page.goto('/admin/login');
    await submitSignIn(page, company().admin.email, company().admin.password);
    await expectAt(page, '/admin/dashboard');
    await shows(page.getByRole('main').getByRole('heading', { name: company().name }), 'the dashboard');
    await shot('signed-in');

    await revokeSession(page);
    const loaded = recordPageLoads(page);
    await page.reload();

    await expectAt(page, '/admin/login');
    await shows(page.getByRole('button', { name: 'Sign In', exact: true }), 'the sign-in form');
    await page.waitForLoadState('networkidle');
    expect(takeDialogs()).toEqual([specText.sessionExpired]);
    expect(await storedToken(page)).toBeNull();
    // One reload, one redirect, then the visitor stays put: no loop, no second alert.
    expect(loaded).toEqual(['/admin/dashboard', '/admin/login']);
    await shot('expired');

    // The login page itself never raises the alert again.
    await page.reload();
    await shows(page.getByRole('button', { name: 'Sign In', exact: true }), 'the sign-in form');
    await page.waitForLoadState('networkidle');
    expect(location(page)).toBe('/admin/login');
    expect(takeDialogs()).toEqual([]);

    // And signing in again works.
    await submitSignIn(page, company().admin.email, company().admin.password);
    await expectAt(page, '/admin/dashboard');
    await shows(page.getByRole('main').getByRole('heading', { name: company().name }), 'the dashboard');
    expect(takeDialogs()).toEqual([]);
  });

  it('moving to another staff page after the session was revoked alerts once and ends on /admin/login', async () => {
    const { page, shot, takeDialogs } = fixture();
    await page.goto('/admin/login');
    await submitSignIn(page, company().admin.email, company().admin.password);
    await expectAt(page, '/admin/dashboard');
    await shows(page.getByRole('main').getByRole('heading', { name: company().name }), 'the dashboard');

    await revokeSession(page);
    const loaded = recordPageLoads(page);
    // The user carries on in the open app: the next page's data request is refused.
    await sidebar(page).getByRole('link', { name: 'Events', exact: true }).click();

    await expectAt(page, '/admin/login');
    await shows(page.getByRole('button', { name: 'Sign In', exact: true }), 'the sign-in form');
    await page.waitForLoadState('networkidle');
    expect(takeDialogs()).toEqual([specText.sessionExpired]);
    expect(await storedToken(page)).toBeNull();
    expect(loaded).toEqual(['/admin/login']);
    await shot('expired-on-navigation');
  });
});

/** A parent's journey, on a phone. */
describe.each(parentViewport)('session expired, parent (%s)', (viewport) => {
  const fixture = usePage('session-expired', viewport, browser);

  it("a parent page whose session was revoked alerts once and ends on the company's parent sign-in", async () => {
    const { page, shot, takeDialogs } = fixture();
    await page.goto(`/admin/students/login?authhash=${company().authhash}`);
    await submitSignIn(page, company().parent.email, company().parent.password);
    await expectAt(page, '/admin/students/profile');
    await shows(page.getByRole('banner').getByRole('button', { name: 'Logout' }), 'the parent layout');

    await revokeSession(page);
    await page.reload();

    // SPEC.md point 4: a student with an auth hash and a company id goes to the student login.
    await page.waitForURL((url) => /^\/admin\/(students\/)?login$/.test(url.pathname));
    expect(location(page)).toBe('/admin/students/login');
    const query = new URL(page.url()).searchParams;
    expect(query.get('authhash')).toBe(company().authhash);
    expect(query.get('id')).toMatch(/^\d+$/);
    await shows(page.getByRole('heading', { name: 'Parent Sign In' }), 'the parent sign-in page');
    await page.waitForLoadState('networkidle');
    expect(takeDialogs()).toEqual([specText.sessionExpired]);
    expect(await storedToken(page)).toBeNull();
    await shot('parent-expired');
  });
});
