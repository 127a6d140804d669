import { integrationStateLabels, mailingMessages } from '@tumble/contracts/integrations';
import { describe, expect, it } from 'vitest';
import {
  STUB_API_KEY,
  STUB_LIST_NAME,
} from '../apps/server/src/features/communications/mailchimp/testing/mailchimp-stub.ts';
import { goViaSidebar, notified, signInAsStaff, topShot } from './support/admin.ts';
import { useCompany } from './support/company.ts';
import { bothViewports, expectAt, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/**
 * SPEC integrations: the Integrations page lists every connection; the mailing connection is made
 * against the local Mailchimp stub the worker's app is pointed at (e2e/global-setup.ts). The
 * spec's company starts "Not connected"; each viewport connects, syncs and disconnects again, so
 * the phone run after the desktop one starts from "Not connected" too.
 */
describe.each(bothViewports)('integrations (%s)', (viewport) => {
  const fixture = usePage('integrations', viewport, browser);

  it('staff see every connection, connect Mailchimp with an API key, choose the audience, sync and disconnect', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Integrations', '/admin/integrations');
    for (const name of ['Accounting', 'Mailing', 'Google calendar', 'Payments'])
      await shows(page.getByRole('region', { name }), `the ${name} card`);
    const mailing = page.getByRole('region', { name: 'Mailing' });
    await shows(
      mailing.getByText(integrationStateLabels.not_connected, { exact: true }),
      'mailing not connected',
    );
    await expectFitsWidth(page);
    await shot('1-integrations');

    await mailing.getByRole('link', { name: 'Connect Mailchimp' }).click();
    await expectAt(page, '/admin/integrations/mailing');
    await shows(page.getByRole('heading', { level: 1, name: 'Mailing' }), 'the Mailing page');
    const key = page.getByLabel('API key', { exact: true });
    // Not a key at all: refused on the spot. A key Mailchimp does not know: its answer in plain words.
    await key.fill('my password');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await shows(page.getByText(/it ends with your data centre/), 'the field error');
    await key.fill('ffffffffffffffffffffffffffffffff-us21');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await shows(page.getByRole('alert').filter({ hasText: mailingMessages.badKey }), 'the refusal');
    await shot('2-bad-key');

    await key.fill(STUB_API_KEY);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await notified(page, mailingMessages.connected);
    await shows(page.getByText('Demo Gym', { exact: true }), 'the account name');
    await shows(page.getByText(mailingMessages.noAudience), 'the audience to choose');
    await page.getByRole('combobox', { name: 'Audience' }).click();
    await page.getByRole('option', { name: new RegExp(`^${STUB_LIST_NAME}`) }).click();
    await page.getByRole('button', { name: 'Save audience' }).click();
    await notified(page, mailingMessages.audienceSaved);
    await shows(page.getByText(`Families are kept in ${STUB_LIST_NAME}.`), 'the chosen audience');

    await page.getByRole('button', { name: 'Sync now' }).click();
    // The company's families (the job may have sent them a moment before).
    await shows(
      page.getByRole('status').filter({ hasText: /Sent \d+ famil|already up to date/ }),
      'the sync result',
    );
    await expect
      .poll(async () =>
        Number(/(\d+) subscribed/.exec((await page.getByText(/Last sync:/).textContent()) ?? '')?.[1]),
      )
      .toBeGreaterThan(0);
    await expectFitsWidth(page);
    await shot('3-connected');

    await goViaSidebar(page, viewport, 'Integrations', '/admin/integrations');
    await shows(mailing.getByText(integrationStateLabels.connected, { exact: true }), 'mailing connected');
    await shows(mailing.getByText(`Mailchimp audience ${STUB_LIST_NAME}`), 'the audience on the card');
    await shot('4-integrations-connected');

    await mailing.getByRole('link', { name: 'Manage Mailchimp' }).click();
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await notified(page, mailingMessages.disconnected);
    await shows(page.getByLabel('API key', { exact: true }), 'the connect form again');

    // Mailchimp's login (OAuth): the stub's login page allows at once and sends the browser back.
    await page.getByRole('button', { name: 'Connect with Mailchimp login' }).click();
    await expectAt(page, '/admin/integrations/mailing');
    await shows(page.getByText(/with a Mailchimp login since/), 'connected through the login');
    // Disconnecting forgot the audience: it is chosen again.
    await shows(page.getByText(mailingMessages.noAudience), 'the audience to choose');
    await shot('5-connected-by-login');
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await shows(page.getByLabel('API key', { exact: true }), 'disconnected again');
  });
});
