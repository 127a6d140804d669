import { describe, expect, it } from 'vitest';
import { confirmDialog, listFeedback, row, signInAsStaff, topShot, uniqueTag } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk, datesOf, demoEvents, paidBooking, sessionDays } from './support/booking.ts';
import { company, useCompany } from './support/company.ts';
import { staffViewport, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { shows } from './support/ui.ts';

/**
 * Refunds (issue 15): staff refund part of a card payment made with the test card, from the
 * payment's page, and follow it in the refunds list until the provider says it went through.
 */

const browser = useBrowser();
useCompany();
const camp = demoEvents.camp;

interface PaymentRow {
  id: number;
  purchase_kind: string | null;
  purchase_id: number | null;
  amount: number;
  refunded: number;
  status: string;
}

/** A staff journey whose layout does not change with width: once, at the front desk's width. */
describe.each(staffViewport)('refunds (%s)', (viewport) => {
  const fixture = usePage('refunds', viewport, browser);

  it('staff refund part of a card payment to the card; the refund shows pending, then refunded', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const tag = uniqueTag(viewport);
    const child = `Refund${tag.replace(/\W/g, '')}`;
    const days = datesOf(await sessionDays(camp), camp.morning);
    const booking = await paidBooking(camp, days[days.length - 1]!, child);
    const staff = await apiSignIn(company().admin.email, company().admin.password);
    const filter = encodeURIComponent(JSON.stringify({ purchase_kind: 'event' }));
    const payments = await apiOk<{ data: PaymentRow[] }>(
      'GET',
      `/api/v1/admin/payments?filter=${filter}&perPage=100`,
      { token: staff },
    );
    const payment = payments.data.find((p) => p.purchase_id === booking.id);
    expect(payment, 'the booking’s card payment').toMatchObject({ status: 'paid', refunded: 0 });

    await signInAsStaff(page);
    await page.goto(`/admin/payments/${payment!.id}`);
    await shows(page.getByRole('button', { name: 'Refund', exact: true }), 'the Refund action');
    await shot('payment');

    // Part of it, to the card (the dialog's default), with a reason.
    const reason = `Missed a day ${tag}`;
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = confirmDialog(page);
    await shows(dialog, 'the refund dialog');
    await dialog.getByRole('textbox', { name: 'Amount' }).fill('10.00');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
    await shows(dialog.getByText(/issue a credit note/), 'the help about invoices owed again');
    await shot('refund-dialog');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    // Pending until the provider's notice says it went through.
    await shows(
      listFeedback(
        page,
        'Refund of $10.00 sent to the card. It shows as pending until the card provider confirms it.',
      ),
      'the refund’s message',
    );
    await shot('refund-sent');

    // The refunds list: the test provider's notice arrives at once, so it shows as refunded.
    await page.goto('/admin/refunds');
    const line = row(page, 'Refunds', reason);
    await shows(line, 'the refund in the list');
    await expect
      .poll(() => line.innerText(), { timeout: UI_TIMEOUT, interval: 250 })
      .toMatch(/\$10\.00[\s\S]*To the card[\s\S]*Refunded/);
    await shot('refunds-list');

    // The payment counts it, and still has the rest to refund.
    const after = await apiOk<PaymentRow>('GET', `/api/v1/admin/payments/${payment!.id}`, { token: staff });
    expect(after).toMatchObject({ status: 'paid', refunded: 1_000 });
    await page.goto(`/admin/payments/${payment!.id}`);
    await shows(page.locator('[data-field="refunded"]').filter({ hasText: '$10.00' }), 'the refunded amount');
    await shot('payment-after');
  });
});
