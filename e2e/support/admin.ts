import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { demoEventCode } from '../../apps/server/src/seed/demo.ts';
import { baseUrl, type ViewportName } from './browser.ts';
import { company } from './company.ts';
import { expectAt, type PageFixture, UI_TIMEOUT } from './harness.ts';
import { shows, sidebar, submitSignIn } from './ui.ts';

/**
 * The staff admin area (issues 3 and 4): the generic resource screens (list, form, view, action
 * dialogs) and the account pages, as the admin specs drive them.
 */

/** SPEC.md point 8, character for character: row selection and confirmations. */
export const adminText = {
  selectAtLeastOne: 'Please select at least one record.',
  selectOne: 'Please select one record.',
  onlyOneRecord: 'You can perform this action on only one record.',
  confirmAction: (action: string) => `Are you sure to ${action}?`,
  confirmSelectedAction: 'Are you sure you want to perform the selected action?',
  /** The generated form response's html_message for invalid input (apps/server/src/platform). */
  correctErrors: 'Please correct the errors below.',
} as const;

/** The holiday camp every demo company publishes (seed/demo.ts). */
export const demoCamp = {
  name: 'Summer Gymnastics Holiday Camp',
  sessions: ['Morning camp', 'Full day'],
} as const;

/** A short tag no other test, viewport or run uses, for names the tests search for. */
export function uniqueTag(viewport: ViewportName): string {
  return `${viewport} ${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
}

// --- Dates -----------------------------------------------------------------------------------------

/** A local calendar date as 'YYYY-MM-DD'. */
export function isoDate(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

/** 'YYYY-MM-DD' → 'DD/MM/YYYY', as the admin's date inputs show and read dates. */
export function displayDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
}

/** `iso` plus `days` calendar days. */
export function addDays(iso: string, days: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return isoDate(new Date(y, m - 1, d + days));
}

/** The first Monday at least `minDaysAhead` days from today, and the Friday after it. */
export function mondayToFriday(minDaysAhead: number): { monday: string; friday: string } {
  const day = new Date();
  day.setDate(day.getDate() + minDaysAhead);
  while (day.getDay() !== 1) day.setDate(day.getDate() + 1);
  const monday = isoDate(day);
  return { monday, friday: addDays(monday, 4) };
}

/**
 * The first Monday to Friday at least `minDaysAhead` days from today on which the company has no
 * restricted date (every demo company closes Christmas Day, every year), so all five days take
 * bookings whatever the date of the run.
 */
export async function openWeek(
  token: string,
  minDaysAhead: number,
): Promise<{ monday: string; friday: string }> {
  const restricted = await apiSearch(token, 'restricted-dates', '');
  const closed = (date: string) =>
    restricted.some(({ date: stored, recurring_yearly: yearly }) => {
      const day = String(stored).slice(0, 10);
      return day === date || (yearly === true && day.slice(5) === date.slice(5));
    });
  for (let ahead = minDaysAhead; ; ahead += 7) {
    const week = mondayToFriday(ahead);
    if (![0, 1, 2, 3, 4].some((day) => closed(addDays(week.monday, day)))) return week;
  }
}

/**
 * Sets a date filter of a report and waits until the report is asked for with it (and with `kept`,
 * the filters set before), as a person waits to see the report change before the next filter.
 */
async function setReportDate(
  page: Page,
  label: string,
  param: string,
  value: string,
  kept: Record<string, string> = {},
): Promise<void> {
  const wanted = { ...kept, [param]: value };
  const asked = page.waitForRequest((request) => {
    const url = new URL(request.url());
    return (
      url.pathname.startsWith('/api/v1/admin/reports/') &&
      Object.entries(wanted).every(([name, v]) => url.searchParams.get(name) === v)
    );
  });
  await page.getByLabel(label, { exact: true }).fill(value);
  await asked;
  await expect.poll(() => Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject(wanted);
}

/** Sets a report's period (its From and To filters) and waits for the report of it. */
export async function setReportPeriod(page: Page, from: string, to: string): Promise<void> {
  await setReportDate(page, 'From', 'from', from);
  await setReportDate(page, 'To', 'to', to, { from });
}

/** The public booking page's `e`: hex of the ASCII of '<company id>|<event id>'. */
export function eventCode(eventId: number, companyId = company().companyId): string {
  return demoEventCode(eventId, companyId);
}

// --- Screenshots ---------------------------------------------------------------------------------

/**
 * The fixture's `shot`, taken from the top of the page: a full-page screenshot draws the fixed top
 * bar and sidebar where the window happens to be scrolled, over the middle of a long form.
 */
export function topShot(fixture: PageFixture): (step: string) => Promise<void> {
  return async (step) => {
    await fixture.page.evaluate(() => window.scrollTo({ top: 0, left: 0, behavior: 'instant' }));
    await fixture.shot(step);
  };
}

// --- Sign-in and navigation --------------------------------------------------------------------------

/** Signs in on /admin/login and waits for the dashboard. */
export async function signInAsStaff(
  page: Page,
  email: string = company().admin.email,
  password: string = company().admin.password,
): Promise<void> {
  await page.goto('/admin/login');
  await submitSignIn(page, email, password);
  await expectAt(page, '/admin/dashboard');
}

/** Opens the sidebar on a phone (it hides behind the burger below 769px); a no-op on desktop. */
export async function openSidebar(page: Page, viewport: ViewportName): Promise<Locator> {
  const nav = sidebar(page);
  if (viewport === 'phone') {
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await expect
      .poll(async () => (await nav.boundingBox())?.x ?? -1, { timeout: UI_TIMEOUT, interval: 100 })
      .toBe(0);
  }
  return nav;
}

/**
 * Follows a sidebar entry (opening the sidebar first on a phone) and waits for its page, whose
 * heading is the entry's label unless told otherwise (the parent's 'Payments' is 'My Payments').
 */
export async function goViaSidebar(
  page: Page,
  viewport: ViewportName,
  label: string,
  path: string,
  heading: string = label,
): Promise<void> {
  const nav = await openSidebar(page, viewport);
  const link = nav.getByRole('link', { name: label, exact: true });
  const search = nav.getByRole('textbox', { name: 'Go to a screen' });
  // Wait for the sidebar's entries (a parent's sidebar has no quick search) before choosing.
  await link.or(search).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  if (await link.isVisible()) await link.click();
  else {
    // Its group is closed: jump there with the sidebar's quick search instead.
    await search.fill(label);
    await nav
      .getByRole('navigation', { name: 'Screens found' })
      .getByRole('link')
      .filter({ has: page.getByText(label, { exact: true }) })
      .first()
      .click();
  }
  await expectAt(page, path);
  // The URL changes a moment before the page does: wait for the page itself.
  await shows(page.getByRole('heading', { level: 1, name: heading, exact: true }), `the ${heading} page`);
}

/** Waits for an admin URL such as /admin/events/12 and answers the id in it. */
export async function idFromUrl(page: Page, prefix: string): Promise<number> {
  const pattern = new RegExp(`^${prefix}/(\\d+)$`);
  await expect
    .poll(() => new URL(page.url()).pathname, { timeout: UI_TIMEOUT, interval: 100 })
    .toMatch(pattern);
  return Number(pattern.exec(new URL(page.url()).pathname)![1]);
}

// --- Generic form fields ---------------------------------------------------------------------------

/** A text-like input of a generated form (text, number, money, date) by its label. */
export function input(scope: Page | Locator, label: string): Locator {
  return scope.getByRole('textbox', { name: label, exact: true });
}

/** Types a date as DD/MM/YYYY into a date input and leaves it; the input keeps the date. */
export async function fillDate(page: Page, label: string, iso: string): Promise<void> {
  const box = input(page, label);
  await box.fill(displayDate(iso));
  await box.press('Escape');
  await box.blur();
  await expect.poll(() => box.inputValue(), { timeout: UI_TIMEOUT, interval: 100 }).toBe(displayDate(iso));
}

/** A native time input (HH:mm) by its label. */
export async function fillTime(page: Page, label: string, time: string): Promise<void> {
  // A native time input has no textbox role; its <label> text ends with the required asterisk.
  const box = page.getByLabel(new RegExp(`^${label}\\s*\\*?$`));
  await box.fill(time);
  expect(await box.inputValue()).toBe(time);
}

/** Money is typed in dollars; the input shows it as '$50.00' once left. */
export async function fillMoney(page: Page, label: string, dollars: string): Promise<void> {
  const box = input(page, label);
  await box.fill(dollars);
  await box.blur();
  await expect
    .poll(() => box.inputValue(), { timeout: UI_TIMEOUT, interval: 100 })
    .toBe(`$${Number(dollars).toFixed(2)}`);
}

/** Turns a Mantine switch on or off by clicking its label (the input itself is hidden). */
export async function setSwitch(page: Page, label: string, on: boolean): Promise<void> {
  // The accessible name is the label followed by the help text, both inside the switch's <label>.
  const toggle = page.getByRole('switch', { name: new RegExp(`^${label}\\b`) });
  if ((await toggle.isChecked()) !== on) await page.locator('label').filter({ has: toggle }).click();
  await expect.poll(() => toggle.isChecked(), { timeout: UI_TIMEOUT, interval: 100 }).toBe(on);
}

/** The rich text editor's editable area (its accessible name is the field's label). */
export async function fillRichText(page: Page, label: string, text: string): Promise<void> {
  const area = page.locator('[contenteditable="true"]').and(page.getByRole('textbox', { name: label }));
  await shows(area, `the ${label} editor`);
  await area.click();
  await page.keyboard.type(text);
  await expect.poll(() => area.innerText(), { timeout: UI_TIMEOUT, interval: 100 }).toContain(text);
}

/** A field's error message under it (Mantine links it to the input with aria-describedby). */
export async function fieldError(field: Locator): Promise<string> {
  await expect
    .poll(() => field.getAttribute('aria-invalid'), { timeout: UI_TIMEOUT, interval: 100 })
    .toBe('true');
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
  const page = field.page();
  for (const id of ids) {
    const element = page.locator(`[id="${id}"]`);
    if ((await element.count()) === 1 && (await element.getAttribute('class'))?.includes('error')) {
      return ((await element.textContent()) ?? '').trim();
    }
  }
  throw new Error(`no error message is linked to the field (aria-describedby="${ids.join(' ')}")`);
}

/** Presses Save on a generated form. */
export async function save(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
}

/** Waits for a (Mantine) notification with `text`. */
export async function notified(page: Page, text: string): Promise<void> {
  await shows(page.locator('.mantine-Notification-root').filter({ hasText: text }).first(), `'${text}'`);
}

// --- Lists -----------------------------------------------------------------------------------------

/** The resource list's table (its accessible name is the resource's label). */
export function table(page: Page, label: string): Locator {
  return page.getByRole('table', { name: label, exact: true });
}

/** A list row by the text of its title link. */
export function row(page: Page, label: string, title: string): Locator {
  return table(page, label)
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: title, exact: true }) });
}

/** Types into the list's search box and waits for `q` in the URL and the list to refresh. */
export async function search(page: Page, text: string): Promise<void> {
  const box = page.getByRole('searchbox', { name: 'Search' });
  await box.fill(text);
  await box.press('Enter');
  await expect
    .poll(() => new URL(page.url()).searchParams.get('q'), { timeout: UI_TIMEOUT, interval: 100 })
    .toBe(text);
  await page.getByLabel('Refreshing').waitFor({ state: 'hidden' });
}

/** Waits until the list shows exactly `count` rows (besides its header). */
export async function expectRows(page: Page, label: string, count: number): Promise<void> {
  await expect
    .poll(async () => (await table(page, label).getByRole('row').count()) - 1, {
      timeout: UI_TIMEOUT,
      interval: 100,
    })
    .toBe(count);
}

/** The bulk action bar above a list. */
export function toolbar(page: Page): Locator {
  return page.getByRole('toolbar', { name: 'Actions' });
}

/** The list's feedback: a refusal or a failure (role alert) or the server's success (role status). */
export function listFeedback(page: Page, text: string): Locator {
  return page
    .getByRole('main')
    .locator('[role="alert"], [role="status"]')
    .filter({ hasText: text })
    .and(page.locator('.mantine-Alert-root'));
}

/** The confirmation modal of an action ('Please confirm'). */
export function confirmDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Please confirm' });
}

/** The question the confirmation modal asks, once it is open. */
export async function confirmQuestion(page: Page): Promise<string> {
  const dialog = confirmDialog(page);
  await shows(dialog, 'the confirmation dialog');
  const text = dialog.locator('p').first();
  return ((await text.textContent()) ?? '').trim();
}

// --- Files -----------------------------------------------------------------------------------------

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A small solid-colour PNG (RGB), written to a temporary file; answers its path. */
export function writePng(size = 32, rgb: [number, number, number] = [230, 90, 40]): string {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const rowBytes = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3)]);
  for (let x = 0; x < size; x++) rowBytes.set(rgb, 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: size }, () => rowBytes));
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'tumble-e2e-logo-')), 'logo.png');
  writeFileSync(file, png);
  return file;
}

// --- Admin API (to set up rows a test is not about) ----------------------------------------------------

async function adminCall(method: 'GET' | 'POST', path: string, token: string, body?: unknown) {
  const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** POST /api/v1/admin/<resource>: creates a row through the resource engine. */
export async function apiCreateRecord(
  token: string,
  resource: string,
  values: Record<string, unknown>,
): Promise<void> {
  const { status, body } = await adminCall('POST', `/api/v1/admin/${resource}`, token, values);
  expect(status, `create ${resource}: ${JSON.stringify(body)}`).toBe(200);
  expect(body, `create ${resource}`).toMatchObject({ valid: true });
}

/** GET /api/v1/admin/<resource>?q=: the rows a search finds. */
export async function apiSearch(
  token: string,
  resource: string,
  q: string,
): Promise<Array<Record<string, unknown> & { id: number }>> {
  const { status, body } = await adminCall(
    'GET',
    `/api/v1/admin/${resource}?${new URLSearchParams({ q })}`,
    token,
  );
  expect(status, `list ${resource}`).toBe(200);
  return (body as { data: Array<Record<string, unknown> & { id: number }> }).data;
}

/** POST /api/v1/admin/<resource>/dispatch/delete: deletes (or archives) rows a test made. */
export async function apiDeleteRecords(token: string, resource: string, ids: number[]): Promise<void> {
  const { status, body } = await adminCall('POST', `/api/v1/admin/${resource}/dispatch/delete`, token, {
    ids,
  });
  expect(status, `delete ${resource} ${ids.join(', ')}: ${JSON.stringify(body)}`).toBe(200);
  expect(body).toMatchObject({ success: true });
}
