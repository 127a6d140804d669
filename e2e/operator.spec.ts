import { describe, expect, it } from 'vitest';
import { linkTo, uniqueEmail, uniquePassword } from './support/api.ts';
import { waitForMail } from './support/browser.ts';
import { company, operator, useCompany } from './support/company.ts';
import { expectAt, staffViewport, useBrowser, usePage } from './support/harness.ts';
import { specText } from './support/spec-text.ts';
import { field, shows, sidebar, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/** contracts/auth.ts companySignInMessages.pending, character for character. */
const pendingMessage = 'Your company is waiting for approval. We will email you when your account is active.';

describe.each(staffViewport)('installation operator (%s)', (viewport) => {
  const fixture = usePage('operator', viewport, browser);

  it('a new company signs up, confirms, waits; an operator approves it; its admin signs in; suspended, its booking page says bookings are closed', async () => {
    const { page, shot } = fixture();
    const email = uniqueEmail('owner', viewport);
    const password = uniquePassword('owner');
    const companyName = `Somersault ${viewport} ${Date.now().toString(36)}`;

    // Sign up and confirm the email: the SPEC's activation note, then a wait for approval.
    await page.goto('/admin/company/signup');
    await field(page, 'Company name').fill(companyName);
    await field(page, 'Your full name').fill('Sam Somersault');
    await field(page, 'Email address').fill(email);
    await field(page, 'Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await shows(page.getByRole('status').getByText('Check your email'), 'the info title');
    const activation = await waitForMail(email, 'Activate');
    await page.goto(linkTo(activation.links, '/admin/activate'));
    await expectAt(page, '/admin/login?activation=1');
    await shows(
      page.getByRole('status').filter({ hasText: specText.activationConfirmed }),
      'the activation note',
    );
    await shot('confirmed');

    await submitSignIn(page, email, password);
    const waiting = page.getByRole('alert').filter({ hasText: pendingMessage });
    await shows(waiting, 'the waiting-for-approval message');
    await shot('waiting');

    // The operators hear of it; the operator signs in to Customers and approves it.
    const notice = await waitForMail(operator.email, `New sign-up waiting for approval: ${companyName}`);
    const customerLink = notice.links.find((l) => new URL(l).pathname.startsWith('/admin/customers/'))!;
    expect(customerLink, 'the customer page link in the mail').toBeTruthy();
    await page.evaluate(() => localStorage.clear());
    await page.goto('/admin/login');
    await submitSignIn(page, operator.email, operator.password);
    await expectAt(page, '/admin/customers');
    await shows(page.getByRole('heading', { name: 'Customers' }), 'the Customers heading');
    await shows(
      sidebar(page).getByRole('link', { name: 'Customers', exact: true }),
      'Customers in the sidebar',
    );
    expect(await sidebar(page).getByRole('link', { name: 'Dashboard', exact: true }).count()).toBe(0);
    await shows(page.getByText(companyName).filter({ visible: true }).first(), 'the new company in the list');
    await shot('customers');

    await page.goto(new URL(customerLink).pathname);
    await shows(page.getByRole('heading', { name: companyName }), 'the company page');
    await shows(page.getByText('Pending', { exact: true }), 'the pending status');
    await shot('pending-company');
    await page.getByRole('button', { name: 'Approve' }).click();
    await shows(page.getByText('Active', { exact: true }), 'the active status');
    await shows(page.getByRole('button', { name: 'Suspend' }), 'the Suspend button');
    await shot('approved');
    const approved = await waitForMail(email, 'account is active');
    expect(approved.subject).toBe(`Your ${companyName} account is active`);
    const publicPage = await page
      .getByRole('link', { name: 'Public party booking page' })
      .getAttribute('href');

    // The company's admin signs in now.
    await page.evaluate(() => localStorage.clear());
    await page.goto('/admin/login');
    await submitSignIn(page, email, password);
    await expectAt(page, '/admin/dashboard');
    await shows(
      page.getByRole('main').getByText('Welcome, Sam Somersault · Administrator'),
      'the welcome line',
    );
    await shot('admin-dashboard');

    // The operator suspends it with a reason: its public booking page says bookings are closed.
    await page.evaluate(() => localStorage.clear());
    await page.goto('/admin/login');
    await submitSignIn(page, operator.email, operator.password);
    await expectAt(page, '/admin/customers');
    await page.goto(new URL(customerLink).pathname);
    await page.getByRole('button', { name: 'Suspend' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Suspend' }).click();
    await shows(
      dialog.getByText('A reason is required to suspend a company.'),
      'the reason-required message',
    );
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Unpaid subscription');
    await shot('suspend-reason');
    await dialog.getByRole('button', { name: 'Suspend' }).click();
    await shows(page.getByText('Suspended', { exact: true }).first(), 'the suspended status');
    await shows(page.getByText('Reason: Unpaid subscription'), 'the reason');
    await shot('suspended');

    const authhash = new URL(publicPage!, 'http://x').searchParams.get('authhash')!;
    await page.evaluate(() => localStorage.clear());
    await page.goto(`/booking?e=00&authhash=${encodeURIComponent(authhash)}`);
    await shows(page.getByRole('heading', { name: 'Bookings are closed' }), 'the closed page');
    await shows(
      page.getByText(`Bookings with ${companyName} are closed at the moment.`),
      'the closed message',
    );
    await shot('booking-closed');

    // Its staff are told why they cannot sign in.
    await page.goto('/admin/login');
    await submitSignIn(page, email, password);
    await shows(
      page.getByRole('alert').filter({ hasText: 'Reason: Unpaid subscription' }),
      'the suspended message',
    );
    await shot('staff-suspended');
  });

  it('an operator opens a company as support with a reason, sees the banner, and ends it', async () => {
    const { page, shot } = fixture();
    await page.goto('/admin/login');
    await submitSignIn(page, operator.email, operator.password);
    await expectAt(page, '/admin/customers');
    // This spec's own company: the support session is written to its history.
    const customer = `/admin/customers/${company().companyId}`;
    await page.goto(customer);
    await shows(page.getByRole('heading', { name: company().name }), 'the company page');
    await page.getByRole('button', { name: 'Open as support' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill(`Ticket ${viewport}: venue list`);
    await shot('support-reason');
    await dialog.getByRole('button', { name: 'Open as support' }).click();
    await expectAt(page, '/admin/dashboard');
    const banner = page.getByRole('status', { name: 'Support access' });
    await shows(banner, 'the support banner');
    expect(await banner.textContent()).toContain(`Ticket ${viewport}: venue list`);
    await shot('support-banner');
    await banner.getByRole('button', { name: 'End' }).click();
    await expectAt(page, customer);
    await shows(page.getByText('Support ended').first(), 'the history entry');
    expect(await page.getByRole('status', { name: 'Support access' }).count()).toBe(0);
    await shot('support-ended');
  });
});
