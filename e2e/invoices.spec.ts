import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  fieldError,
  goViaSidebar,
  idFromUrl,
  input,
  notified,
  signInAsStaff,
  topShot,
  uniqueTag,
} from './support/admin.ts';
import { company, useCompany } from './support/company.ts';
import { staffViewport, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { field, shows } from './support/ui.ts';
import { expectPdfDownload } from './support/waiver.ts';

const browser = useBrowser();
useCompany();

/** Closes the notifications so the screenshot shows the page under them (some close by themselves meanwhile). */
async function dismissNotifications(page: Page) {
  const notices = page.locator('.mantine-Notification-root');
  await expect
    .poll(
      async () => {
        await notices
          .first()
          .getByRole('button')
          .click({ timeout: 1000 })
          .catch(() => {});
        return notices.count();
      },
      { timeout: UI_TIMEOUT, interval: 100 },
    )
    .toBe(0);
}

describe.each(staffViewport)('staff invoices (%s)', (viewport) => {
  const fixture = usePage('invoices', viewport, browser);

  it('staff fill the billing profile, write a one-off invoice, issue it, credit part of it and download the PDF', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const tag = uniqueTag(viewport).replace(/[^A-Za-z0-9]/g, '');
    await signInAsStaff(page);

    // The billing profile: a wrong ABN is refused with SPEC's words, a right one saved and shown spaced.
    await goViaSidebar(page, viewport, 'Billing profile', '/admin/billing-profile');
    const abn = input(page, 'ABN');
    await shows(abn, 'the ABN field');
    await input(page, 'Legal name').fill('Bounce Gymnastics Parramatta Pty Ltd');
    await abn.fill('51 824 753 557');
    await page.getByRole('switch', { name: /^Registered for GST/ }).check({ force: true });
    await input(page, 'BSB').fill('062000');
    await input(page, 'Account number').fill('12345678');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await fieldError(abn)).toBe('Please enter a valid 11-digit ABN.');
    await abn.fill('51824753556');
    await abn.blur();
    await expect.poll(() => abn.inputValue()).toBe('51 824 753 556');
    await expect.poll(() => input(page, 'BSB').inputValue()).toBe('062-000');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notified(page, 'The billing profile has been saved.');
    await dismissNotifications(page);
    await shot('1-billing-profile');

    // A one-off invoice to the company's parent: a taxable line and a GST-free one, saved as a draft.
    await goViaSidebar(page, viewport, 'Invoices', '/admin/invoices');
    await page.getByRole('link', { name: 'New invoice' }).click();
    await shows(page.getByRole('heading', { level: 1, name: 'New invoice' }), 'the new invoice page');
    const family = page.getByRole('combobox', { name: 'Family', exact: true });
    await family.click();
    await family.fill(company().parent.email);
    await page
      .getByRole('option', { name: /Pat Parent/ })
      .first()
      .click();
    await expect.poll(() => input(page, 'Due date').inputValue()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    const first = page.getByRole('group', { name: 'Line 1' });
    await input(first, 'Description').fill(`Leotard ${tag}`);
    await input(first, 'Detail').fill('Club leotard, size 8');
    await input(first, 'Unit price (GST incl.)').fill('65');
    await page.getByRole('button', { name: 'Add a line' }).click();
    const second = page.getByRole('group', { name: 'Line 2' });
    await input(second, 'Description').fill('First-aid workshop');
    await input(second, 'Quantity').fill('2');
    await input(second, 'Unit price (GST incl.)').fill('25');
    await second.getByRole('checkbox', { name: 'GST-free' }).check();
    await shows(page.getByTestId('new-invoice-total').filter({ hasText: '$115.00' }), 'the total');
    await dismissNotifications(page);
    await shot('2-new-invoice');
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await notified(page, 'The draft invoice was saved.');
    const id = await idFromUrl(page, '/admin/invoices');
    await shows(page.getByRole('heading', { level: 1, name: 'Draft invoice' }), 'the draft');

    // Issue it: it takes the next number.
    await page.getByRole('button', { name: 'Issue', exact: true }).click();
    await notified(page, 'was issued.');
    await shows(page.getByRole('heading', { level: 1, name: /^Invoice INV-\d{6}$/ }), 'the numbered invoice');
    const code = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').replace(
      'Invoice ',
      '',
    );
    await shows(page.getByText('Total price includes GST of'), 'the GST line');
    await shows(page.getByText('First-aid workshop (GST-free)'), 'the GST-free line marked');
    await expect.poll(() => page.getByTestId('invoice-balance').textContent()).toBe('$115.00');
    await shows(
      page
        .getByRole('link', { name: 'Record a payment' })
        .and(page.locator(`[href="/admin/payments/record?invoice=${id}"]`)),
      'the record-a-payment link',
    );

    // A credit note of $20 lowers the balance; more than is left is refused before it is sent.
    await page.getByRole('button', { name: 'Issue a credit note' }).click();
    const dialog = page.getByRole('dialog', { name: 'Issue a credit note' });
    await input(dialog, 'Amount').fill('500');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Missed a week (sick)');
    await dialog.getByRole('button', { name: 'Issue credit note' }).click();
    expect(await fieldError(input(dialog, 'Amount'))).toBe(
      'A credit note cannot be more than what is left on the invoice.',
    );
    await input(dialog, 'Amount').fill('20');
    await dialog.getByRole('button', { name: 'Issue credit note' }).click();
    await notified(page, 'Credit note CN-');
    await expect.poll(() => page.getByTestId('invoice-balance').textContent()).toBe('$95.00');
    await shows(page.getByText('Missed a week (sick)'), 'the credit note with its reason');

    // The tax invoice PDF, and the mail to the family.
    const filename = await expectPdfDownload(page.getByRole('button', { name: 'Download PDF' }).first());
    expect(filename).toMatch(/^invoice-INV-\d{6}\.pdf$/);
    await page.getByRole('button', { name: 'Email to the family' }).click();
    await notified(page, `was emailed to ${company().parent.email}`);
    await dismissNotifications(page);
    await shot('3-invoice');

    // The list finds it by number, newest first.
    await page.getByRole('link', { name: '← Invoices' }).click();
    await page.getByPlaceholder('Search by number or family').fill(code);
    const list = page.getByRole('table', { name: 'Invoices' });
    await expect.poll(() => list.getByRole('row').count()).toBe(2);
    await shows(list.getByRole('link', { name: code }), 'the invoice found by its number');
    await shot('4-invoices');

    // The invoice mail's PDF link: a signed-out parent signs in, and their invoice downloads.
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/admin/login');
    await page.goto(`/admin/students/invoices/${id}/pdf?authhash=${company().authhash}`);
    await shows(page.getByRole('heading', { name: 'Parent Sign In' }), 'the parent sign-in');
    await field(page, 'Email address').fill(company().parent.email);
    await field(page, 'Password').fill(company().parent.password);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Sign In', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`invoice-${id}.pdf`);
    await shows(page.getByText('The PDF has been downloaded.'), 'the download done');
    await shot('5-parent-pdf');
    expect(f.takeDialogs()).toEqual([]);
  }, 180_000);
});
