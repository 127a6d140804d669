import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { isoDate } from './support/admin.ts';
import { company, useCompany } from './support/company.ts';
import { expectAt, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import {
  chooseWithArrows,
  fromTheTop,
  type KeyboardUser,
  keyboardPay,
  keyboardSignIn,
  keyboardUser,
} from './support/keyboard.ts';
import { shows } from './support/ui.ts';

/**
 * Issue 19: a parent enrols a child in a class with the keyboard alone, at 390 px (Tab,
 * Shift+Tab, Enter, Space, arrows and typing into the focused field; no click, no fill): signs in,
 * opens the class registration form, adds a new child, enrols them in Kinder Gym Saturday, answers
 * the form's question, accepts the terms, pays with the test card and sees the confirmation. Every
 * element focus lands on is shown and draws a focus indicator (support/keyboard.ts).
 */

const browser = useBrowser();
useCompany();
/** The company's Term classes form (seed/classes-demo.ts). */
const formPath = () => `/registration/?f=term-classes&authhash=${company().authhash}`;
const className = 'Kinder Gym Saturday';

/** DD/MM/YYYY of a child 3 years and 4 months old on the company's today: Kinder Gym's age (2 to 5). */
function kinderGymAge(): string {
  const [y, m, d] = isoDate(new Date()).split('-').map(Number) as [number, number, number];
  const born = new Date(Date.UTC(y, m - 1 - 40, d));
  const dd = String(born.getUTCDate()).padStart(2, '0');
  const mm = String(born.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${born.getUTCFullYear()}`;
}

/** The class card (role listitem, named by the class) the focused element sits in, or ''. */
function focusedCard(page: Page): Promise<string> {
  return page.evaluate(
    () => document.activeElement?.closest('[role="listitem"]')?.getAttribute('aria-label') ?? '',
  );
}

/** Tabs to the "Enrol" button of the class `name` (the finder's cards are named by class and time). */
async function tabToEnrol(page: Page, user: KeyboardUser, name: string): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 12; i++) {
    await user.tabTo(/^button "Enrol"/);
    const card = await focusedCard(page);
    if (card.startsWith(name)) return;
    seen.push(card);
  }
  throw new Error(`Tab never reached the Enrol button of ${name}; cards: ${seen.join(', ')}`);
}

describe('class enrolment with the keyboard alone (390 px)', () => {
  const fixture = usePage('keyboard-enrolment', 'phone', browser);

  it('a parent signs in, adds a new child, enrols them in a class, pays with the test card', async () => {
    const { page, shot } = fixture();
    const user = keyboardUser(page);
    const firstName = `Kay${randomBytes(3).toString('hex')}`;

    await page.goto(`/admin/students/login?authhash=${company().authhash}`);
    await keyboardSignIn(page, user);
    await expectAt(page, '/admin/students/profile');

    await page.goto(formPath());
    await shows(page.getByRole('heading', { level: 1, name: 'Term classes' }), 'the registration form');
    const child = page.getByRole('region', { name: 'Child 1', exact: true });
    await shows(child.getByRole('combobox', { name: 'Child' }), 'the child choice');
    await fromTheTop(page);

    // A new child: the Child choice is a native select (arrows), then the names and date of birth.
    await user.tabTo(/^select "Child/);
    const choice = child.getByRole('combobox', { name: 'Child' });
    await chooseWithArrows(user, choice, /^New child$/);
    await user.tabTo(/^input "First name/);
    await user.type(firstName);
    await user.tabTo(/^input "Last name/);
    await user.type('Keyboard');
    await user.tabTo(/^input "Date of birth/);
    await user.type(kinderGymAge());
    await user.press('Escape');
    await shot('1-new-child');

    // The class finder for the child's age: the class's Enrol button, pressed with Space.
    const card = child.getByRole('listitem', { name: new RegExp(`^${className}`) });
    await shows(card, `the ${className} class in the finder`);
    await tabToEnrol(page, user, className);
    await user.press('Space');
    await expect
      .poll(() => card.getByRole('button', { name: /^Enrolled/ }).getAttribute('aria-pressed'), {
        timeout: UI_TIMEOUT,
      })
      .toBe('true');
    await shot('2-class-chosen');

    // The form's question, then the terms (Space ticks), then Confirm Payment (Enter).
    await user.tabTo(/^textarea "Medical notes|^input "Medical notes/);
    await user.type('None');
    await user.tabTo(/^input "I have read and accept the Terms and Conditions/);
    await user.press('Space');
    await expect
      .poll(
        () =>
          page
            .getByTestId('price-total')
            .textContent()
            .catch(() => null),
        { timeout: UI_TIMEOUT },
      )
      .toMatch(/^\$\d+\.\d\d$/);
    await user.tabTo(/^button "Confirm Payment/);
    await user.checkCurrent();
    await shot('3-ready-to-pay');
    await user.press('Enter');

    await keyboardPay(page, user);
    await shows(page.getByRole('heading', { name: 'Enrolment confirmed!' }), 'the confirmation');
    const places = page.getByTestId('confirmation-places');
    await shows(places.getByText(`${firstName} Keyboard: Kinder Gym`, { exact: false }), 'the enrolment');
    await shot('4-confirmed');

    expect(user.problems, `focus stops: ${user.stops.join(' → ')}`).toEqual([]);
  }, 180_000);
});
