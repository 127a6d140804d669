import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { apiSignIn } from './api.ts';
import { baseUrl, type ReceivedMail, waitForMail } from './browser.ts';
import { company, eventCodeOf } from './company.ts';
import { expectAt, UI_TIMEOUT } from './harness.ts';
import { shows, submitSignIn } from './ui.ts';

/**
 * Event booking (issue 5): the demo's events, the strings the booking pages must show (SPEC.md
 * points 2, 4 and 8, copied character for character) and helpers for the booking pages and API.
 */

/**
 * The two published events of every demo company (apps/server/src/seed/demo.ts); each spec's
 * company has its own ids for them (`eventId`, `eventE`).
 */
export const demoEvents = {
  camp: {
    key: 'camp',
    name: 'Summer Gymnastics Holiday Camp',
    ages: 'Ages 5–12',
    venueMapQuery: 'Bounce Gymnastics Centre, 12 Church Street, Parramatta, 2150, Australia',
    /** 20 places a day, $45. */
    morning: 'Morning camp',
    /** 3 places a day, $75; another family holds 2 of the first day's. */
    fullDay: 'Full day',
  },
  ninja: {
    key: 'ninja',
    name: 'Ninja Warrior Week',
    ages: 'Ages 7+',
    /** 2 places a day; another family holds both of the first day's (waitlist only). */
    session: 'Ninja session',
  },
} as const;

export type DemoEvent = (typeof demoEvents)[keyof typeof demoEvents];

/** The event's id in this spec's company. */
export function eventId(event: DemoEvent): number {
  return company().events[event.key];
}

/** The event's `e` on the public booking page: hex of `<company id>|<event id>`. */
export function eventE(event: DemoEvent): string {
  return eventCodeOf(event.key);
}

/** The demo's prices and codes, in cents (seed/demo.ts): what the checkout's lines must add up to. */
export const demoPricing = {
  morningCamp: 4500,
  bookingFee: 250,
  dailyInsurance: 300,
  seasonCover: 2500,
  coupon: 'WELCOME10',
  couponPercent: 10,
  /** The demo's 'Card surcharge' for the test provider: 1.5 %. */
  surchargeBasisPoints: 150,
} as const;

/** The test payment provider's cards (platform/payments/test.ts). */
export const testCards = {
  pays: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
} as const;

export const bookingText = {
  bookingSuccessful: 'Booking Successful!',
  noEventData: 'No event data available.',
  newChildIncomplete: (position: number) =>
    `New child at position ${position} must have both first name, last name and date of birth.`,
  newChildDobInvalid: (position: number) => `New child at position ${position} has a date of birth invalid.`,
  selectInsurance: 'Please select a insurance.',
  acceptTerms: 'You need to accept our Terms and Conditions before placing this booking',
  invitationConfirmed: 'Invitation Confirmed!',
  /** The test provider's refusal (not in SPEC.md: the server's message, shown as it comes). */
  cardDeclined: 'Your card was declined.',
} as const;

/** /booking?e&authhash: the public booking page of a demo event. */
export function bookingLink(event: DemoEvent): string {
  return `/booking?e=${eventE(event)}&authhash=${company().authhash}`;
}

/** /booking/checkout?authhash&b, where the booking page sends a signed-in parent. */
export function checkoutLink(event: DemoEvent): string {
  return `/booking/checkout?${new URLSearchParams({ authhash: company().authhash, b: eventE(event) })}`;
}

/** The student login with a redirect back to the checkout, where a signed-out visitor lands. */
export function loginToCheckoutLink(event: DemoEvent): string {
  return `/admin/students/login?${new URLSearchParams({ authhash: company().authhash, redirect: checkoutLink(event) })}`;
}

/** Cents as the app shows them: '$1,234.50', '-$18.00'. */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-AU')}.${String(abs % 100).padStart(2, '0')}`;
}

/** `amount × basis points / 10 000`, rounded half up to whole cents, as the server rounds. */
export function percentOf(amount: number, basisPoints: number): number {
  return Math.floor((amount * basisPoints * 2 + 10_000) / 20_000);
}

// --- API -----------------------------------------------------------------------------------------

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** A JSON call to the app under test, as the SPA makes it (bearer token, or 'Public'). */
export async function apiCall(
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string | null; body?: unknown } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    Authorization: options.token ? `Bearer ${options.token}` : 'Public',
  };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** A call that must answer 200; its body. */
export async function apiOk<T>(
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string | null; body?: unknown } = {},
): Promise<T> {
  const answer = await apiCall(method, path, options);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body as T;
}

/**
 * A paid booking of the company's parent for a new child on one Morning camp day, made through the
 * API as the checkout page makes it (checkout, then the test card page's pay).
 */
export async function paidBooking(event: DemoEvent, date: string, child: string) {
  const token = await apiSignIn(company().parent.email, company().parent.password, company().authhash);
  const cell = `${eventId(event)}|${sessionOn(await sessionDays(event, token), date, demoEvents.camp.morning).session_id}|${date}`;
  const order = (amount: number) => ({
    event_id: eventId(event),
    quantity: 1,
    booked: [cell],
    children: [
      { first_name: child, last_name: 'Tester', dob: '2018-02-03', insurance_type: 'daily_insurance' },
    ],
    amount,
    accept_terms: true,
  });
  const path = `/api/v1/booking/checkout?authhash=${company().authhash}`;
  // The server prices the order; a wrong amount answers the right one, as the checkout page sees it.
  const probe = await apiCall('POST', path, { token, body: order(0) });
  const quoted = /changed to \$([\d,]+)\.(\d\d)/.exec(String((probe.body as { message?: string }).message));
  expect(quoted, JSON.stringify(probe.body)).not.toBeNull();
  const amount = Number(quoted![1]!.replaceAll(',', '')) * 100 + Number(quoted![2]);
  const checkout = await apiOk<{ sessionId: string; booking_hash: string }>('POST', path, {
    token,
    body: order(amount),
  });
  await apiOk('POST', '/integrations/test/pay', {
    body: { session: checkout.sessionId, card_number: testCards.pays.replaceAll(' ', '') },
  });
  const staff = await apiSignIn(company().admin.email, company().admin.password);
  const list = await apiOk<{ data: { id: number; code: string; reference: string }[] }>(
    'GET',
    `/api/v1/admin/events/${eventId(event)}/bookings?q=${checkout.booking_hash}`,
    { token: staff },
  );
  expect(list.data).toHaveLength(1);
  return { id: list.data[0]!.id, code: list.data[0]!.code, amount };
}

export interface DaySession {
  session_id: number;
  name: string;
  status: 'bookable' | 'full' | 'expired';
  available: number;
  price: number | null;
}
export type SessionDays = Record<string, DaySession[]>;

/** GET /api/v1/booking/sessions?e&authhash: availability per date per session. */
export async function sessionDays(event: DemoEvent, token?: string | null): Promise<SessionDays> {
  const answer = await apiOk<{ event_id: number; days: SessionDays }>(
    'GET',
    `/api/v1/booking/sessions?e=${eventE(event)}&authhash=${company().authhash}`,
    { token },
  );
  expect(answer.event_id).toBe(eventId(event));
  return answer.days;
}

/** The session named `name` on `date`; fails when it does not run that day. */
export function sessionOn(days: SessionDays, date: string, name: string): DaySession {
  const session = days[date]?.find((s) => s.name === name);
  expect(session, `${name} on ${date}`).toBeDefined();
  return session as DaySession;
}

/** The dates `name` runs on, in order. */
export function datesOf(days: SessionDays, name: string): string[] {
  return Object.keys(days)
    .filter((date) => days[date]?.some((s) => s.name === name))
    .sort();
}

/** `event|session|date`, the cell encoding of SPEC.md point 3. */
export function cellOf(event: DemoEvent, days: SessionDays, date: string, name: string): string {
  return `${eventId(event)}|${sessionOn(days, date, name).session_id}|${date}`;
}

export interface PricingLine {
  label: string;
  description: string;
  value: number;
  formatted: string;
}
export interface Charges {
  pricing_details: Record<string, PricingLine>;
  additional_information: { coupon_code: string | null; nsw_coupon_code: string | null };
  errors: Record<string, string>;
}

/** GET /api/v1/calculate-charges-summary for an event selection (SPEC.md point 7). */
export function eventCharges(
  event: DemoEvent,
  quantity: number,
  booked: string[],
  token?: string | null,
): Promise<Charges> {
  const query = new URLSearchParams({
    authhash: company().authhash,
    event_id: String(eventId(event)),
    quantity: String(quantity),
    type_of_registration: 'event',
  });
  for (const cell of booked) query.append('booked', cell);
  return apiOk<Charges>('GET', `/api/v1/calculate-charges-summary?${query}`, { token });
}

/** 'DD/MM/YYYY', as pages and mails show a date. */
export function displayDate(date: string): string {
  return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
}

// --- Pages ---------------------------------------------------------------------------------------

/** The calendar day of step 2 (one cell per date; on a phone, a row of the week's list). */
export function calendarDay(page: Page, date: string): Locator {
  return page.locator(`[data-testid="calendar-day"][data-date="${date}"]`);
}

/**
 * The selectable card of one session on one day: a checkbox whose name reads
 * '<Weekday DD/MM/YYYY>, <session>, <times>, <status>'.
 */
export function sessionCell(page: Page, date: string, name: string): Locator {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return calendarDay(page, date).getByRole('checkbox', { name: new RegExp(`, ${escaped}, `) });
}

/** The accessible name of a session cell (it carries the cell's status text). */
export async function cellLabel(cell: Locator): Promise<string> {
  await cell.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  return (await cell.getAttribute('aria-label')) ?? '';
}

/**
 * Back to the top of the page before a full-page screenshot: a sticky card (the checkout's booking
 * summary) is drawn where the current scroll puts it, which looks misplaced in a full-page picture.
 */
export async function scrollToTop(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
}

/** The checkout's 'Child N' block. */
export function childBlock(page: Page, position: number): Locator {
  return page.getByRole('region', { name: `Child ${position}`, exact: true });
}

/** The checkout's price lines, once no calculation is running. */
export async function settledPriceLines(page: Page): Promise<Locator> {
  const lines = page.getByTestId('price-lines');
  await lines.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await expect
    .poll(() => lines.getAttribute('aria-busy'), { timeout: UI_TIMEOUT, interval: 100 })
    .toBe('false');
  return lines;
}

/** One row of the price lines by its label: its text (label, description, amount). */
export function priceLine(lines: Locator, label: string): Locator {
  return lines
    .locator(':scope > div')
    .filter({ has: lines.page().getByText(label, { exact: true }) })
    .first();
}

// --- The booking journey -------------------------------------------------------------------------

/** Step 1 of /booking: waits for the event's name. */
export async function openEvent(page: Page, event: DemoEvent): Promise<void> {
  await page.goto(bookingLink(event));
  await shows(page.getByRole('heading', { level: 1, name: event.name }), `the event name '${event.name}'`);
}

/** Waits for the app's Book Now: the server-drawn page's stays disabled until the app has drawn the real one. */
export async function bookNowReady(page: Page): Promise<Locator> {
  const button = page.getByRole('button', { name: 'Book Now' });
  await expect
    .poll(() => button.isEnabled(), { timeout: UI_TIMEOUT, message: 'Book Now is enabled' })
    .toBe(true);
  return button;
}

/** Book Now, then waits for step 2's calendar. */
export async function bookNow(page: Page): Promise<void> {
  const button = await bookNowReady(page);
  await button.click();
  await shows(page.getByTestId('session-calendar'), "step 2's calendar");
  await shows(page.getByRole('combobox', { name: 'Number of children' }), 'the quantity choice');
}

/** Ticks a session cell and waits until it shows as selected. */
export async function pick(page: Page, date: string, session: string): Promise<void> {
  const cell = sessionCell(page, date, session);
  await cell.click();
  await expect
    .poll(() => cell.getAttribute('aria-checked'), { timeout: UI_TIMEOUT, interval: 100 })
    .toBe('true');
}

/** Checkout while signed out: the student login with a redirect back, sign in, back on the checkout. */
export async function checkoutSigningIn(
  page: Page,
  event: DemoEvent,
  shot?: () => Promise<void>,
): Promise<void> {
  await page.getByRole('button', { name: 'Checkout', exact: true }).click();
  await expectAt(page, loginToCheckoutLink(event));
  await shows(page.getByRole('heading', { name: 'Parent Sign In' }), 'the parent sign-in page');
  await shot?.();
  await submitSignIn(page, company().parent.email, company().parent.password);
  await expectAt(page, checkoutLink(event));
  await shows(page.getByRole('heading', { level: 1, name: 'Checkout' }), 'the checkout page');
  await shows(page.getByRole('region', { name: 'Child 1', exact: true }), "the checkout's first child");
}

/** Chooses 'New child' in a checkout child block and fills in the name and date of birth (DD/MM/YYYY). */
export async function fillNewChild(
  block: Locator,
  child: { firstName: string; lastName: string; dob: string },
): Promise<void> {
  await block.getByRole('combobox', { name: 'Child' }).selectOption({ label: 'New child' });
  await block.getByRole('textbox', { name: 'First name' }).fill(child.firstName);
  await block.getByRole('textbox', { name: 'Last name' }).fill(child.lastName);
  const dob = block.getByRole('textbox', { name: 'Date of birth' });
  await dob.fill(child.dob);
  await dob.press('Tab');
  // Escape closes the date picker, should it be open, so it covers nothing below.
  await block.page().keyboard.press('Escape');
}

/** Fills the test card page's form with `card` and a future expiry, then presses Pay. */
export async function payWith(page: Page, card: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Card number' }).fill(card);
  await page.getByRole('textbox', { name: 'Expiry' }).fill('12/39');
  await page.getByRole('textbox', { name: 'CVC' }).fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

/** The test provider's card page, in test mode, asking for `amount`. */
export async function expectCardPage(page: Page, amount: string): Promise<void> {
  await expectAt(page, '/payments/test');
  await shows(page.getByRole('note').filter({ hasText: 'TEST MODE' }), 'the TEST MODE banner');
  await shows(page.getByTestId('test-amount'), 'the amount to pay');
  expect(await page.getByTestId('test-amount').textContent()).toBe(amount);
}

/**
 * How long a spec waits for a mail. The app nudges its mail worker after queueing a mail, but a
 * nudge within 5 s of an earlier one is dropped (platform/jobs.ts: pg-boss `singletonSeconds: 5`
 * also counts jobs already completed), so such a mail waits for the once-a-minute sweep.
 */
export const MAIL_SWEEP_MS = 90_000;

/** A mail's links with the HTML part's `&amp;` undone, so both parts name the same link once. */
export function plainLinks(mail: ReceivedMail): string[] {
  return mail.links.map((link) => link.replaceAll('&amp;', '&'));
}

/**
 * The newest mail to `to` whose subject contains `subject` and whose body contains every one of
 * `mustContain` (the spec's other tests and viewports may have sent the same kind of mail).
 */
export async function waitForMailWith(
  to: string,
  subject: string,
  mustContain: string[],
  timeoutMs = MAIL_SWEEP_MS,
): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  let last: ReceivedMail | undefined;
  while (Date.now() < deadline) {
    try {
      last = await waitForMail(to, subject, 1_000);
      const body = last.body;
      if (mustContain.every((text) => body.includes(text))) return last;
    } catch {
      // none yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `no mail to ${to} with subject containing "${subject}" and ${JSON.stringify(mustContain)} within ${timeoutMs} ms` +
      (last ? `; the newest was:\n${last.body.slice(-1500)}` : ''),
  );
}
