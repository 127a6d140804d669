import { waiverMessages, waiverPaths } from '@tumble/contracts/waiver';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a11yViolations, describeViolations, smallTouchTargets } from './support/a11y.ts';
import { isoDate } from './support/admin.ts';
import {
  bookNow,
  checkoutSigningIn,
  datesOf,
  demoEvents,
  eventId,
  openEvent,
  pick,
  sessionDays,
  sessionOn,
} from './support/booking.ts';
import { newPage, screenshot, viewports } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import { UI_TIMEOUT, useBrowser } from './support/harness.ts';
import {
  calendarDay,
  firstFreeDate,
  goToMonth,
  loginRedirectLink,
  partyBookingLink,
  partyCheckoutLink,
  plusDays,
  updateGuestLink,
} from './support/party.ts';
import { shows, submitSignIn } from './support/ui.ts';

/**
 * Issue 19, "Accessibility, measured": every public and sign-in page of routes.tsx, in the states a
 * parent meets, has no serious or critical axe-core violation (WCAG 2.2 AA) and no interactive
 * element under 24 × 24 px (2.5.8), at 1280 and at 390 px. One browser and one page: each state is
 * loaded once and measured at both widths by resizing it. Reads the spec's company (a copy of the
 * demo) only (no booking is made: checkouts stop at their validation errors).
 */

const browser = useBrowser();
useCompany();
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  ({ context, page } = await newPage(browser(), 'desktop'));
  context.setDefaultTimeout(UI_TIMEOUT);
});
afterAll(async () => {
  await context?.close();
});

/**
 * Measures the page as it is now at 1280 and 390 px and fails with every violation and small
 * target of both widths. `name` names the state (and the screenshots, e2e/artifacts/a11y-*).
 */
async function expectAccessibleAtBothWidths(name: string): Promise<void> {
  const problems: string[] = [];
  for (const viewport of [viewports.desktop, viewports.phone]) {
    await page.setViewportSize(viewport);
    // The layout's media queries apply on the next frame.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
    const label = `${name} at ${viewport.width}px`;
    const violations = await a11yViolations(page);
    if (violations.length > 0) problems.push(describeViolations(label, violations));
    const small = await smallTouchTargets(page);
    if (small.length > 0) problems.push(`${label}: targets under 24 × 24 px: ${small.join('; ')}`);
    if (process.env.A11Y_SHOTS) await screenshot(page, `a11y-${name.replace(/\W+/g, '-')}-${viewport.width}`);
  }
  await page.setViewportSize(viewports.desktop);
  expect(problems.join('\n'), `accessibility of ${name}`).toBe('');
}

/** Opens `path` and waits for `ready` (the page's content, not a fixed sleep). */
async function visit(
  path: string,
  ready: () => ReturnType<Page['getByRole']> | ReturnType<Page['getByText']>,
) {
  await page.goto(path);
  await shows(ready(), `the content of ${path}`);
}

async function signOut(): Promise<void> {
  await context.clearCookies();
  // (A page not loaded yet, about:blank, has no storage to clear.)
  if (page.url().startsWith('http')) await page.evaluate(() => window.localStorage.clear());
}

describe('accessibility of the public pages (1280 and 390 px)', () => {
  it('event booking: the event, the sessions chosen, the parent sign-in, the checkout with its errors', async () => {
    const camp = demoEvents.camp;
    await openEvent(page, camp);
    await expectAccessibleAtBothWidths('booking event');

    await bookNow(page);
    // The last two Morning camp days: chosen here only (nothing is booked).
    const days = datesOf(await sessionDays(camp), camp.morning).slice(-2);
    for (const day of days) await pick(page, day, camp.morning);
    await shows(page.getByTestId('running-total'), 'the running total');
    await expectAccessibleAtBothWidths('booking sessions chosen');

    await checkoutSigningIn(page, camp, () => expectAccessibleAtBothWidths('parent sign-in to checkout'));
    await expectAccessibleAtBothWidths('booking checkout');
    // Paying without the terms: the form shows its errors.
    await page.getByRole('button', { name: /^Confirm Payment|^Join the waitlist/ }).click();
    await shows(page.getByRole('alert').first(), 'the checkout errors');
    await expectAccessibleAtBothWidths('booking checkout with errors');

    // The waitlist-only event: its first day full.
    await openEvent(page, demoEvents.ninja);
    await bookNow(page);
    await expectAccessibleAtBothWidths('booking waitlist event');
  });

  it('party booking: the calendar, a date and slot chosen, the checkout with its errors', async () => {
    await signOut();
    await page.goto(partyBookingLink());
    await shows(page.getByRole('heading', { level: 1, name: 'Book a birthday party' }), 'the party page');
    await shows(page.getByTestId('party-calendar'), 'the party calendar');
    await expectAccessibleAtBothWidths('party calendar');

    // A free Saturday two months ahead: chosen here only, nothing is booked.
    const date = await firstFreeDate(plusDays(isoDate(new Date()), 60), 6, 2);
    await goToMonth(page, date);
    await calendarDay(page, date).click();
    await shows(page.getByRole('heading', { name: '2. Time and guests' }), 'the time and guests step');
    await shows(page.getByTestId('party-summary'), 'the party summary');
    await expectAccessibleAtBothWidths('party date chosen');

    await page.getByRole('button', { name: 'Continue to checkout' }).click();
    await page.waitForURL((url) => url.pathname + url.search === loginRedirectLink(partyCheckoutLink()));
    await submitSignIn(page, company().parent.email, company().parent.password);
    await shows(page.getByRole('heading', { level: 1, name: 'Party checkout' }), 'the party checkout');
    await expectAccessibleAtBothWidths('party checkout');
    await page.getByRole('button', { name: 'Confirm Payment' }).click();
    await shows(page.getByRole('alert').first(), 'the party checkout errors');
    await expectAccessibleAtBothWidths('party checkout with errors');
  });

  it("waivers: a seeded booking's waiver page, a link naming no booking, the guest list link", async () => {
    // The seed's booking of another family on the camp's first Full day (seed/demo.ts builds its
    // reference as demo-<event id>-<session id>, with the company's own ids).
    const camp = demoEvents.camp;
    const days = await sessionDays(camp);
    const firstDay = datesOf(days, camp.fullDay)[0] as string;
    const reference = `demo-${eventId(camp)}-${sessionOn(days, firstDay, camp.fullDay).session_id}`;
    await visit(`${waiverPaths.event.page}?id=${reference}&authhash=${company().authhash}`, () =>
      page.getByRole('button', { name: 'Sign waiver' }).first(),
    );
    await expectAccessibleAtBothWidths('event waiver');
    await page.getByRole('button', { name: 'Sign waiver' }).first().click();
    await shows(page.getByText(waiverMessages.signatureRequired).first(), 'the waiver errors');
    await expectAccessibleAtBothWidths('event waiver with errors');

    // Links that name no booking (the seed makes no party booking).
    await visit(`${waiverPaths.party.page}?id=nothing&authhash=${company().authhash}`, () =>
      page.getByRole('alert'),
    );
    await expectAccessibleAtBothWidths('party waiver invalid link');
    await visit(updateGuestLink('nothing'), () => page.getByRole('heading', { level: 1 }));
    await expectAccessibleAtBothWidths('party guest list of no booking');
  });

  it('class registration: the class finder, an enrolment started, its waiver and offer pages', async () => {
    await signOut();
    await visit(`/registration/?f=term-classes&authhash=${company().authhash}`, () =>
      page.getByRole('heading', { level: 1 }),
    );
    await expectAccessibleAtBothWidths('registration form');
    // A three-and-a-half-year-old's date of birth (from the company's today, in Sydney): the class
    // finder lists their classes.
    const born = new Date();
    born.setMonth(born.getMonth() - 42);
    const dob = page.getByRole('textbox', { name: 'Child’s date of birth' }).first();
    await dob.fill(
      `${String(born.getDate()).padStart(2, '0')}/${String(born.getMonth() + 1).padStart(2, '0')}/${born.getFullYear()}`,
    );
    await dob.press('Tab');
    await page.keyboard.press('Escape');
    const trial = page.getByRole('button', { name: /^Book a trial/ }).first();
    await shows(trial, 'the class finder');
    await expectAccessibleAtBothWidths('registration class finder');
    await trial.click();
    await shows(page.getByTestId('visitor-total'), 'the price of the choice');
    await expectAccessibleAtBothWidths('registration trial chosen');

    await visit(`${waiverPaths.enrolment.page}?id=nothing&authhash=${company().authhash}`, () =>
      page.getByRole('alert'),
    );
    await expectAccessibleAtBothWidths('registration waiver invalid link');
    await visit(`/registration/accept?token=nothing&authhash=${company().authhash}`, () =>
      page.getByRole('heading', { level: 1 }),
    );
    await expectAccessibleAtBothWidths('registration offer invalid link');
  });

  it('links from mail: invitation, unsubscribe; the payment pages; the page not found', async () => {
    await visit(`/events/invitation/confirm?token=nothing&authhash=${company().authhash}`, () =>
      page.getByTestId('invitation-closed'),
    );
    await expectAccessibleAtBothWidths('invitation closed');
    await visit('/unsubscribe/nothing', () => page.getByRole('heading', { level: 1 }));
    await expectAccessibleAtBothWidths('unsubscribe invalid link');
    await visit('/payments/test', () => page.getByRole('note').filter({ hasText: 'TEST MODE' }));
    await expectAccessibleAtBothWidths('test card page');
    await visit('/payments/square-card', () => page.getByRole('alert'));
    await expectAccessibleAtBothWidths('square card page');
    await visit('/no-such-page', () => page.getByRole('heading', { level: 1, name: 'Page not found' }));
    await expectAccessibleAtBothWidths('not found');
  });

  it('sign-in, sign-up and password pages, empty and with their errors', async () => {
    await signOut();
    await visit('/admin/login', () => page.getByRole('button', { name: 'Sign In', exact: true }));
    await expectAccessibleAtBothWidths('staff login');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expectAccessibleAtBothWidths('staff login with errors');

    await visit(`/admin/students/login?authhash=${company().authhash}`, () =>
      page.getByRole('heading', { name: 'Parent Sign In' }),
    );
    await submitSignIn(page, company().parent.email, 'not-the-password');
    await shows(page.getByRole('alert').first(), 'the refusal');
    await expectAccessibleAtBothWidths('parent login refused');

    for (const [path, name] of [
      ['/admin/forgotten-password', 'staff forgotten password'],
      [`/admin/students/forgotten-password?authhash=${company().authhash}`, 'parent forgotten password'],
    ] as const) {
      await visit(path, () => page.getByRole('heading', { level: 1 }));
      await expectAccessibleAtBothWidths(name);
    }
    for (const [path, name] of [
      ['/admin/company/signup', 'company sign-up'],
      [`/admin/students/signup?authhash=${company().authhash}`, 'parent sign-up'],
    ] as const) {
      await visit(path, () => page.getByRole('heading', { level: 1 }));
      await page.locator('form button[type="submit"]').click();
      await expectAccessibleAtBothWidths(`${name} with errors`);
    }
    for (const [path, name] of [
      ['/admin/reset-password?hashcode=nothing', 'reset password invalid link'],
      ['/admin/activate?hashcode=nothing', 'activate invalid link'],
      [
        `/admin/students/invite/accept?hashcode=nothing&authhash=${company().authhash}`,
        'invite accept invalid link',
      ],
    ] as const) {
      await visit(path, () => page.getByRole('alert'));
      await expectAccessibleAtBothWidths(name);
    }
  });
});
