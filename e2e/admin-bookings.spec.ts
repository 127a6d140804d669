import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  confirmDialog,
  displayDate,
  listFeedback,
  signInAsStaff,
  topShot,
  uniqueTag,
} from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk, datesOf, demoEvents, eventId, money, paidBooking, sessionDays } from './support/booking.ts';
import { waitForMail } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import { staffViewport, useBrowser, usePage } from './support/harness.ts';
import { shows } from './support/ui.ts';

/**
 * What staff do with a booking (issue 21 points 10–12): its page lists who is coming and on which
 * days, swap session moves a day, and cancelling a paid booking asks what happens to the money.
 */

const browser = useBrowser();
useCompany();
const camp = demoEvents.camp;

/** Picks a choice of a select (Mantine combobox) in the confirmation dialog. */
async function choose(page: Page, label: string, option: string) {
  await confirmDialog(page).getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Types a date into a field of the confirmation dialog. Escape (which admin.ts's fillDate uses to
 * close the picker) would close the dialog itself: a click on the question closes the picker.
 */
async function fillDialogDate(page: Page, label: string, iso: string) {
  const dialog = confirmDialog(page);
  const box = dialog.getByRole('textbox', { name: label, exact: true });
  await box.fill(displayDate(iso));
  await dialog.locator('p').first().click();
  await expect.poll(() => box.inputValue()).toBe(displayDate(iso));
}

/** A related section on a row's page: a table at the front desk's width. */
function section(page: Page, label: string): Locator {
  return page.getByRole('table', { name: label, exact: true });
}

/** The rows of a section on a row's page, as their cells' text. */
async function sectionRows(page: Page, label: string): Promise<string[][]> {
  const out: string[][] = [];
  for (const row of (await section(page, label).getByRole('row').all()).slice(1))
    out.push((await row.getByRole('cell').allInnerTexts()).map((t) => t.trim()));
  return out;
}

/** Staff pages whose layout does not change with width: once, at the front desk's width. */
describe.each(staffViewport)('admin bookings (%s)', (viewport) => {
  const fixture = usePage('admin-bookings', viewport, browser);

  it('a booking’s page lists its children and days; staff swap a day, then cancel it with a refund', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const child = `Kid${uniqueTag(viewport).replace(/\W/g, '')}`;
    // The camp's last two days, far from the seeded holds of its first (the next test books another).
    const days = datesOf(await sessionDays(camp), camp.morning);
    const from = days[days.length - 2]!;
    const to = days[days.length - 1]!;
    const booking = await paidBooking(camp, from, child);

    await signInAsStaff(page);
    await page.goto(`/admin/events/${eventId(camp)}/bookings/${booking.id}`);
    await shows(section(page, 'Children'), 'the booking’s children');
    expect(await sectionRows(page, 'Children')).toEqual([[`${child} Tester`, '03/02/2018', 'Daily']]);
    expect(await sectionRows(page, 'Days')).toEqual([[displayDate(from), camp.morning, '09:00–12:00', '1']]);
    await shot('booking-page');

    // Swap session: both lists offer the event's sessions.
    await page.getByRole('button', { name: 'Swap session', exact: true }).click();
    await shows(confirmDialog(page), 'the swap dialog');
    await choose(page, 'From session', camp.morning);
    await fillDialogDate(page, 'From day', from);
    await choose(page, 'To session', camp.morning);
    await fillDialogDate(page, 'To day', to);
    await shot('swap-dialog');
    await confirmDialog(page).getByRole('button', { name: 'Swap session', exact: true }).click();
    await shows(listFeedback(page, `Moved to ${camp.morning} on ${displayDate(to)}.`), 'the swap’s message');
    await expect
      .poll(() => sectionRows(page, 'Days'))
      .toEqual([[displayDate(to), camp.morning, '09:00–12:00', '1']]);
    await shot('swapped');

    // Cancel: the dialog's two buttons say what they do, and the paid booking asks about the money.
    await page.getByRole('button', { name: 'Cancel booking', exact: true }).click();
    const dialog = confirmDialog(page);
    await shows(dialog, 'the cancel dialog');
    expect(await dialog.getByRole('button').allInnerTexts()).toEqual(
      expect.arrayContaining(['Keep booking', 'Cancel booking']),
    );
    expect(await dialog.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    await choose(page, 'Money paid (paid bookings)', 'Refund the payment');
    await shot('cancel-dialog');
    await dialog.getByRole('button', { name: 'Cancel booking', exact: true }).click();
    await shows(
      listFeedback(page, '1 booking cancelled. Freed places were offered to the waitlist.'),
      'the cancel message',
    );
    await shows(
      page.locator('[data-field="status"]').filter({ hasText: 'Cancelled' }),
      'the Cancelled status',
    );
    await shows(
      page.locator('[data-field="refund_choice"]').filter({ hasText: 'Refund the payment' }),
      'the refund choice',
    );
    await shot('cancelled');

    const staff = await apiSignIn(company().admin.email, company().admin.password);
    const after = await apiOk<{ status: string; code: string }>(
      'GET',
      `/api/v1/admin/events/${eventId(camp)}/bookings/${booking.id}`,
      { token: staff },
    );
    expect(after.status).toBe('cancelled');
    // The parent's mail for this booking.
    const newest = () => waitForMail(company().parent.email, `Booking cancelled: ${camp.name}`);
    await expect.poll(async () => (await newest()).body, { timeout: 20_000 }).toContain(after.code);
    expect((await newest()).body).toContain(`We will refund ${money(booking.amount)} to you.`);
  });

  it('a parent’s page lists their children and bookings, each booking linking to its page', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const child = `Kid${uniqueTag(viewport).replace(/\W/g, '')}`;
    const days = datesOf(await sessionDays(camp), camp.morning);
    const booking = await paidBooking(camp, days[days.length - 3]!, child);
    const staff = await apiSignIn(company().admin.email, company().admin.password);
    const parents = await apiOk<{ data: { id: number }[] }>(
      'GET',
      `/api/v1/admin/parents?q=${encodeURIComponent(company().parent.email)}`,
      { token: staff },
    );
    const { code } = await apiOk<{ code: string }>(
      'GET',
      `/api/v1/admin/events/${eventId(camp)}/bookings/${booking.id}`,
      { token: staff },
    );

    await signInAsStaff(page);
    await page.goto(`/admin/parents/${parents.data[0]!.id}`);
    await shows(section(page, 'Bookings'), 'the parent’s bookings');
    expect(await sectionRows(page, 'Children')).toContainEqual([`${child} Tester`, '03/02/2018']);
    const bookings = section(page, 'Bookings');
    expect(await sectionRows(page, 'Bookings')).toContainEqual([
      code,
      camp.name,
      'Confirmed',
      money(booking.amount),
    ]);
    await shot('parent-page');
    await bookings.getByRole('link', { name: code, exact: true }).click();
    await shows(page.getByRole('heading', { level: 1, name: code }), 'the booking’s page');
  });
});
