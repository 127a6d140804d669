import { describe, it } from 'vitest';
import { goViaSidebar, notified, signInAsStaff, topShot } from './support/admin.ts';
import { useCompany } from './support/company.ts';
import { bothViewports, expectAt, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/**
 * Issue 18: a company connects its own Stripe account (Connect, Standard, OAuth) from the
 * Integrations page. The e2e server's Stripe Connect pages are a local stub (e2e/global-setup.ts)
 * whose authorize page allows at once and sends the browser back with a code. Each viewport
 * connects and disconnects again, so the next starts from "Not connected".
 */
describe.each(bothViewports)('payment accounts (%s)', (viewport) => {
  const fixture = usePage('payment-connections', viewport, browser);

  it('the admin connects Stripe from the Integrations page and sees it connected, then disconnects', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Integrations', '/admin/integrations');
    const payments = page.getByRole('region', { name: 'Payments' });
    await shows(payments, 'the Payments card');
    await payments.getByRole('link', { name: 'Manage payments' }).click();
    await expectAt(page, '/admin/integrations/payments');
    await shows(
      page.getByRole('heading', { level: 1, name: 'Payment accounts' }),
      'the Payment accounts page',
    );
    const stripe = page.getByRole('region', { name: 'Stripe' });
    await shows(stripe.getByText('Not connected', { exact: true }), 'Stripe not connected');
    await expectFitsWidth(page);
    await shot('1-not-connected');

    // Off to Stripe's sign-in (the stub), which allows and comes back to our callback, then here.
    await stripe.getByRole('button', { name: 'Connect Stripe' }).click();
    await notified(page, 'Stripe is connected.');
    await expectAt(page, '/admin/integrations/payments');
    await shows(stripe.getByText('Connected', { exact: true }), 'Stripe connected');
    await shows(stripe.getByText(/^acct_/), 'the connected account');
    // The notification slides in from the right edge: measure the page once it has gone.
    await page.locator('.mantine-Notification-root').first().waitFor({ state: 'hidden', timeout: 15_000 });
    await expectFitsWidth(page);
    await shot('2-stripe-connected');

    await stripe.getByRole('button', { name: 'Disconnect' }).click();
    await shows(stripe.getByText('Not connected', { exact: true }), 'Stripe disconnected');
    await shows(stripe.getByRole('button', { name: 'Connect Stripe' }), 'the connect button again');
  });
});
