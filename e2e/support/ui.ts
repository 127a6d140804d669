import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { company } from './company.ts';
import { expectAt, UI_TIMEOUT } from './harness.ts';
import { specText } from './spec-text.ts';

/**
 * A form field by its label. Mantine's required asterisk is aria-hidden, so the accessible name is
 * the label alone; password inputs have the textbox role in Chromium's accessibility tree.
 */
export function field(page: Page, label: string): Locator {
  return page.getByRole('textbox', { name: label, exact: true });
}

/** Fills the sign-in form of /admin/login or /admin/students/login and presses Sign In. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await field(page, 'Email address').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Signs the company's parent (Pat Parent) in on its student login and waits for their profile page. */
export async function signInAsParent(page: Page): Promise<void> {
  await page.goto(`/admin/students/login?authhash=${company().authhash}`);
  await submitSignIn(page, company().parent.email, company().parent.password);
  await expectAt(page, '/admin/students/profile');
}

/** The 'Sorry!' banner of a failed sign-in, with SPEC.md's message. */
export async function expectSignInRefused(page: Page): Promise<void> {
  const banner = page.getByRole('alert').filter({ hasText: specText.loginFailedHeading });
  await banner.waitFor();
  expect(await banner.textContent()).toContain(specText.loginFailed);
}

/** The signed-in sidebar (Mantine AppShell navbar). */
export function sidebar(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

/** Resolves once `locator` shows, failing with `what` in the message when it does not. */
export async function shows(locator: Locator, what: string): Promise<void> {
  try {
    await locator.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  } catch (error) {
    throw new Error(`expected to see ${what}: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** The horizontal extent of an element in the viewport, to tell an open sidebar from a collapsed one. */
export async function horizontalBox(locator: Locator): Promise<{ left: number; right: number }> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return { left: box.left, right: box.right };
  });
}

/**
 * Fails when something on the page reaches past the right edge of the window: on a phone that is
 * content cut off, or only reachable by scrolling sideways (a wide table, a squeezed button).
 */
export async function expectFitsWidth(page: Page): Promise<void> {
  const overflowing = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const describe = (element: Element) => {
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `<${element.tagName.toLowerCase()}> '${text}' (right edge ${Math.round(element.getBoundingClientRect().right)}px)`;
    };
    return Array.from(document.body.querySelectorAll('*'))
      .filter((element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || box.right <= width + 1) return false;
        const style = getComputedStyle(element);
        return style.visibility !== 'hidden' && style.display !== 'none';
      })
      .map(describe)
      .slice(0, 5);
  });
  expect(overflowing, `elements wider than the ${page.viewportSize()?.width}px window`).toEqual([]);
}
