import type { MyPartyBookings } from '@tumble/contracts/students';
import { waiverPaths } from '@tumble/contracts/waiver';
import { describe, expect, it } from 'vitest';
import { checkBothWidths } from './support/a11y-pages.ts';
import { isoDate } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import {
  apiOk,
  bookingLink,
  bookingText,
  bookNowReady,
  checkoutLink,
  datesOf,
  demoEvents,
  loginToCheckoutLink,
  sessionDays,
} from './support/booking.ts';
import { company, useCompany } from './support/company.ts';
import { expectAt, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import {
  chooseWithArrows,
  fromTheTop,
  keyboardPay,
  keyboardSignIn,
  keyboardUser,
} from './support/keyboard.ts';
import {
  dayName,
  firstFreeDate,
  loginRedirectLink,
  partyBookingLink,
  partyCheckoutLink,
  partyText,
  plusDays,
  updateGuestLink,
} from './support/party.ts';
import { shows } from './support/ui.ts';

/**
 * Issue 19: the event and party booking journeys with the keyboard alone at 390 px (Tab,
 * Shift+Tab, Enter, Space, arrows and typing into the focused field; no click, no fill). Every
 * element focus lands on is shown (not hidden, not zero-sized) and draws a focus indicator
 * (support/keyboard.ts).
 */

const browser = useBrowser();
useCompany();

describe('booking with the keyboard alone (390 px)', () => {
  const fixture = usePage('keyboard-booking', 'phone', browser);

  it('event: a session chosen, a new child added, checkout, the test card, success', async () => {
    const { page, shot } = fixture();
    const user = keyboardUser(page);
    const camp = demoEvents.camp;
    // The camp's second-last Morning camp day: focus Tabs through the calendar's days to reach it.
    const dates = datesOf(await sessionDays(camp), camp.morning);
    const day = dates[dates.length - 2] as string;

    await page.goto(bookingLink(camp));
    await shows(page.getByRole('heading', { level: 1, name: camp.name }), 'the event');
    await bookNowReady(page);
    await user.tabTo(/^button "Book Now"/);
    await user.checkCurrent();
    await user.press('Enter');
    await shows(page.getByTestId('session-calendar'), "step 2's calendar");

    // The session of the day: its card is a checkbox reached by Tab and ticked with Space.
    const weekday = new Date(`${day}T00:00:00Z`).toLocaleDateString('en-AU', {
      weekday: 'long',
      timeZone: 'UTC',
    });
    const dayLabel = `${weekday} ${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
    await user.tabTo(new RegExp(`^checkbox "${dayLabel}, ${camp.morning},`), 200);
    await user.press('Space');
    await expect
      .poll(() => page.getByTestId('selection-summary').textContent(), { timeout: UI_TIMEOUT })
      .toBe('1 to book');
    await user.tabTo(/^button "Checkout"/, 200);
    await user.checkCurrent();
    await user.press('Enter');
    await expectAt(page, loginToCheckoutLink(camp));
    await keyboardSignIn(page, user);
    await expectAt(page, checkoutLink(camp));
    await shows(page.getByRole('heading', { level: 1, name: 'Checkout' }), 'the checkout');
    await shot('1-checkout');

    // A new child: the Child choice (a native select: arrows), then names and date of birth.
    await fromTheTop(page);
    await user.tabTo(/^select "Child/);
    const child = page
      .getByRole('region', { name: 'Child 1', exact: true })
      .getByRole('combobox', { name: 'Child' });
    await chooseWithArrows(user, child, /^New child$/);
    await user.tabTo(/^input "First name/);
    await user.type('Kiki');
    await user.tabTo(/^input "Last name/);
    await user.type('Keyboard');
    await user.tabTo(/^input "Date of birth/);
    await user.type('03/02/2018');
    await user.press('Escape');
    // The insurance and the terms: Space ticks each.
    await user.tabTo(/^input "Daily insurance/);
    await user.press('Space');
    await user.tabTo(/^input "I have read and accept the Terms and Conditions/);
    await user.press('Space');
    await user.tabTo(/^button "Confirm Payment/);
    await user.checkCurrent();
    await shot('2-checkout-filled');
    await user.press('Enter');

    await keyboardPay(page, user);
    await shows(page.getByText(bookingText.bookingSuccessful, { exact: true }), "'Booking Successful!'");
    await shot('3-success');
    expect(user.problems).toEqual([]);
  });

  it('party: a Sunday chosen on the calendar with the arrows, a slot and guests, checkout, the test card, success', async () => {
    const { page, shot } = fixture();
    const user = keyboardUser(page);
    // A free Sunday in a later month than today's, so the calendar is moved there with Next month.
    const date = await firstFreeDate(plusDays(isoDate(new Date()), 35), 7, 1);

    await page.goto(partyBookingLink());
    await shows(page.getByRole('heading', { level: 1, name: 'Book a birthday party' }), 'the party page');
    await shows(page.getByTestId('party-calendar'), 'the party calendar');
    const month = page.getByTestId('party-calendar').locator('[class*="calendarHeaderLevel"]');
    const targetMonth = new Date(`${date}T00:00:00Z`).toLocaleDateString('en-AU', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    // Next month with Enter until the month of the date shows.
    await user.tabTo(/^button "Next month"/);
    for (let i = 0; i < 12; i++) {
      const shown = await month.textContent();
      if (shown === targetMonth) break;
      await user.press('Enter');
      await expect.poll(() => month.textContent(), { timeout: UI_TIMEOUT, interval: 50 }).not.toBe(shown);
    }
    expect(await month.textContent()).toBe(targetMonth);
    await shows(
      page
        .getByTestId('party-calendar')
        .getByRole('button', { name: new RegExp(`^${dayName(date)}, available`) }),
      'the day, available',
    );
    // Into the days, then the arrows to the date, Enter picks it.
    await user.tabTo(/^button "\d/);
    // (Focus is not moved away and back here: the calendar's one tab stop is its first day, by design.)
    await user.arrowTo('ArrowRight', new RegExp(`^button "${dayName(date)},`));
    await user.press('Enter');
    await shows(page.getByRole('heading', { name: '2. Time and guests' }), 'the time and guests step');
    // The slot (radios) and the guests (a native select: arrows).
    await user.tabTo(/^radio /);
    await user.press('Space');
    await user.tabTo(/^select "Guests/);
    for (let i = 0; i < 7; i++) await user.press('ArrowDown');
    await user.tabTo(/^button "Continue to checkout"/);
    await user.checkCurrent();
    await user.press('Enter');
    await expectAt(page, loginRedirectLink(partyCheckoutLink()));
    await keyboardSignIn(page, user);
    await expectAt(page, partyCheckoutLink());
    await shows(page.getByRole('heading', { level: 1, name: 'Party checkout' }), 'the party checkout');

    // The birthday child (Mia, with the arrows), the terms (Space), Confirm Payment.
    await fromTheTop(page);
    await user.tabTo(/^select "Child/);
    const child = page
      .getByRole('region', { name: 'Birthday child' })
      .getByRole('combobox', { name: 'Child' });
    await chooseWithArrows(user, child, /Mia/);
    await user.tabTo(/^input "I have read and accept the Terms and Conditions/);
    await user.press('Space');
    await user.tabTo(/^button "Confirm Payment/);
    await user.checkCurrent();
    await shot('4-party-checkout');
    await user.press('Enter');

    await keyboardPay(page, user);
    await expectAt(page, partyBookingLink(true));
    await shows(page.getByText(partyText.bookingSuccessful, { exact: true }), "'Booking Successful!'");
    await shot('5-party-success');
    expect(user.problems).toEqual([]);

    // The pages this booking opens, which the public sweep cannot reach before a party exists:
    // its guest list and its waiver, checked by axe and for 24px targets at both widths.
    const token = await apiSignIn(company().parent.email, company().parent.password, company().authhash);
    const party = (await apiOk<MyPartyBookings>('GET', '/api/v1/students/my-party-bookings', { token })).find(
      (p) => p.date === date,
    );
    expect(party, `the party booked on ${date}`).toBeDefined();
    const reference = party?.reference ?? '';
    await page.goto(updateGuestLink(reference));
    await shows(page.getByRole('heading', { level: 1 }), 'the guest list');
    const failures = await checkBothWidths(page, 'party guest list');
    await page.goto(`${waiverPaths.party.page}?id=${reference}&authhash=${company().authhash}`);
    await shows(page.getByRole('button', { name: 'Sign waiver' }).first(), 'the party waiver');
    failures.push(...(await checkBothWidths(page, 'party waiver')));
    expect(failures.join('\n')).toBe('');
  });
});
