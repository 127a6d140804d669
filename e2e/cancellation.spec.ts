import { describe, expect, it } from 'vitest';
import { uniqueTag } from './support/admin.ts';
import { datesOf, demoEvents, money, paidBooking, sessionDays } from './support/booking.ts';
import { useCompany } from './support/company.ts';
import { bothViewports, expectAt, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows, signInAsParent } from './support/ui.ts';

/**
 * Self-service cancellation: the spec's company, like every copy of the demo, lets
 * parents cancel an event day 48 hours ahead for a full credit (seed/cancellation-demo.ts). The
 * parent sees what comes back before confirming, and the day is gone from the booking.
 */

const browser = useBrowser();
useCompany();
const camp = demoEvents.camp;

describe.each(bothViewports)('self-service cancellation (%s)', (viewport) => {
  const fixture = usePage('cancellation', viewport, browser);

  it('a parent cancels a paid camp day from My Bookings and keeps its price as credit', async () => {
    const { page, shot } = fixture();
    // The first camp day: far more than 48 hours away.
    const day = datesOf(await sessionDays(camp), camp.morning)[0]!;
    const child = `Cx${uniqueTag(viewport).replace(/\W/g, '')}`;
    const booking = await paidBooking(camp, day, child);

    await signInAsParent(page);
    await page.goto('/admin/students/my-booking');
    await expectAt(page, '/admin/students/my-booking');
    const card = page.getByRole('article', { name: `${camp.name} ${booking.code}` });
    await shows(card, 'the new booking');
    await card.getByRole('button', { name: 'Cancel day' }).click();

    const dialog = page.getByRole('dialog', { name: 'Cancel this day?' });
    await shows(dialog, 'the cancel dialog');
    // The whole booking is one day of Morning camp; the day's share is all that was paid.
    const credit = dialog.getByText(
      /will be kept as credit on your account, for a future booking or invoice\.$/,
    );
    await shows(credit, 'what comes back');
    expect(await credit.textContent()).toBe(
      `${money(booking.amount)} will be kept as credit on your account, for a future booking or invoice.`,
    );
    await expectFitsWidth(page);
    await shot('1-preview');

    await dialog.getByRole('button', { name: 'Cancel this day' }).click();
    await shows(dialog.getByRole('status'), 'the outcome');
    expect(await dialog.getByRole('status').textContent()).toContain(
      `Cancelled: ${camp.name}, ${camp.morning}`,
    );
    await shot('2-cancelled');
    await dialog.getByRole('button', { name: 'Done' }).click();
    // Its only day is gone: the booking is cancelled and cannot be cancelled again.
    await shows(card.getByText('Cancelled', { exact: true }), 'the cancelled badge');
    expect(await card.getByRole('button', { name: 'Cancel day' }).count()).toBe(0);
    await shot('3-booking');
  });
});
