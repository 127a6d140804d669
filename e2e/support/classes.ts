import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { confirmDialog, displayDate } from './admin.ts';
import { baseUrl } from './browser.ts';
import { UI_TIMEOUT } from './harness.ts';
import { shows } from './ui.ts';

/**
 * The staff side of classes (issue 13) as the classes spec drives it: terms, class forms, the
 * Generate sessions screen and a session's actions.
 */

/** A term of the built-in school calendar, as its screen offers it and as it becomes a term. */
export interface CalendarChoice {
  region: string;
  year: string;
  term: string;
  /** The term's name once created ("Term 1 2027"). */
  name: string;
  startDate: string;
  endDate: string;
}

/** GET /api/v1/admin/terms?q=: the company's live terms named `name` over `startDate`–`endDate`. */
export async function apiTermNamed(token: string, term: CalendarChoice): Promise<number | null> {
  const response = await fetch(`${baseUrl()}/api/v1/admin/terms?${new URLSearchParams({ q: term.name })}`, {
    headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
  });
  expect(response.status, 'list terms').toBe(200);
  const { data } = (await response.json()) as {
    data: Array<{ id: number; name: string; start_date: string; end_date: string }>;
  };
  // Overlapping dates with the same name is what the company refuses a second time.
  const found = data.find(
    (t) => t.name === term.name && t.start_date <= term.endDate && t.end_date >= term.startDate,
  );
  return found?.id ?? null;
}

/** Picks an option of a Mantine select or a reference select (searchable) by its label. */
export async function pick(scope: Page | Locator, label: string, option: string): Promise<void> {
  const page = 'page' in scope ? scope.page() : scope;
  const box = scope.getByRole('combobox', { name: label, exact: true });
  await box.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect.poll(() => box.inputValue(), { timeout: UI_TIMEOUT, interval: 100 }).toBe(option);
}

/**
 * Types a date into a field of the confirmation dialog. Escape (which admin.ts's fillDate uses to
 * close the picker) would close the dialog itself: a click on the dialog's text closes the picker.
 */
export async function fillDialogDate(page: Page, label: string, iso: string): Promise<void> {
  const dialog = confirmDialog(page);
  const box = dialog.getByRole('textbox', { name: label, exact: true });
  await box.fill(displayDate(iso));
  await dialog.locator('p').first().click();
  await expect.poll(() => box.inputValue(), { timeout: UI_TIMEOUT, interval: 100 }).toBe(displayDate(iso));
}

/** A native time input of the confirmation dialog (HH:mm) by its label. */
export async function fillDialogTime(page: Page, label: string, time: string): Promise<void> {
  const box = confirmDialog(page).getByLabel(new RegExp(`^${label}\\s*\\*?$`));
  await box.fill(time);
  expect(await box.inputValue()).toBe(time);
}

/** The card of one class on the Generate sessions screen. */
export function generationCard(page: Page, className: string): Locator {
  return page.locator('.mantine-Card-root').and(page.getByLabel(className, { exact: true }));
}

/** The session badges of one kind of change ("To add", …) in a class's card: 'Mon 08/02/2027', … */
export async function badgesOf(card: Locator, change: string): Promise<string[]> {
  const heading = card.getByText(new RegExp(`^${change} \\(\\d+\\)$`));
  await shows(heading, `'${change}' in the card`);
  const group = heading.locator('xpath=following-sibling::*[1]');
  return (await group.locator('.mantine-Badge-root').allInnerTexts()).map((t) => t.trim());
}

/** 'Mon 29/03/2027': how the Generate sessions screen names a session on its class's time. */
export function sessionBadge(iso: string): string {
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(`${iso}T00:00:00Z`).getUTCDay()];
  return `${day} ${displayDate(iso)}`;
}

/**
 * Closes the notifications on screen (a save's "Saved" stays a few seconds and follows the next
 * page), so a screenshot shows the page beneath.
 */
export async function closeNotifications(page: Page): Promise<void> {
  const notes = page.locator('.mantine-Notification-root');
  for (const close of await notes.locator('.mantine-Notification-closeButton').all())
    await close.click().catch(() => {});
  await expect.poll(() => notes.count(), { timeout: UI_TIMEOUT, interval: 100 }).toBe(0);
}
