import { randomBytes } from 'node:crypto';
import { PAYMENT_CANCELLED } from '@tumble/contracts/booking';
import { describe, expect, it } from 'vitest';
import { storedToken } from './support/api.ts';
import {
  apiOk,
  bookingText,
  bookNow,
  calendarDay,
  cellLabel,
  cellOf,
  checkoutLink,
  checkoutSigningIn,
  childBlock,
  datesOf,
  demoEvents,
  demoPricing,
  displayDate,
  eventCharges,
  eventE,
  eventId,
  expectCardPage,
  fillNewChild,
  money,
  openEvent,
  payWith,
  percentOf,
  pick,
  priceLine,
  type SessionDays,
  scrollToTop,
  sessionCell,
  sessionDays,
  sessionOn,
  settledPriceLines,
  testCards,
  waitForMailWith,
} from './support/booking.ts';
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
import { shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();
const camp = demoEvents.camp;
const ninja = demoEvents.ninja;

/**
 * The Morning camp days each test books. Never the camp's first day (its nearly-full Full day stays
 * as seeded), and no day shared between tests or viewports, so each test can count places itself.
 */
const dayPlan: Record<'journey' | 'declined' | 'validation', Record<ViewportName, number[]>> = {
  journey: { desktop: [1, 2], phone: [3, 4] },
  declined: { desktop: [5], phone: [6] },
  validation: { desktop: [7], phone: [7] },
};

function plannedDays(days: SessionDays, purpose: keyof typeof dayPlan, viewport: ViewportName): string[] {
  const dates = datesOf(days, camp.morning);
  expect(dates.length, 'Morning camp days in the demo camp').toBeGreaterThan(7);
  return dayPlan[purpose][viewport].map((index) => dates[index] as string);
}

interface Insurances {
  daily: { id: number; name: string; price: number } | null;
  full: { id: number; name: string; price: number }[];
  children: Record<string, { insurance_ids: number[] }>;
}

describe.each(bothViewports)('event booking (%s)', (viewport) => {
  const fixture = usePage('event-booking', viewport, browser);

  it('a parent books two days for two children (one new) with the demo coupon and the test card', async () => {
    const { page, shot } = fixture();
    const before = await sessionDays(camp);
    const [dayA, dayB] = plannedDays(before, 'journey', viewport) as [string, string];
    const freeBefore = [dayA, dayB].map((date) => sessionOn(before, date, camp.morning).available);
    for (const free of freeBefore) expect(free, 'places left on a planned day').toBeGreaterThanOrEqual(2);
    const cells = [dayA, dayB].map((date) => cellOf(camp, before, date, camp.morning));
    const firstName = `Ivy${viewport === 'desktop' ? 'Desk' : 'Phone'}${randomBytes(3).toString('hex')}`;

    // Step 1: the event, its ages, the venue with a map link, Book Now.
    await openEvent(page, camp);
    await shows(page.getByText(camp.ages, { exact: true }), `the age range '${camp.ages}'`);
    const map = page.getByRole('link', { name: 'View on map' });
    await shows(map, 'the venue map link');
    const mapUrl = new URL((await map.getAttribute('href')) ?? '');
    expect(mapUrl.hostname).toBe('www.google.com');
    expect(mapUrl.searchParams.get('query')).toBe(camp.venueMapQuery);
    await shows(page.getByText('Bounce Gymnastics Centre', { exact: true }), 'the venue name');
    expect(await page.getByRole('link', { name: 'Go to my account' }).count(), 'signed out').toBe(0);
    await shot('1-event');

    // Step 2: two children, two Morning camp days, the running total.
    await bookNow(page);
    await page.getByRole('combobox', { name: 'Number of children' }).selectOption('2');
    expect(await cellLabel(sessionCell(page, dayA, camp.morning))).toContain(`${freeBefore[0]} left`);
    await pick(page, dayA, camp.morning);
    await pick(page, dayB, camp.morning);
    await expect
      .poll(() => page.getByTestId('selection-summary').textContent(), { timeout: UI_TIMEOUT })
      .toBe('2 to book');
    const stepTwoCharges = await eventCharges(camp, 2, cells);
    const stepTwoTotal = stepTwoCharges.pricing_details.total?.formatted;
    expect(stepTwoCharges.pricing_details.subtotal?.value).toBe(demoPricing.morningCamp * 2 * 2);
    await expect
      .poll(
        () =>
          page
            .getByTestId('running-total')
            .textContent()
            .catch(() => null),
        {
          timeout: UI_TIMEOUT,
          interval: 100,
        },
      )
      .toBe(`Total ${stepTwoTotal}`);
    await shot('2-sessions');

    // Checkout while signed out: the parent signs in and comes back.
    await checkoutSigningIn(page, camp, () => shot('3-login'));
    await shows(page.getByRole('link', { name: 'Go to my account' }), "the 'Go to my account' link");
    const summary = page.getByTestId('booking-summary');
    expect(await summary.textContent()).toContain(`${camp.name} · 2 children`);
    for (const date of [dayA, dayB]) expect(await summary.textContent()).toContain(displayDate(date));
    await shows(
      page.getByTestId('payment-terms').getByText(/non-refundable for change of mind/),
      'the terms',
    );

    // Child 1: Mia, daily insurance. Child 2: a new child with the full 'Season cover'.
    const child1 = childBlock(page, 1);
    await child1.getByRole('combobox', { name: 'Child' }).selectOption({ label: 'Mia Parent' });
    await child1.getByRole('radio', { name: /^Daily insurance/ }).check();
    const child2 = childBlock(page, 2);
    await fillNewChild(child2, { firstName, lastName: 'Parent', dob: '14/06/2019' });
    await child2.getByRole('radio', { name: /^Full insurance/ }).check();
    await child2.getByRole('checkbox', { name: /^Season cover/ }).check();

    // The demo coupon: its line shows and every line adds up.
    await page.getByRole('textbox', { name: 'Coupon code' }).fill(demoPricing.coupon);
    await page.getByRole('button', { name: 'Apply coupon' }).click();
    const subtotal = demoPricing.morningCamp * 2 * 2;
    const insurance = demoPricing.dailyInsurance * 2 + demoPricing.seasonCover;
    const discount = percentOf(subtotal, demoPricing.couponPercent * 100);
    const beforeSurcharge = subtotal + demoPricing.bookingFee + insurance - discount;
    const total = beforeSurcharge + percentOf(beforeSurcharge, demoPricing.surchargeBasisPoints);
    const lines = await settledPriceLines(page);
    await shows(priceLine(lines, 'Coupon'), 'the coupon line');
    await expect
      .poll(() => page.getByTestId('price-total').textContent(), { timeout: UI_TIMEOUT, interval: 100 })
      .toBe(money(total));
    const couponLine = await priceLine(lines, 'Coupon').textContent();
    expect(couponLine).toContain(demoPricing.coupon);
    expect(couponLine).toContain(money(-discount));
    expect(await priceLine(lines, 'Sessions').textContent()).toContain(money(subtotal));
    expect(await priceLine(lines, 'Booking fee').textContent()).toContain(money(demoPricing.bookingFee));
    expect(await priceLine(lines, 'Insurance').textContent()).toContain(money(insurance));

    await page.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
    expect(await page.getByRole('alert').count(), 'no error on the checkout').toBe(0);
    await scrollToTop(page);
    await shot('4-checkout');

    // Confirm Payment: the test provider's card page, in test mode, for the same total.
    await page.getByRole('button', { name: 'Confirm Payment' }).click();
    await expectCardPage(page, money(total));
    // While the card page is open the places are held.
    const held = await sessionDays(camp);
    [dayA, dayB].forEach((date, i) => {
      expect(sessionOn(held, date, camp.morning).available, `held on ${date}`).toBe((freeBefore[i] ?? 0) - 2);
    });
    await shot('5-card');

    await payWith(page, testCards.pays);
    await expectAt(page, `/booking?authhash=${company().authhash}&e=${eventE(camp)}&status=true`);
    await shows(page.getByText(bookingText.bookingSuccessful, { exact: true }), "'Booking Successful!'");
    await shot('6-success');

    // Through the API, with the parent's own token: both days have 2 places fewer.
    const token = await storedToken(page);
    expect(token).toMatch(/.{20,}/);
    const after = await sessionDays(camp, token);
    [dayA, dayB].forEach((date, i) => {
      expect(sessionOn(after, date, camp.morning).available, `places left on ${date}`).toBe(
        (freeBefore[i] ?? 0) - 2,
      );
    });
    // The new child was created, and now has the season cover.
    const kids = await apiOk<{ id: number; first_name: string; last_name: string; dob?: string | null }[]>(
      'GET',
      '/api/v1/students/children',
      { token },
    );
    const created = kids.find((kid) => kid.first_name === firstName);
    expect(created, `the new child ${firstName}`).toMatchObject({ last_name: 'Parent', dob: '2019-06-14' });
    const mia = kids.find((kid) => kid.first_name === 'Mia');
    expect(mia).toBeDefined();
    const cover = await apiOk<Insurances>(
      'GET',
      `/api/v1/students/events/insurances?event_id=${eventId(camp)}`,
      {
        token,
      },
    );
    const season = cover.full.find((product) => product.name === 'Season cover');
    expect(season).toBeDefined();
    expect(cover.children[String(created?.id)]?.insurance_ids ?? []).not.toContain(season?.id);
    expect(cover.children[String(mia?.id)]?.insurance_ids ?? [season?.id]).toContain(season?.id);
    // The confirmation mail names the days and the amount paid.
    const mail = await waitForMailWith(company().parent.email, `Booking confirmed: ${camp.name}`, [
      displayDate(dayA),
      displayDate(dayB),
      `Amount paid: ${money(total)}`,
    ]);
    expect(mail.body).toContain('2 place(s)');
  }, 180_000);

  it('a declined card stays on the card page; Cancel goes back to the booking and frees the place', async () => {
    const { page, shot } = fixture();
    const before = await sessionDays(camp);
    const [day] = plannedDays(before, 'declined', viewport) as [string];
    const free = sessionOn(before, day, camp.morning).available;

    await openEvent(page, camp);
    await bookNow(page);
    await pick(page, day, camp.morning);
    await checkoutSigningIn(page, camp);
    const child = childBlock(page, 1);
    await child.getByRole('combobox', { name: 'Child' }).selectOption({ label: 'Mia Parent' });
    await child.getByRole('radio', { name: /^Daily insurance/ }).check();
    await page.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
    await settledPriceLines(page);
    const total = (await page.getByTestId('price-total').textContent()) ?? '';
    expect(total).toMatch(/^\$\d+\.\d\d$/);
    await page.getByRole('button', { name: 'Confirm Payment' }).click();
    await expectCardPage(page, total);
    expect(sessionOn(await sessionDays(camp), day, camp.morning).available, 'held while paying').toBe(
      free - 1,
    );

    await payWith(page, testCards.declined);
    await shows(
      page.getByRole('alert').filter({ hasText: bookingText.cardDeclined }),
      'the declined message',
    );
    expect(await page.getByRole('alert').textContent()).toBe(bookingText.cardDeclined);
    await expectAt(page, '/payments/test');
    expect(await page.getByRole('textbox', { name: 'Card number' }).inputValue()).toBe(testCards.declined);
    expect(sessionOn(await sessionDays(camp), day, camp.morning).available, 'still held').toBe(free - 1);
    await shot('declined');

    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expectAt(page, `/booking?authhash=${company().authhash}&e=${eventE(camp)}&status=cancelled`);
    await shows(page.getByRole('heading', { level: 1, name: camp.name }), 'the booking page again');
    await shows(page.getByText(PAYMENT_CANCELLED), 'the payment-cancelled notice');
    await shows(page.getByRole('button', { name: 'Book Now' }), 'Book Now');
    expect(await page.getByText(bookingText.bookingSuccessful).count()).toBe(0);
    expect(sessionOn(await sessionDays(camp), day, camp.morning).available, 'released').toBe(free);
    await shot('cancelled');
  });

  it('the checkout checks a new child and the terms with SPEC.md wording, above the form', async () => {
    const { page, shot } = fixture();
    const before = await sessionDays(camp);
    const [day] = plannedDays(before, 'validation', viewport) as [string];
    const free = sessionOn(before, day, camp.morning).available;

    await openEvent(page, camp);
    await bookNow(page);
    await pick(page, day, camp.morning);
    await checkoutSigningIn(page, camp);
    const child = childBlock(page, 1);
    await child.getByRole('combobox', { name: 'Child' }).selectOption({ label: 'New child' });
    await shows(child.getByRole('textbox', { name: 'First name' }), 'the new child fields');
    await settledPriceLines(page);
    const confirm = page.getByRole('button', { name: 'Confirm Payment' });
    const errors = page.getByRole('alert');

    // Nothing filled in: the new child, the insurance and the terms, all at once, above the form.
    await confirm.click();
    await shows(errors.filter({ hasText: bookingText.newChildIncomplete(1) }), 'the new-child message');
    const listed = await errors.getByRole('listitem').allTextContents();
    expect(listed).toEqual([
      bookingText.newChildIncomplete(1),
      bookingText.selectInsurance,
      bookingText.acceptTerms,
    ]);
    const alertBox = await errors.boundingBox();
    const childBox = await page.getByRole('heading', { name: 'Children', exact: true }).boundingBox();
    expect(alertBox && childBox && alertBox.y + alertBox.height <= childBox.y, 'errors above the form').toBe(
      true,
    );
    await expectAt(page, checkoutLink(camp));
    await shot('validation-new-child');

    // A date of birth that is no date.
    await child.getByRole('textbox', { name: 'First name' }).fill('Otto');
    await child.getByRole('textbox', { name: 'Last name' }).fill('Parent');
    const dob = child.getByRole('textbox', { name: 'Date of birth' });
    await dob.fill('31/02/2019');
    await dob.press('Tab');
    await page.keyboard.press('Escape');
    await child.getByRole('radio', { name: /^Daily insurance/ }).check();
    await settledPriceLines(page);
    await confirm.click();
    await shows(errors.filter({ hasText: bookingText.newChildDobInvalid(1) }), 'the invalid-dob message');

    // Everything right but the terms.
    await dob.fill('14/06/2019');
    await dob.press('Tab');
    await page.keyboard.press('Escape');
    await settledPriceLines(page);
    await confirm.click();
    await expect
      .poll(() => errors.textContent().catch(() => null), { timeout: UI_TIMEOUT, interval: 100 })
      .toBe(bookingText.acceptTerms);
    await expectAt(page, checkoutLink(camp));
    await shot('validation-terms');
    // Nothing was booked or held.
    expect(sessionOn(await sessionDays(camp), day, camp.morning).available).toBe(free);
  });
});

/** The calendar's states for full and nearly-full days: no checkout, so once, on a phone. */
describe.each(parentViewport)('event booking calendar (%s)', (viewport) => {
  const fixture = usePage('event-booking', viewport, browser);

  it('a full day is waitlist-only yet Book Now works; the nearly-full Full day shows its last place', async () => {
    const { page, shot } = fixture();
    const ninjaDays = await sessionDays(ninja);
    const ninjaDates = datesOf(ninjaDays, ninja.session);
    const [firstNinja, secondNinja] = ninjaDates as [string, string];
    expect(sessionOn(ninjaDays, firstNinja, ninja.session)).toMatchObject({ status: 'full', available: 0 });

    await openEvent(page, ninja);
    await shows(page.getByText(ninja.ages, { exact: true }), `the age range '${ninja.ages}'`);
    await shot('ninja-event');
    await bookNow(page);
    const full = sessionCell(page, firstNinja, ninja.session);
    expect(await cellLabel(full)).toContain('Full · Waitlist');
    expect(await full.isEnabled(), 'a full day can still be chosen for the waitlist').toBe(true);
    const open = sessionCell(page, secondNinja, ninja.session);
    const openFree = sessionOn(ninjaDays, secondNinja, ninja.session).available;
    expect(await cellLabel(open)).toContain(`${openFree} left`);
    expect(await calendarDay(page, firstNinja).textContent()).toContain('Full · Waitlist');
    await pick(page, firstNinja, ninja.session);
    await expect
      .poll(() => page.getByTestId('selection-summary').textContent(), { timeout: UI_TIMEOUT })
      .toBe('1 on the waitlist');
    await shows(
      page.getByRole('button', { name: 'Checkout', exact: true }),
      'Checkout for a waitlist-only pick',
    );
    expect(await page.getByTestId('running-total').count(), 'nothing to pay for a waitlist').toBe(0);
    await shot('ninja-waitlist');

    // The camp's first Full day: one place left, so two children can only join its waitlist.
    const campDays = await sessionDays(camp);
    const firstCamp = datesOf(campDays, camp.fullDay)[0] as string;
    expect(sessionOn(campDays, firstCamp, camp.fullDay)).toMatchObject({ status: 'bookable', available: 1 });
    await openEvent(page, camp);
    await bookNow(page);
    const lastPlace = sessionCell(page, firstCamp, camp.fullDay);
    expect(await cellLabel(lastPlace)).toContain('1 left · $75.00');
    await shot('camp-last-place');
    await page.getByRole('combobox', { name: 'Number of children' }).selectOption('2');
    await expect
      .poll(() => cellLabel(lastPlace), { timeout: UI_TIMEOUT, interval: 100 })
      .toContain('Only 1 left · Waitlist');
  });
});
