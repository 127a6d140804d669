import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { isoDate } from './support/admin.ts';
import { apiSignIn, linkTo, storedToken, uniqueEmail } from './support/api.ts';
import { apiOk, displayDate, money, plainLinks, testCards, waitForMailWith } from './support/booking.ts';
import type { ViewportName } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import {
  bothViewports,
  expectAt,
  parentViewport,
  UI_TIMEOUT,
  useBrowser,
  usePage,
} from './support/harness.ts';
import {
  calendarDay,
  calendarEntry,
  calendarMonth,
  dayName,
  dayState,
  demoSlots,
  expectedLines,
  firstFreeDate,
  goToMonth,
  guestsSelect,
  isoWeekday,
  lineTexts,
  loginRedirectLink,
  monthName,
  outboxFor,
  partyBookingLink,
  partyCheckoutLink,
  partyPrice,
  partyText,
  plusDays,
  reservationSummary,
  settledLines,
  slotCapacity,
  slotRadio,
  summaryDate,
  updateGuestLink,
  waitForMailTo,
} from './support/party.ts';
import { shows, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
useCompany();

const SATURDAY = 6;
const GUESTS = 12;
const first = demoSlots.saturdayMorning;
const other = demoSlots.saturdayAfternoon;
/** The demo venue as the invitation names it: name, address, suburb. */
const demoVenue = 'Bounce Gymnastics Centre, 12 Church Street, Parramatta';

/**
 * What each viewport booked, for its later tests. Both viewports book a Saturday (the demo's only
 * day with two slots, so the parent can change slot): desktop the first free one at least three
 * weeks ahead, phone the first free one after it.
 */
const booked: Partial<Record<ViewportName, { date: string; reference?: string }>> = {};

function bookingOf(viewport: ViewportName): { date: string; reference: string } {
  const party = booked[viewport];
  expect(party?.reference, `the party the first ${viewport} test booked`).toBeDefined();
  return party as { date: string; reference: string };
}

/** Today in the browser (the calendar starts tomorrow by the browser's clock), as YYYY-MM-DD. */
function browserToday(page: Page): Promise<string> {
  return page.evaluate(() => {
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  });
}

/** A day the parent cannot pick: disabled, and a click on it chooses nothing. */
async function expectUnpickable(page: Page, date: string, state: string): Promise<void> {
  const day = calendarDay(page, date);
  expect(await dayState(day), `${date} on the calendar`).toBe(state);
  expect(await day.isDisabled(), `${date} is disabled`).toBe(true);
  await day.click({ force: true });
  await shows(
    reservationSummary(page).getByText('Choose a date on the calendar to see times and prices.'),
    `no date chosen after clicking ${date}`,
  );
  expect(await page.getByRole('heading', { name: '2. Time and guests' }).count()).toBe(0);
}

/** A slot's radio card shows as chosen (and the other one not). */
async function expectSlotChosen(page: Page, chosen: string, notChosen: string): Promise<void> {
  await expect
    .poll(() => slotRadio(page, chosen).getAttribute('aria-checked'), { timeout: UI_TIMEOUT, interval: 100 })
    .toBe('true');
  expect(await slotRadio(page, notChosen).getAttribute('aria-checked')).toBe('false');
}

describe.each(bothViewports)('birthday party booking (%s)', (viewport) => {
  const fixture = usePage('party-booking', viewport, browser);

  it('the parent picks a free Saturday, the other slot and 12 guests, and pays the deposit by test card', async () => {
    const { page, shot } = fixture();
    // A free Saturday (both slots free per load-calendar and slot-capacity) for this viewport.
    const threeWeeks = plusDays(isoDate(new Date()), 21);
    const from =
      viewport === 'desktop' ? threeWeeks : plusDays(booked.desktop?.date ?? plusDays(threeWeeks, 6), 1);
    const date = await firstFreeDate(from, SATURDAY, 2);
    booked[viewport] = { date };
    const before = await slotCapacity(date);
    expect(before.slots.map((s) => s.name)).toEqual([first.name, other.name]);
    const otherId = before.slots[1]?.id as number;
    expect(before.capacity[String(otherId)]).toBe(other.capacity);

    // The calendar opens on the month of tomorrow; weeks start on Monday; no earlier month.
    await page.goto(partyBookingLink());
    await shows(page.getByRole('heading', { level: 1, name: 'Book a birthday party' }), 'the party page');
    const today = await browserToday(page);
    const tomorrow = plusDays(today, 1);
    await expect
      .poll(() => calendarMonth(page).textContent(), { timeout: UI_TIMEOUT, interval: 100 })
      .toBe(monthName(tomorrow));
    const weekdays = await page.getByTestId('party-calendar').getByRole('columnheader').allTextContents();
    expect(weekdays[0]).toBe('Mo');
    expect(weekdays[6]).toBe('Su');
    expect(await page.getByRole('button', { name: 'Previous month' }).isDisabled(), 'past months').toBe(true);
    // A past day (today: parties start tomorrow) is not pickable, when the month shows it.
    if (today.slice(0, 7) === tomorrow.slice(0, 7)) await expectUnpickable(page, today, 'not available');
    const yesterday = plusDays(today, -1);
    if (yesterday.slice(0, 7) === tomorrow.slice(0, 7))
      await expectUnpickable(page, yesterday, 'not available');
    await shot('1-calendar');

    // To the month of the date with 'Next month', as a person would.
    await goToMonth(page, date);
    // A weekday of that month has no party slot: locked (absent from load-calendar), not pickable.
    const friday = plusDays(date, -1);
    const weekday = friday.slice(0, 7) === date.slice(0, 7) ? friday : plusDays(date, 2);
    expect(isoWeekday(weekday)).toBeLessThan(6);
    expect(await calendarEntry(weekday), `${weekday} in load-calendar`).toBeUndefined();
    await expectUnpickable(page, weekday, 'not available');
    expect(await dayState(calendarDay(page, date))).toBe('available');

    // The date: its first slot is chosen, with 1 guest; guests run 1 to the slot's capacity.
    await calendarDay(page, date).click();
    await expectSlotChosen(page, first.name, other.name);
    const guests = guestsSelect(page);
    expect(await guests.inputValue()).toBe('1');
    expect(await guests.locator('option').count()).toBe(first.capacity);
    await guests.selectOption('5');
    expect(await guests.inputValue()).toBe('5');
    await shot('2-date');

    // The other slot: guests back to 1. Then 12 guests.
    await slotRadio(page, other.name).click();
    await expectSlotChosen(page, other.name, first.name);
    await expect.poll(() => guests.inputValue(), { timeout: UI_TIMEOUT, interval: 100 }).toBe('1');
    await guests.selectOption(String(GUESTS));

    // The summary: date DD/MM/YYYY, time, guests, and the price lines ($395 + 2 × $25, $100 deposit).
    const summary = reservationSummary(page);
    const price = partyPrice(GUESTS);
    expect(price.total).toBe(44_500);
    await expect
      .poll(() => summary.getByTestId('price-amount_due').textContent(), {
        timeout: UI_TIMEOUT,
        interval: 100,
      })
      .toBe(money(price.amountDue));
    const partySummary = await summary.getByTestId('party-summary').textContent();
    expect(partySummary).toContain(`Date${summaryDate(date)}`);
    expect(partySummary).toContain(`Time${other.shown} (${other.name})`);
    expect(partySummary).toContain(`Guests${GUESTS}`);
    const lines = await lineTexts(await settledLines(summary));
    for (const { label, amount } of expectedLines(GUESTS)) {
      expect(
        lines.some((line) => line.startsWith(label) && line.endsWith(amount)),
        `'${label} … ${amount}' in ${JSON.stringify(lines)}`,
      ).toBe(true);
    }
    expect(lines.find((line) => line.startsWith('Party'))).toContain('10 guests included + 2 extra guests');
    // The same price as the server's summary for the party.
    const charges = await apiOk<{ pricing_details: Record<string, { value: number }> }>(
      'GET',
      `/api/v1/calculate-charges-summary?${new URLSearchParams({ authhash: company().authhash, date, quantity: String(GUESTS), type_of_registration: 'party' })}`,
    );
    expect(charges.pricing_details.total?.value).toBe(price.total);
    expect(charges.pricing_details.amount_due?.value).toBe(price.amountDue);
    await shot('3-summary');

    // Not signed in: the student login with a redirect to the checkout.
    await page.getByRole('button', { name: 'Continue to checkout' }).click();
    await expectAt(page, loginRedirectLink(partyCheckoutLink()));
    await shows(page.getByRole('heading', { name: 'Parent Sign In' }), 'the parent sign-in page');
    await shot('4-login');
    await submitSignIn(page, company().parent.email, company().parent.password);
    await expectAt(page, partyCheckoutLink());
    await shows(page.getByRole('heading', { level: 1, name: 'Party checkout' }), 'the party checkout');

    // Checkout: the party chosen, Mia, the terms; the deposit plus the 1.5 % surcharge to pay now.
    const checkoutSummary = page.getByRole('region', { name: 'Party summary' });
    const chosen = await checkoutSummary.getByTestId('party-summary').textContent();
    expect(chosen).toContain(`Date${summaryDate(date)}`);
    expect(chosen).toContain('Time1:30pm');
    expect(chosen).toContain(`Guests${GUESTS}`);
    await page
      .getByRole('region', { name: 'Birthday child' })
      .getByRole('combobox', { name: 'Child' })
      .selectOption({ label: 'Mia Parent' });
    await shows(
      page.getByTestId('payment-terms').getByText(/non-refundable for change of mind/),
      'the party terms',
    );
    await page.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
    const checkoutLines = await lineTexts(await settledLines(checkoutSummary));
    for (const { label, amount } of expectedLines(GUESTS)) {
      expect(
        checkoutLines.some((line) => line.startsWith(label) && line.endsWith(amount)),
        `'${label} … ${amount}' at checkout`,
      ).toBe(true);
    }
    expect(await page.getByRole('alert').count(), 'no error on the checkout').toBe(0);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await shot('5-checkout');

    await page.getByRole('button', { name: 'Confirm Payment' }).click();
    await expectAt(page, '/payments/test');
    await shows(page.getByRole('note').filter({ hasText: 'TEST MODE' }), 'the TEST MODE banner');
    await shows(page.getByTestId('test-amount'), 'the amount to pay');
    expect(await page.getByTestId('test-amount').textContent()).toBe(money(price.amountDue));
    expect(money(price.amountDue)).toBe('$101.50');
    // While the card page is open the slot is held: slot-capacity no longer offers it.
    expect((await slotCapacity(date)).slots.map((s) => s.name)).toEqual([first.name]);
    await shot('6-card');

    await page.getByRole('textbox', { name: 'Card number' }).fill(testCards.pays);
    await page.getByRole('textbox', { name: 'Expiry' }).fill('12/39');
    await page.getByRole('textbox', { name: 'CVC' }).fill('123');
    await page.getByRole('button', { name: `Pay ${money(price.amountDue)}` }).click();
    await expectAt(page, partyBookingLink(true));
    await shows(page.getByText(partyText.bookingSuccessful, { exact: true }), "'Booking Successful!'");
    await shot('7-success');

    // The confirmation mail: the party, the deposit paid, the balance, and the guest-list link.
    const mail = await waitForMailWith(
      company().parent.email,
      partyText.confirmationSubject(displayDate(date)),
      [
        `on ${displayDate(date)} at ${other.time} for ${GUESTS} guests`,
        `Deposit paid: ${money(price.deposit)}`,
        `Balance to pay the venue: ${money(price.balance)}`,
      ],
    );
    const link = new URL(linkTo(plainLinks(mail), '/birthday-party/update-guest/'));
    expect(link.searchParams.get('authhash')).toBe(company().authhash);
    const reference = link.searchParams.get('id') ?? '';
    expect(reference).toMatch(/^\S{4,}$/);
    // The mail names the booking by its short code (BP-…), one a parent can read out over the phone.
    const code = /reference (BP-[A-Z0-9]+)/.exec(mail.body)?.[1];
    expect(code, 'the short booking code in the mail').toBeDefined();
    booked[viewport] = { date, reference };

    // Staff see it confirmed with the deposit paid and the balance due.
    const staff = await apiSignIn(company().admin.email, company().admin.password);
    const rows = await apiOk<{ data: Record<string, unknown>[] }>(
      'GET',
      `/api/v1/admin/party-bookings?${new URLSearchParams({ q: reference })}`,
      { token: staff },
    );
    expect(rows.data).toHaveLength(1);
    expect(rows.data[0]).toMatchObject({ code, date, guests: GUESTS, status: 'confirmed' });
    expect(await storedToken(page), 'the parent is still signed in').toMatch(/.{20,}/);
  }, 180_000);

  it('the parent adds 3 guests; each guest’s parent gets the invitation (outbox and SMTP)', async () => {
    const { page, shot } = fixture();
    const { date, reference } = bookingOf(viewport);
    const tag = `${viewport === 'desktop' ? 'Desk' : 'Phone'}${randomBytes(2).toString('hex')}`;
    const guests = [1, 2, 3].map((n) => ({
      child: `Guest${n} ${tag}`,
      parent: `Parent${n} ${tag}`,
      email: uniqueEmail(`party-guest${n}`, viewport),
    }));

    // The link from the mail, signed out: sign in and come back to the guest list.
    await page.goto(updateGuestLink(reference));
    await expectAt(page, loginRedirectLink(updateGuestLink(reference)));
    await submitSignIn(page, company().parent.email, company().parent.password);
    await expectAt(page, updateGuestLink(reference));
    await shows(
      // 12 guests booked, 10 rows (SPEC.md: count 10): the heading says the rows it shows.
      page.getByRole('heading', { level: 1, name: `Guests for ${displayDate(date)} (up to 10)` }),
      'the guest list of the party',
    );
    expect(await page.getByTestId('guest-row').count(), 'guest rows').toBe(10);
    // Desktop: one table; phone: a card per guest.
    expect(await page.getByTestId('guest-table').count()).toBe(viewport === 'desktop' ? 1 : 0);

    for (const [i, guest] of guests.entries()) {
      const n = i + 1;
      await page.getByRole('textbox', { name: `Guest ${n}: Child’s name`, exact: true }).fill(guest.child);
      await page.getByRole('textbox', { name: `Guest ${n}: Parent’s name`, exact: true }).fill(guest.parent);
      await page.getByRole('textbox', { name: `Guest ${n}: Parent’s email`, exact: true }).fill(guest.email);
    }
    await shot('8-guests');

    await page.getByRole('button', { name: 'Save guests' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Guests saved' });
    await shows(saved, "'Guests saved'");
    expect(await saved.textContent()).toContain(partyText.invitationsSent(3));
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await shot('9-saved');

    // Each guest's parent: one invitation in the outbox, and the mail reached SMTP.
    const subject = partyText.invitationSubject('Mia');
    const staff = await apiSignIn(company().admin.email, company().admin.password);
    // The text is the demo's party-invitation-settings body: {{child}}, {{date}}, {{time}}, {{venue}}.
    const waiverIds = new Set<string>();
    for (const guest of guests) {
      const outbox = await outboxFor(guest.email, staff);
      expect(outbox, `outbox for ${guest.email}`).toHaveLength(1);
      expect(outbox[0]).toMatchObject({ kind: 'party-invitation', to: guest.email, subject });
      const mail = await waitForMailTo(guest.email, subject);
      expect(mail.body).toContain('You are invited to Mia’s birthday party!');
      expect(mail.body).toContain(`${displayDate(date)} at ${other.time}, ${demoVenue}.`);
      const waiver = new URL(linkTo(mail.links, '/birthday-party/waiver/'));
      expect(waiver.searchParams.get('authhash')).toBe(company().authhash);
      // A guest's waiver link carries the guest's own secret token (parties.tables.ts), not an id.
      expect(waiver.searchParams.get('id')).toMatch(/^[0-9a-f]{32}$/);
      waiverIds.add(waiver.searchParams.get('id') as string);
    }
    expect(waiverIds.size, 'a waiver link per guest').toBe(guests.length);
    // The outbox has delivered them (no longer queued).
    await expect
      .poll(
        async () =>
          (await Promise.all(guests.map((g) => outboxFor(g.email, staff)))).map((r) => r[0]?.status),
        {
          timeout: UI_TIMEOUT,
          interval: 250,
        },
      )
      .toEqual(['sent', 'sent', 'sent']);

    // The saved list is what the page shows after a reload; saving again invites nobody twice.
    await page.reload();
    await shows(page.getByRole('button', { name: 'Save guests' }), 'the guest form again');
    for (const [i, guest] of guests.entries()) {
      expect(
        await page.getByRole('textbox', { name: `Guest ${i + 1}: Parent’s email`, exact: true }).inputValue(),
      ).toBe(guest.email);
      expect(
        await page.getByRole('textbox', { name: `Guest ${i + 1}: Child’s name`, exact: true }).inputValue(),
      ).toBe(guest.child);
    }
    await page.getByRole('button', { name: 'Save guests' }).click();
    await shows(
      page.getByRole('status').filter({ hasText: 'Your guest list has been saved.' }),
      'the list saved without new invitations',
    );
    for (const guest of guests) {
      expect(await outboxFor(guest.email, staff), `still one invitation to ${guest.email}`).toHaveLength(1);
    }
  }, 180_000);
});

/** The phone's party (booked above) on the calendar again: no checkout, so once, on a phone. */
describe.each(parentViewport)('birthday party calendar (%s)', (viewport) => {
  const fixture = usePage('party-booking', viewport, browser);

  it('the booked slot is taken: slot-capacity no longer offers it and the calendar shows one slot fewer', async () => {
    const { page, shot } = fixture();
    const { date } = bookingOf(viewport);

    const capacity = await slotCapacity(date);
    expect(capacity.slots.map((s) => s.name)).toEqual([first.name]);
    expect(await calendarEntry(date)).toEqual({ available: 1 });

    await page.goto(partyBookingLink());
    await shows(page.getByRole('heading', { level: 1, name: 'Book a birthday party' }), 'the party page');
    await goToMonth(page, date);
    const day = calendarDay(page, date);
    expect(await dayState(day), `${dayName(date)} still has a free slot`).toBe('available');
    await day.click();
    await expect
      .poll(() => slotRadio(page, first.name).getAttribute('aria-checked'), {
        timeout: UI_TIMEOUT,
        interval: 100,
      })
      .toBe('true');
    expect(await page.getByRole('radio').count(), 'slots offered on the booked date').toBe(1);
    expect(await slotRadio(page, other.name).count()).toBe(0);
    await shot('10-taken');
  });
});
