import { describe, expect, it } from 'vitest';
import { storedToken, uniqueEmail } from './support/api.ts';
import {
  bookNow,
  checkoutLink,
  datesOf,
  demoEvents,
  displayDate,
  loginToCheckoutLink,
  openEvent,
  pick,
  sessionDays,
} from './support/booking.ts';
import { company, useCompany } from './support/company.ts';
import type { PageFixture } from './support/harness.ts';
import { bothViewports, expectAt, parentViewport, useBrowser, usePage } from './support/harness.ts';
import { specText } from './support/spec-text.ts';
import { field, shows, sidebar, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
useCompany();
/** The company's parent sign-in page (its authhash is known once the company is seeded). */
const studentLogin = () => `/admin/students/login?authhash=${company().authhash}`;

/** Signed in as a parent: the student layout with the company in the sidebar, no staff menu. */
async function expectParentLayout({ page }: PageFixture) {
  await expectAt(page, '/admin/students/profile');
  const banner = page.getByRole('banner');
  await shows(banner.getByRole('button', { name: 'Logout' }), "the top bar's Logout");
  const myAccount = banner.getByRole('link', { name: 'My Account' });
  await shows(myAccount.first(), "the top bar's My Account");
  for (const link of await myAccount.all()) {
    expect(await link.getAttribute('href')).toBe('/admin/students/profile');
  }
  expect(await banner.getByRole('button', { name: 'Account Settings' }).count()).toBe(0);
  const nav = sidebar(page);
  expect(await nav.getByText(company().name, { exact: true }).count()).toBe(1);
  // Students get no link on the sidebar logo (SPEC.md point 2) and no staff entries.
  expect(await nav.getByRole('link', { name: 'My Account' }).count()).toBe(0);
  expect(await nav.getByRole('link', { name: 'Events' }).count()).toBe(0);
  expect(await nav.getByRole('link', { name: 'My Profile' }).getAttribute('href')).toBe(
    '/admin/students/profile',
  );
  expect(await storedToken(page)).toMatch(/.{20,}/);
}

describe.each(parentViewport)('parent sign-in (%s)', (viewport) => {
  const fixture = usePage('parent-sign-in', viewport, browser);

  it('the company-branded sign-in leads to the parent layout; Logout asks first', async () => {
    const f = fixture();
    const { page, shot } = f;
    await page.goto(studentLogin());

    await shows(page.getByRole('heading', { name: 'Parent Sign In' }), 'the parent sign-in heading');
    await shows(page.getByText(company().name, { exact: true }), 'the company name from the authhash');
    expect(await page.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
      `/admin/students/signup?authhash=${company().authhash}`,
    );
    expect(await page.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      `/admin/students/forgotten-password?authhash=${company().authhash}`,
    );
    await shot('login');

    await submitSignIn(page, company().parent.email, company().parent.password);
    await expectParentLayout(f);
    await shot('profile');

    // Logout asks; Cancel keeps the parent signed in.
    const banner = page.getByRole('banner');
    await banner.getByRole('button', { name: 'Logout' }).click();
    const confirm = page.getByRole('dialog', { name: 'Logout' });
    await shows(confirm.getByText(specText.logoutConfirm, { exact: true }), "the 'log out?' question");
    await shot('logout-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expectParentLayout(f);
    // Still signed in on the server too: a reload keeps the parent in.
    await page.reload();
    await expectParentLayout(f);
    await shot('logout-cancelled');

    // Confirming signs out, back to the company's sign-in page.
    await banner.getByRole('button', { name: 'Logout' }).click();
    await shows(confirm.getByText(specText.logoutConfirm, { exact: true }), "the 'log out?' question");
    await confirm.getByRole('button', { name: 'Logout' }).click();
    await expectAt(page, studentLogin());
    await shows(page.getByRole('heading', { name: 'Parent Sign In' }), 'the parent sign-in page');
    expect(await storedToken(page)).toBeNull();
    await shot('logged-out');

    // Signed out for real: the parent area asks to sign in again at the company's page.
    await page.goto('/admin/students/profile');
    await expectAt(
      page,
      `/admin/students/login?authhash=${company().authhash}&redirect=${encodeURIComponent('/admin/students/profile')}`,
    );
    await shows(page.getByRole('heading', { name: 'Parent Sign In' }), 'the parent sign-in page');
  });

  it('a wrong password on the parent page shows the Sorry! banner', async () => {
    const { page, shot } = fixture();
    await page.goto(studentLogin());
    await submitSignIn(page, company().parent.email, 'wrong-parent-password');

    const banner = page.getByRole('alert').filter({ hasText: specText.loginFailedHeading });
    await shows(banner, "the 'Sorry!' banner");
    expect(await banner.textContent()).toContain(specText.loginFailed);
    await expectAt(page, studentLogin());
    await shot('wrong-password');
  });

  it('a new parent signs up for the company and signs in', async () => {
    const f = fixture();
    const { page, shot } = f;
    const email = uniqueEmail('parent', viewport);
    const password = 'parent pass 123';
    await page.goto(`/admin/students/signup?authhash=${company().authhash}`);

    await shows(page.getByRole('heading', { name: 'Create your parent account' }), 'the signup heading');
    await shows(page.getByText(company().name, { exact: true }), 'the company name from the authhash');
    await field(page, 'Full name').fill(`Sam Signup ${viewport}`);
    await field(page, 'Email address').fill(email);
    await field(page, 'Phone').fill('0400 000 000');
    await field(page, 'Password').fill(password);
    await shot('signup');
    await page.getByRole('button', { name: 'Create account' }).click();

    await expectAt(page, studentLogin());
    await shows(page.getByText('Your account has been created. Please sign in.'), 'the welcome notice');
    await shot('signup-done');

    await submitSignIn(page, email, password);
    await expectParentLayout(f);
    await shot('signup-profile');

    // The same address cannot sign up twice with this company.
    await page.goto(`/admin/students/signup?authhash=${company().authhash}`);
    await field(page, 'Full name').fill('Sam Again');
    await field(page, 'Email address').fill(email);
    await field(page, 'Phone').fill('0400 000 001');
    await field(page, 'Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await shows(
      page.getByText('An account with this email address already exists. Please sign in.').first(),
      'the duplicate-address message',
    );
    expect(await field(page, 'Email address').getAttribute('aria-invalid')).toBe('true');
    await shot('signup-duplicate');
  });
});

/** A checkout journey, whose layout differs by width: it runs at both. */
describe.each(bothViewports)('parent sign-in from checkout (%s)', (viewport) => {
  const fixture = usePage('parent-sign-in', viewport, browser);

  it('a new parent who signs up from checkout lands back at checkout with the sessions chosen', async () => {
    const { page, shot } = fixture();
    const camp = demoEvents.camp;
    const day = datesOf(await sessionDays(camp), camp.morning)[2] as string;
    const email = uniqueEmail('checkout-signup', viewport);
    const password = 'parent pass 123';

    await openEvent(page, camp);
    await bookNow(page);
    await pick(page, day, camp.morning);
    await page.getByRole('button', { name: 'Checkout', exact: true }).click();
    await expectAt(page, loginToCheckoutLink(camp));
    // Sign-in › Create an account keeps the way back to checkout.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expectAt(
      page,
      `/admin/students/signup?${new URLSearchParams({ authhash: company().authhash, redirect: checkoutLink(camp) })}`,
    );
    await field(page, 'Full name').fill(`Casey Checkout ${viewport}`);
    await field(page, 'Email address').fill(email);
    await field(page, 'Phone').fill('0400 000 002');
    await field(page, 'Password').fill(password);
    await shot('checkout-signup');
    await page.getByRole('button', { name: 'Create account' }).click();

    await expectAt(page, loginToCheckoutLink(camp));
    await shows(page.getByText('Your account has been created. Please sign in.'), 'the welcome notice');
    await submitSignIn(page, email, password);
    await expectAt(page, checkoutLink(camp));
    await shows(page.getByRole('heading', { level: 1, name: 'Checkout' }), 'the checkout page');
    const summary = page.getByTestId('booking-summary');
    await shows(summary, 'the booking summary');
    expect(await summary.textContent()).toContain(displayDate(day));
    await shot('checkout-after-signup');
  });
});
