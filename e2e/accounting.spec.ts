import { accountingMessages } from '@tumble/contracts/accounting';
import { describe, expect, it } from 'vitest';
import { goViaSidebar, notified, signInAsStaff, topShot } from './support/admin.ts';
import { useCompany } from './support/company.ts';
import { bothViewports, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows } from './support/ui.ts';
import { downloadFrom } from './support/waiver.ts';

const browser = useBrowser();
useCompany();

/** The header row of Xero's sales invoice import template (its first columns). */
const XERO_HEADER_START = '*ContactName,EmailAddress,POAddressLine1';

describe.each(bothViewports)('accounting export (%s)', (viewport) => {
  const fixture = usePage('accounting', viewport, browser);

  it('staff open Accounting: not connected (no Xero on the demo), the account codes, and the CSV downloads', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Accounting', '/admin/integrations/accounting');
    await shows(page.getByText('Not connected', { exact: true }), 'the connection state');
    await shows(page.getByText(accountingMessages.notAvailable), 'why only the CSV works');
    expect(await page.getByRole('button', { name: 'Connect to Xero' }).count()).toBe(0);
    await expect.poll(() => page.getByLabel('Sales account', { exact: true }).inputValue()).toBe('200');
    expect(await page.getByLabel('GST-free tax type', { exact: true }).inputValue()).toBe('EXEMPTOUTPUT');
    await expectFitsWidth(page);
    await shot('1-accounting');

    const invoices = await downloadFrom(page.getByRole('button', { name: 'Invoices', exact: true }));
    expect(invoices.filename).toMatch(/^xero-invoices-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(invoices.bytes.toString('utf8').startsWith(XERO_HEADER_START)).toBe(true);
    const paymentsFile = await downloadFrom(page.getByRole('button', { name: 'Payments and refunds' }));
    expect(paymentsFile.bytes.toString('utf8').split('\n')[0]).toBe(
      'Date,Amount,Payee,Description,Reference',
    );
    expect(await page.getByRole('alert').count(), 'no download failure').toBe(0);

    // A code Xero would not know is refused on the spot, with the field's message; a good one saves.
    const refunds = page.getByLabel('Refunds account', { exact: true });
    await refunds.fill('not a code!');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await shows(page.getByText(/Please enter an account code as it appears in Xero/), 'the field error');
    await shot('2-bad-code');
    await refunds.fill('090');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notified(page, accountingMessages.saved);
    await shot('3-saved');
  });
});
