import { describe, expect, it } from 'vitest';
import { storedToken } from './support/api.ts';
import { company, useDemoCompany } from './support/company.ts';
import {
  bothViewports,
  expectAt,
  staffViewport,
  UI_TIMEOUT,
  useBrowser,
  usePage,
} from './support/harness.ts';
import { expectSignInRefused, field, horizontalBox, shows, sidebar, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
// The README's staff login (admin@demo.test / demo-admin-1 on /admin/login), on the demo company
// every app seeds at its start. Signing in and out leaves it as it was for the other specs that
// use it: the failed attempt's count is cleared by the next test's sign-in, and Logout ends the
// sessions it opened.
useDemoCompany();

describe.each(staffViewport)('staff sign-in (%s)', (viewport) => {
  const fixture = usePage('staff-sign-in', viewport, browser);

  it("a wrong password shows the 'Sorry!' banner and keeps the visitor signed out", async () => {
    const { page, shot } = fixture();
    await page.goto('/admin/login');

    await submitSignIn(page, company().admin.email, 'not-the-password-1');
    await expectSignInRefused(page);
    await expectAt(page, '/admin/login');
    expect(await storedToken(page)).toBeNull();
    // The form stays usable: the email is kept for another try.
    expect(await field(page, 'Email address').inputValue()).toBe(company().admin.email);
    await shot('wrong-password');
  });
});

/** The sidebar is always there on a desktop and behind a burger on a phone: this test runs at both widths. */
describe.each(bothViewports)('staff sign-in, the admin layout (%s)', (viewport) => {
  const fixture = usePage('staff-sign-in', viewport, browser);

  it('the right password lands in the admin layout, and Logout returns to /admin/login', async () => {
    const { page, shot, viewport } = fixture();
    await page.goto('/admin/login');
    await submitSignIn(page, company().admin.email, company().admin.password);

    await expectAt(page, '/admin/dashboard');
    const banner = page.getByRole('banner');
    await shows(
      banner.getByRole('button', { name: 'Account Settings' }),
      "the top bar's Account Settings menu",
    );
    await shows(banner.getByRole('button', { name: 'Logout' }), "the top bar's Logout");
    await shows(
      page.getByRole('main').getByRole('heading', { name: company().name }),
      'the dashboard of the company',
    );
    expect(await storedToken(page)).toMatch(/.{20,}/);

    const nav = sidebar(page);
    const burger = page.getByRole('button', { name: 'Toggle navigation' });
    // Staff get the company name in the sidebar and a logo linking to My Account.
    expect(await nav.getByText(company().name, { exact: true }).count()).toBe(1);
    expect(await nav.getByRole('link', { name: 'My Account' }).getAttribute('href')).toBe(
      '/admin/my-account',
    );

    if (viewport === 'desktop') {
      // Wide screens: the sidebar is always there, no burger.
      expect(await burger.isVisible()).toBe(false);
      const box = await horizontalBox(nav);
      expect(box.left).toBe(0);
      expect(box.right).toBeGreaterThan(200);
      await shows(nav.getByRole('link', { name: 'Dashboard' }), 'the Dashboard link in the sidebar');
      await shot('dashboard');
    } else {
      // Below 769px the sidebar is collapsed behind a burger...
      await shows(burger, 'the burger');
      await expect
        .poll(async () => (await horizontalBox(nav)).right, { timeout: UI_TIMEOUT })
        .toBeLessThanOrEqual(0);
      await shot('dashboard');
      // ...that opens it...
      await burger.click();
      await expect.poll(async () => (await horizontalBox(nav)).left, { timeout: UI_TIMEOUT }).toBe(0);
      expect((await horizontalBox(nav)).right).toBeGreaterThan(300);
      await shows(nav.getByText(company().name, { exact: true }), 'the company name in the opened sidebar');
      await shot('sidebar-open');
      // ...and choosing an entry closes it again.
      await nav.getByRole('link', { name: 'Events', exact: true }).click();
      await expectAt(page, '/admin/events');
      await expect
        .poll(async () => (await horizontalBox(nav)).right, { timeout: UI_TIMEOUT })
        .toBeLessThanOrEqual(0);
      await shot('events');
    }

    // Company users get an Account Settings menu (SPEC.md point 6).
    await banner.getByRole('button', { name: 'Account Settings' }).click();
    const menu = page.getByRole('menu');
    await shows(menu.getByRole('menuitem', { name: 'My Account' }), 'My Account in the menu');
    await shows(menu.getByRole('menuitem', { name: 'My Company' }), 'My Company in the menu');
    await shot('account-settings');
    await menu.getByRole('menuitem', { name: 'My Account' }).click();
    await expectAt(page, '/admin/my-account');
    await shows(
      page.getByRole('main').getByRole('heading', { name: 'My Account', exact: true }).first(),
      'the My Account page',
    );
    await shot('my-account');

    await banner.getByRole('button', { name: 'Logout' }).click();
    await expectAt(page, '/admin/login');
    await shows(page.getByRole('button', { name: 'Sign In', exact: true }), 'the sign-in form');
    expect(await storedToken(page)).toBeNull();
    await shot('logged-out');

    // Signed out for real: the admin area sends the visitor back to sign in.
    await page.goto('/admin');
    await expectAt(page, '/admin/login');
  });
});
