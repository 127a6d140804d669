import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { apiSignIn } from './api.ts';
import { apiOk, money, percentOf } from './booking.ts';
import { worker } from './browser.ts';
import { company } from './company.ts';
import { UI_TIMEOUT } from './harness.ts';

/**
 * Birthday parties (issue 6): the demo's party slots and pricing (apps/server/src/seed/demo.ts),
 * the party API as the booking page calls it, and helpers for the party pages.
 */

/** The demo's party slots: two on Saturdays (ISO weekday 6), one on Sundays (7). */
export const demoSlots = {
  saturdayMorning: { name: 'Saturday morning', time: '10:00', shown: '10:00am–12:00pm', capacity: 20 },
  saturdayAfternoon: { name: 'Saturday afternoon', time: '13:30', shown: '1:30pm–3:30pm', capacity: 20 },
  sundayMorning: { name: 'Sunday morning', time: '10:00', shown: '10:00am–12:00pm', capacity: 25 },
} as const;

/** The demo's 'Birthday party' pricing, in cents, and the test provider's card surcharge. */
export const demoPartyPricing = {
  basePrice: 39_500,
  includedGuests: 10,
  perExtraGuest: 2_500,
  deposit: 10_000,
  surchargeBasisPoints: 150,
} as const;

/** What a party of `guests` costs with the demo pricing: the lines the summary must show. */
export function partyPrice(guests: number) {
  const p = demoPartyPricing;
  const total = p.basePrice + Math.max(0, guests - p.includedGuests) * p.perExtraGuest;
  const deposit = Math.min(p.deposit, total);
  const surcharge = percentOf(deposit, p.surchargeBasisPoints);
  return { total, deposit, balance: total - deposit, surcharge, amountDue: deposit + surcharge };
}

export const partyText = {
  bookingSuccessful: 'Booking Successful!',
  /** The guest page's answer after saving (party.service.ts saveGuests). */
  invitationsSent: (count: number) => `${count} ${count === 1 ? 'invitation was' : 'invitations were'} sent.`,
  /** The demo's party-invitation-settings subject, '{{child}}' filled in. */
  invitationSubject: (child: string) => `You are invited to ${child}’s party`,
  /** The party confirmation mail's subject (mail.templates.ts 'party-confirmation'). */
  confirmationSubject: (displayDate: string) => `Party booked for ${displayDate}`,
} as const;

// --- Dates ---------------------------------------------------------------------------------------

/** YYYY-MM-DD plus `days`. */
export function plusDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** ISO weekday of a YYYY-MM-DD: 1 Monday … 7 Sunday. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** '12 December 2026': how the calendar names a day to a screen reader (before its state). */
export function dayName(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** 'December 2026': the calendar header of the month of a date. */
export function monthName(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** 'Saturday 12/12/2026': how the party summary shows a date. */
export function summaryDate(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', {
    weekday: 'long',
    timeZone: 'UTC',
  });
  return `${weekday} ${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
}

// --- API -----------------------------------------------------------------------------------------

export type PartyCalendar = Record<string, { available: number }>;

/** GET load-calendar?authhash&year: the bookable dates of a year with their free slots. */
export async function partyCalendar(year: number): Promise<PartyCalendar> {
  const answer = await apiOk<{ calendar: string }>(
    'GET',
    `/api/v1/birthday-party/booking/load-calendar?authhash=${company().authhash}&year=${year}`,
  );
  expect(typeof answer.calendar, 'calendar is a JSON string').toBe('string');
  return JSON.parse(answer.calendar) as PartyCalendar;
}

/** A date's entry in the calendar of its year (undefined: locked). */
export async function calendarEntry(date: string): Promise<{ available: number } | undefined> {
  return (await partyCalendar(Number(date.slice(0, 4))))[date];
}

export interface SlotCapacity {
  slots: { id: number; name: string; time: string; duration_minutes: number }[];
  capacity: Record<string, number>;
}

/** GET slot-capacity?authhash&date: the free slots of a date and their most guests. */
export function slotCapacity(date: string): Promise<SlotCapacity> {
  return apiOk<SlotCapacity>(
    'GET',
    `/api/v1/birthday-party/booking/slot-capacity?authhash=${company().authhash}&date=${date}`,
  );
}

/**
 * The first date from `from` on that falls on `weekday` and has every one of its slots free, per
 * load-calendar (and slot-capacity agrees); searches a year ahead.
 */
export async function firstFreeDate(from: string, weekday: number, slotsThatDay: number): Promise<string> {
  const years = new Map<number, PartyCalendar>();
  let date = from;
  while (isoWeekday(date) !== weekday) date = plusDays(date, 1);
  for (let i = 0; i < 53; i++, date = plusDays(date, 7)) {
    const year = Number(date.slice(0, 4));
    if (!years.has(year)) years.set(year, await partyCalendar(year));
    if (years.get(year)?.[date]?.available !== slotsThatDay) continue;
    const capacity = await slotCapacity(date);
    expect(capacity.slots, `slot-capacity of ${date} agrees with the calendar`).toHaveLength(slotsThatDay);
    return date;
  }
  throw new Error(`no date from ${from} on weekday ${weekday} with ${slotsThatDay} free slots`);
}

export interface OutboxMail {
  id: number;
  kind: string;
  to: string;
  subject: string;
  status: string;
  created_at: string;
}

/** GET /api/v1/admin/mail?q as the company's administrator: the outbox rows matching `q`. */
export async function outboxFor(q: string, staffToken?: string): Promise<OutboxMail[]> {
  const token = staffToken ?? (await apiSignIn(company().admin.email, company().admin.password));
  const answer = await apiOk<{ data: OutboxMail[]; total: number }>(
    'GET',
    `/api/v1/admin/mail?${new URLSearchParams({ q, perPage: '100' })}`,
    { token },
  );
  return answer.data;
}

// --- Mail --------------------------------------------------------------------------------------

export interface DecodedMail {
  to: string;
  subject: string;
  /** Every text part, transfer encoding undone, as UTF-8. */
  body: string;
  /** The links of the mail, `&amp;` undone, each once. */
  links: string[];
}

/** Quoted-printable (soft breaks and =XX bytes) undone, the bytes read as UTF-8. */
function fromQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** RFC 2047 encoded words ('=?UTF-8?Q?You_are…?=') of a header, decoded and joined. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : fromQuotedPrintable(text.replaceAll('_', ' ')),
    );
}

/** A raw message (read as latin1, one char per byte) as headers and its decoded text parts. */
function decodeMail(raw: string): DecodedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) =>
    decodeHeader(new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '');
  const parts = raw
    .slice(split)
    .split(/\r?\n--[^\r\n]+/)
    .map((part) => {
      const partSplit = part.search(/\r?\n\r?\n/);
      if (partSplit < 0) return '';
      const partHead = part.slice(0, partSplit);
      const content = part.slice(partSplit).trim();
      const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(partHead)?.[1]?.toLowerCase();
      if (encoding === 'base64') return Buffer.from(content, 'base64').toString('utf8');
      if (encoding === 'quoted-printable') return fromQuotedPrintable(content);
      return Buffer.from(content, 'latin1').toString('utf8');
    });
  const body = parts.join('\n');
  const links = [
    ...new Set([...body.matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => m[0].replaceAll('&amp;', '&'))),
  ];
  return { to: header('To'), subject: header('Subject'), body, links };
}

/**
 * Waits for a mail to `to` with exactly `subject` (encoded words decoded) that the app sent through
 * SMTP to the test mail server; the newest if several.
 */
export async function waitForMailTo(to: string, subject: string, timeoutMs = 90_000): Promise<DecodedMail> {
  const mailDir = worker().mailDir;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const file of (await readdir(mailDir)).sort().reverse()) {
      const mail = decodeMail(await readFile(path.join(mailDir, file), 'latin1'));
      if (mail.to.includes(to) && mail.subject === subject) return mail;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail to ${to} with subject "${subject}" within ${timeoutMs} ms`);
}

// --- Pages ---------------------------------------------------------------------------------------

/** /birthday-party/booking/?authhash of the company (with status=true: the end of a paid checkout). */
export function partyBookingLink(status = false): string {
  return `/birthday-party/booking/?authhash=${company().authhash}${status ? '&status=true' : ''}`;
}

/** /birthday-party/booking/checkout/?authhash of the company */
export function partyCheckoutLink(): string {
  return `/birthday-party/booking/checkout/?${new URLSearchParams({ authhash: company().authhash })}`;
}

/** The student login with a redirect to `target`, where a signed-out parent is sent. */
export function loginRedirectLink(target: string): string {
  return `/admin/students/login?${new URLSearchParams({ authhash: company().authhash, redirect: target })}`;
}

/** /birthday-party/update-guest/?id&authhash of the company */
export function updateGuestLink(reference: string): string {
  return `/birthday-party/update-guest/?id=${reference}&authhash=${company().authhash}`;
}

/** The party calendar's month label ('November 2026'). */
export function calendarMonth(page: Page): Locator {
  return page.getByTestId('party-calendar').locator('[class*="calendarHeaderLevel"]');
}

/** A day of the party calendar, by its accessible name's date part ('12 December 2026, …'). */
export function calendarDay(page: Page, date: string): Locator {
  return page.getByTestId('party-calendar').getByRole('button', { name: new RegExp(`^${dayName(date)}, `) });
}

/** The day's state as the calendar says it: 'available', 'reserved, fully booked', 'not available'. */
export async function dayState(day: Locator): Promise<string> {
  await day.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  return ((await day.getAttribute('aria-label')) ?? '').replace(/^[^,]+, /, '');
}

/** Waits until the calendar shows the month of `date` and has loaded its days. */
async function showsMonth(page: Page, date: string): Promise<void> {
  await expect
    .poll(() => calendarMonth(page).textContent(), { timeout: UI_TIMEOUT, interval: 100 })
    .toBe(monthName(date));
}

/**
 * Moves the calendar with 'Next month' (as a person would) until it shows the month of `date`,
 * then waits for the year's days to load (the day is no longer shown locked while loading).
 */
export async function goToMonth(page: Page, date: string): Promise<void> {
  const target = monthName(date);
  for (let i = 0; i < 24; i++) {
    const shown = await calendarMonth(page).textContent();
    if (shown === target) break;
    await page.getByRole('button', { name: 'Next month', exact: true }).click();
    await expect
      .poll(() => calendarMonth(page).textContent(), { timeout: UI_TIMEOUT, interval: 100 })
      .not.toBe(shown);
  }
  await showsMonth(page, date);
  await expect
    .poll(() => page.getByTestId('party-calendar').locator('.mantine-LoadingOverlay-root').count(), {
      timeout: UI_TIMEOUT,
      interval: 100,
    })
    .toBe(0);
}

/** The radio card of a party slot on the booking page. */
export function slotRadio(page: Page, name: string): Locator {
  return page.getByRole('radio', { name: new RegExp(name) });
}

/** The guests choice of the booking page. */
export function guestsSelect(page: Page): Locator {
  return page.getByRole('combobox', { name: 'Guests' });
}

/** The booking page's 'Reservation summary' card. */
export function reservationSummary(page: Page): Locator {
  return page.getByRole('region', { name: 'Reservation summary' });
}

/** The price lines inside `scope` once no calculation is running. */
export async function settledLines(scope: Locator): Promise<Locator> {
  const lines = scope.getByTestId('price-lines');
  await lines.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await expect
    .poll(() => lines.getAttribute('aria-busy'), { timeout: UI_TIMEOUT, interval: 100 })
    .toBe('false');
  return lines;
}

/** The text of every price line, label and amount: 'Deposit … $100.00'. */
export async function lineTexts(lines: Locator): Promise<string[]> {
  return lines.locator(':scope > div').allTextContents();
}

/** Price lines a party of `guests` must show, as label + amount pairs. */
export function expectedLines(guests: number): { label: string; amount: string }[] {
  const price = partyPrice(guests);
  return [
    { label: 'Party', amount: money(price.total) },
    { label: 'Total', amount: money(price.total) },
    { label: 'Deposit', amount: money(price.deposit) },
    { label: 'Balance', amount: money(price.balance) },
    { label: 'Card surcharge', amount: money(price.surcharge) },
    { label: 'To pay now', amount: money(price.amountDue) },
  ];
}
