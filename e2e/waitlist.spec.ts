import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiSignIn, linkTo } from './support/api.ts';
import {
  apiCall,
  apiOk,
  bookingLink,
  bookingText,
  cellOf,
  checkoutLink,
  childBlock,
  datesOf,
  demoEvents,
  displayDate,
  eventE,
  eventId,
  loginToCheckoutLink,
  MAIL_SWEEP_MS,
  plainLinks,
  scrollToTop,
  sessionCell,
  sessionDays,
  sessionOn,
} from './support/booking.ts';
import { newPage, screenshot, waitForMail } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import { expectAt, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows, signInAsParent, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
useCompany();
const ninja = demoEvents.ninja;

interface BookingRow {
  id: number;
  reference: string;
  status: string;
  quantity: number;
}

/**
 * The waitlist of SPEC.md point 4. The company's parent waits for BOTH places of the Ninja week's
 * full first day, so when they free up the invitation holds both: the day stays full for everybody
 * else.
 */
describe('waitlist (desktop)', () => {
  const fixture = usePage('waitlist', 'desktop', browser);

  it('a parent waitlists a full day; a cancellation invites them by mail; Accept goes on to book', async () => {
    const { page, shot } = fixture();
    const before = await sessionDays(ninja);
    const firstDay = datesOf(before, ninja.session)[0] as string;
    const firstSession = sessionOn(before, firstDay, ninja.session);
    expect(firstSession).toMatchObject({ status: 'full', available: 0 });
    const newChild = `Max${randomBytes(3).toString('hex')}`;

    // Join the waitlist for two children: the full cell, a checkout with nothing to pay.
    await page.goto(bookingLink(ninja));
    await shows(page.getByRole('heading', { level: 1, name: ninja.name }), 'the Ninja event');
    await page.getByRole('button', { name: 'Book Now' }).click();
    await page.getByRole('combobox', { name: 'Number of children' }).selectOption('2');
    const cell = sessionCell(page, firstDay, ninja.session);
    await cell.click();
    await expect.poll(() => cell.getAttribute('aria-checked'), { timeout: UI_TIMEOUT }).toBe('true');
    await expect
      .poll(() => page.getByTestId('selection-summary').textContent(), { timeout: UI_TIMEOUT })
      .toBe('1 on the waitlist');
    await shot('1-full-day');
    await page.getByRole('button', { name: 'Checkout', exact: true }).click();
    await expectAt(page, loginToCheckoutLink(ninja));
    await submitSignIn(page, company().parent.email, company().parent.password);
    await expectAt(page, checkoutLink(ninja));
    await shows(
      page.getByText('Only waitlisted sessions: nothing to pay now.', { exact: false }),
      'the nothing-to-pay note',
    );
    const summary = page.getByTestId('booking-summary');
    expect(await summary.textContent()).toContain(displayDate(firstDay));
    expect(await summary.getByText('Waitlist', { exact: true }).count()).toBe(1);
    // Waitlisted days need no insurance and show no coupon.
    expect(await page.getByRole('radio').count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Coupon code' }).count()).toBe(0);
    await childBlock(page, 1).getByRole('combobox', { name: 'Child' }).selectOption({ label: 'Mia Parent' });
    const second = childBlock(page, 2);
    await second.getByRole('combobox', { name: 'Child' }).selectOption({ label: 'New child' });
    await second.getByRole('textbox', { name: 'First name' }).fill(newChild);
    await second.getByRole('textbox', { name: 'Last name' }).fill('Parent');
    const dob = second.getByRole('textbox', { name: 'Date of birth' });
    await dob.fill('02/09/2016');
    await dob.press('Tab');
    await page.keyboard.press('Escape');
    await page.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
    await scrollToTop(page);
    await shot('2-checkout');
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    await expectAt(page, `/booking?authhash=${company().authhash}&status=true`);
    await shows(page.getByText(bookingText.bookingSuccessful, { exact: true }), "'Booking Successful!'");
    await shot('3-waiting');

    // My Bookings shows the waitlisted day with its place in the queue and a way to leave.
    const waitlisted = async (target: typeof page) => {
      await target.goto('/admin/students/my-booking');
      const section = target.getByRole('region', { name: 'Waitlisted days' });
      await shows(section, 'the waitlisted days');
      const row = section.getByRole('article', { name: `${ninja.name} ${ninja.session} ${firstDay}` });
      await shows(row, 'the waitlisted Ninja day');
      expect(await row.textContent()).toContain(displayDate(firstDay));
      expect(await row.textContent()).toMatch(/2 places · Waiting · number \d+ in the queue/);
      await shows(row.getByRole('button', { name: /^Leave waitlist for / }), 'Leave waitlist');
      return row;
    };
    await waitlisted(page);
    await shot('3b-my-bookings-waitlist');
    const phoneAccount = await newPage(browser(), 'phone');
    try {
      await signInAsParent(phoneAccount.page);
      await waitlisted(phoneAccount.page);
      await expectFitsWidth(phoneAccount.page);
      await screenshot(phoneAccount.page, 'waitlist-3b-my-bookings-waitlist-phone');
    } finally {
      await phoneAccount.context.close();
    }
    // Waiting takes no place: the day is as full as before.
    expect(sessionOn(await sessionDays(ninja), firstDay, ninja.session)).toMatchObject({
      status: 'full',
      available: 0,
    });

    // Staff cancel the other family's booking of that day.
    const staff = await apiSignIn(company().admin.email, company().admin.password);
    const list = await apiOk<{ data: BookingRow[]; total: number }>(
      'GET',
      `/api/v1/admin/events/${eventId(ninja)}/bookings`,
      { token: staff },
    );
    const reference = `demo-${eventId(ninja)}-${firstSession.session_id}`;
    const family = list.data.find((row) => row.reference === reference);
    expect(family, `booking ${reference}`).toMatchObject({ status: 'confirmed', quantity: 2 });
    const cancelled = await apiCall(
      'POST',
      `/api/v1/admin/events/${eventId(ninja)}/bookings/dispatch/cancel`,
      {
        token: staff,
        body: { ids: [family?.id], values: {} },
      },
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({ success: true });

    // The invitation reaches the parent through SMTP; its places are held for them alone.
    const mail = await waitForMail(company().parent.email, `A place is free: ${ninja.name}`, MAIL_SWEEP_MS);
    expect(mail.subject).toBe(`A place is free: ${ninja.name}`);
    expect(mail.body).toContain(`${ninja.session} on ${displayDate(firstDay)}`);
    const link = linkTo(plainLinks(mail), '/events/invitation/confirm/');
    const query = new URL(link).searchParams;
    expect(query.get('authhash')).toBe(company().authhash);
    expect(query.get('e')).toBe(eventE(ninja));
    const b = query.get('b') ?? '';
    expect(b).toMatch(/^\d+$/);
    expect(query.get('w')).toMatch(/.{16,}/);
    expect(sessionOn(await sessionDays(ninja), firstDay, ninja.session)).toMatchObject({
      status: 'full',
      available: 0,
    });

    // The invitation page at 390px names the event, session and day.
    const phone = await newPage(browser(), 'phone');
    try {
      await phone.page.goto(link);
      await shows(
        phone.page.getByRole('heading', { name: 'A place is available' }),
        'the invitation (phone)',
      );
      const named = phone.page.getByTestId('invitation-place');
      await shows(named, 'the event, session and day (phone)');
      expect(await named.textContent()).toContain(ninja.name);
      expect(await named.textContent()).toContain(`${ninja.session} · `);
      expect(await named.textContent()).toContain(displayDate(firstDay));
      await shows(phone.page.getByRole('button', { name: 'Accept' }), 'Accept (phone)');
      await shows(phone.page.getByRole('button', { name: 'Decline' }), 'Decline (phone)');
      await screenshot(phone.page, 'waitlist-4-invitation-phone');
    } finally {
      await phone.context.close();
    }

    // Desktop: Accept and Decline; Accept moves on to /booking with e and b.
    await page.goto(link);
    await shows(page.getByRole('heading', { name: 'A place is available' }), 'the invitation');
    await shows(page.getByRole('button', { name: 'Decline' }), 'Decline');
    expect(await page.getByText(bookingText.invitationConfirmed).count()).toBe(0);
    expect(await page.getByTestId('invitation-place').textContent()).toContain(displayDate(firstDay));
    await shot('4-invitation');
    await page.getByRole('button', { name: 'Accept' }).click();
    // On to the sessions with the held day chosen for both children.
    await expectAt(
      page,
      `/booking?${new URLSearchParams({ e: eventE(ninja), b, day: cellOf(ninja, before, firstDay, ninja.session), quantity: '2', authhash: company().authhash })}`,
    );
    await shows(page.getByRole('heading', { level: 2, name: ninja.name }), "the event's sessions step");
    await shows(page.getByTestId('session-calendar'), 'the sessions step');
    expect(await page.getByRole('combobox', { name: 'Number of children' }).inputValue()).toBe('2');
    await expect
      .poll(() => sessionCell(page, firstDay, ninja.session).getAttribute('aria-checked'), {
        timeout: UI_TIMEOUT,
      })
      .toBe('true');
    await shot('5-accepted');
    // Accepting keeps the invitation open until the parent books or it lapses.
    const check = await apiOk<{ valid: boolean }>(
      'GET',
      `/api/v1/events/wait-list/invitation/check?${query}`,
    );
    expect(check.valid).toBe(true);
  }, 180_000);
});
