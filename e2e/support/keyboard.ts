import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { testCards } from './booking.ts';
import { company } from './company.ts';
import { expectAt } from './harness.ts';
import { shows } from './ui.ts';

/**
 * A person using the keyboard alone (issue 19): Tab, Shift+Tab, Enter, Space, arrows and typing
 * into the focused field, never a click or a fill by selector. After every move it checks that
 * focus landed on something shown and, once focus moves on, that the element it left looked
 * different while focused (a visible focus indicator). Used by the event, party and class
 * enrolment journeys (e2e/keyboard-booking.spec.ts, keyboard-enrolment.spec.ts).
 */

/** What the focus styles are compared on. */
const FOCUS_STYLES = [
  'outlineStyle',
  'outlineWidth',
  'outlineColor',
  'boxShadow',
  'borderColor',
  'backgroundColor',
];

export interface Focused {
  /** Role (or tag) and accessible name as far as the DOM tells: enough to find it and to say what failed. */
  describe: string;
  styles: string;
  hidden: boolean;
}

/** The focused element (inside open shadow roots), described, with its styles at rest. */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(async (props) => {
    let el = document.activeElement as HTMLElement | null;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement;
    if (!el || el === document.body) return { describe: 'body', styles: '', hidden: false };
    const labelled = el.getAttribute('aria-labelledby');
    const labelledText = labelled
      ? labelled
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
      : '';
    const name = (
      el.getAttribute('aria-label') ??
      (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ??
      (labelledText || el.textContent) ??
      ''
    )
      .trim()
      .replace(/\s+/g, ' ')
      .slice(0, 80);
    const role = el.getAttribute('role') ?? el.tagName.toLowerCase();
    // A switch's native input is drawn as nothing (no size, or opacity 0): the track beside it
    // is what shows, and what draws the focus ring.
    const own = getComputedStyle(el);
    const bounds = el.getBoundingClientRect();
    const drawnAsNothing = bounds.width === 0 || bounds.height === 0 || own.opacity === '0';
    const shown =
      el.tagName === 'INPUT' && drawnAsNothing && el.nextElementSibling instanceof HTMLElement
        ? el.nextElementSibling
        : el;
    // A focus style may fade in (Mantine's inputs ease their border colour): measure it at rest.
    await Promise.all(shown.getAnimations().map((a) => a.finished.catch(() => undefined)));
    const style = getComputedStyle(shown);
    const rect = shown.getBoundingClientRect();
    const hidden =
      rect.width === 0 ||
      rect.height === 0 ||
      style.visibility === 'hidden' ||
      style.opacity === '0' ||
      el.closest('[aria-hidden="true"]') !== null;
    const styles = JSON.stringify(
      props.map((p) => style.getPropertyValue(p.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))),
    );
    Object.assign(window, { __focusedEl: el, __shownEl: shown });
    return { describe: `${role} "${name}"`, styles, hidden };
  }, FOCUS_STYLES);
}

/** The styles of the element last seen focused, now that focus has left it. */
function previousStyles(page: Page): Promise<string | null> {
  return page.evaluate(async (props) => {
    const { __focusedEl: left, __shownEl: el } = window as unknown as {
      __focusedEl?: Element;
      __shownEl?: Element;
    };
    if (!el?.isConnected) return null;
    // Focus moved within the element (a time input's hours to minutes): it has not left it.
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    if (active === left) return null;
    await Promise.all(el.getAnimations().map((a) => a.finished.catch(() => undefined)));
    const style = getComputedStyle(el);
    return JSON.stringify(
      props.map((p) => style.getPropertyValue(p.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))),
    );
  }, FOCUS_STYLES);
}

export type KeyboardUser = ReturnType<typeof keyboardUser>;

/** A keyboard user on `page`; `problems` lists every stop without a visible focus or on a hidden element. */
export function keyboardUser(page: Page) {
  const problems: string[] = [];
  /** Every element focus stopped on, in order (for a failure message and a report). */
  const stops: string[] = [];
  let last: Focused | null = null;

  async function afterMove(): Promise<Focused> {
    if (last && last.describe !== 'body') {
      const unfocused = await previousStyles(page);
      if (unfocused !== null && unfocused === last.styles)
        problems.push(`no visible focus indicator on ${last.describe}`);
    }
    const now = await focused(page);
    if (now.hidden) problems.push(`focus landed on something hidden: ${now.describe}`);
    stops.push(now.describe);
    last = now;
    return now;
  }

  return {
    problems,
    stops,
    /** Tab (or Shift+Tab) once; what has focus now. */
    async tab(back = false): Promise<Focused> {
      await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
      return afterMove();
    },
    /** Tabs forward until the focused element's description matches `target` (at most `limit` presses). */
    async tabTo(target: RegExp, limit = 80): Promise<Focused> {
      const seen: string[] = [];
      for (let i = 0; i < limit; i++) {
        const now = await this.tab();
        seen.push(now.describe);
        if (target.test(now.describe)) return now;
      }
      throw new Error(`Tab never reached ${target}; focus went through: ${seen.join(' → ')}`);
    },
    /** Presses `key` on the focused element (Enter, Space, an arrow, Escape). */
    async press(key: string): Promise<void> {
      await page.keyboard.press(key);
    },
    /** Moves focus away and back, so the element focus ends on is checked too. */
    async checkCurrent(): Promise<void> {
      await this.tab();
      await this.tab(true);
    },
    /** The arrow key pressed until the focused element matches `target`. */
    async arrowTo(key: string, target: RegExp, limit = 62): Promise<Focused> {
      let now = last ?? (await afterMove());
      for (let i = 0; i < limit && !target.test(now.describe); i++) {
        await page.keyboard.press(key);
        now = await afterMove();
      }
      if (target.test(now.describe)) return now;
      throw new Error(`${key} never reached ${target}`);
    },
    /** Types into the focused field (a person typing, not a fill by selector). */
    async type(text: string): Promise<void> {
      await page.keyboard.type(text);
    },
  };
}

/**
 * On the focused native select, presses ArrowDown until the chosen option's text matches `option`
 * (at most once per option).
 */
export async function chooseWithArrows(user: KeyboardUser, select: Locator, option: RegExp): Promise<void> {
  const options = await select.locator('option').count();
  const chosen = async () => (await select.locator('option:checked').textContent()) ?? '';
  for (let i = 0; i < options && !option.test(await chosen()); i++) await user.press('ArrowDown');
  expect(await chosen(), `${option} chosen with the arrows`).toMatch(option);
}

/** Starts the page from the top with nothing focused, as a fresh load does. */
export async function fromTheTop(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** Signs the company's parent in on the parent sign-in page by keyboard: the email field, the password, Enter. */
export async function keyboardSignIn(page: Page, user: KeyboardUser): Promise<void> {
  await shows(page.getByRole('heading', { name: 'Parent Sign In' }), 'the parent sign-in page');
  await fromTheTop(page);
  await user.tabTo(/^input "Email address/);
  await user.type(company().parent.email);
  await user.tabTo(/^input "Password/);
  await user.type(company().parent.password);
  await user.press('Enter');
}

/** Pays on the test provider's card page by keyboard: card number, expiry, CVC, then the Pay button. */
export async function keyboardPay(page: Page, user: KeyboardUser): Promise<void> {
  await expectAt(page, '/payments/test');
  await shows(page.getByTestId('test-amount'), 'the amount to pay');
  await fromTheTop(page);
  await user.tabTo(/^input "Card number/);
  await user.type(testCards.pays);
  await user.tabTo(/^input "Expiry/);
  await user.type('12/39');
  await user.tabTo(/^input "CVC/);
  await user.type('123');
  await user.tabTo(/^button "Pay /);
  await user.checkCurrent();
  await user.press('Enter');
}
