import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isoDate } from './support/admin.ts';
import { storedToken } from './support/api.ts';
import { apiOk, expectCardPage, payWith, scrollToTop, testCards } from './support/booking.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, expectAt, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { shows, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
useCompany();
/** The company's Term classes form (seed/classes-demo.ts). */
const formPath = () => `/registration/?f=term-classes&authhash=${company().authhash}`;

/**
 * DD/MM/YYYY of a child who is three and a half on the company's today (plus `extra` months):
 * Kinder Gym's age (2 to 5), not Ninja Kids' (6+). Each viewport's child is born on another day, so
 * the second run's date of birth is not the first run's child (signing in matches a family's child
 * by date of birth).
 */
function threeAndAHalf(extra: number): string {
  const [y, m, d] = isoDate(new Date()).split('-').map(Number) as [number, number, number];
  const born = new Date(Date.UTC(y, m - 1 - 42 - extra, d));
  const dd = String(born.getUTCDate()).padStart(2, '0');
  const mm = String(born.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${born.getUTCFullYear()}`;
}

describe.each(bothViewports)('class enrolment (%s)', (viewport) => {
  const fixture = usePage('class-enrolment', viewport, browser);

  it('a visitor finds a class by a date of birth, signs in, books a trial and pays after a declined card', async () => {
    const { page, shot } = fixture();
    const firstName = `Kit${viewport === 'desktop' ? 'Desk' : 'Phone'}${randomBytes(3).toString('hex')}`;

    // Signed out: the form and its class finder, by a date of birth alone.
    await page.goto(formPath());
    await shows(page.getByRole('heading', { level: 1, name: 'Term classes' }), 'the form, signed out');
    let child = page.getByRole('region', { name: 'Child 1', exact: true });
    await shot('1-visitor');

    // A three-year-old: the finder lists Kinder Gym classes for their age, never Ninja Kids.
    const dob = child.getByRole('textbox', { name: 'Child’s date of birth' });
    await dob.fill(threeAndAHalf(viewport === 'desktop' ? 0 : 2));
    await dob.press('Tab');
    await page.keyboard.press('Escape');
    let classes = child.getByRole('list', { name: 'Classes for Child 1' });
    await shows(classes, 'the class finder');
    let kinder = classes.getByRole('listitem').filter({ hasText: 'Kinder Gym' });
    await shows(kinder.first(), 'a Kinder Gym class');
    expect(await classes.getByRole('listitem').filter({ hasText: 'Ninja Kids' }).count()).toBe(0);
    const withTrial = kinder.filter({ has: page.getByRole('button', { name: /^Book a trial/ }) }).first();
    await shows(withTrial, 'a class offering a trial');
    expect(await withTrial.textContent()).toMatch(/\d+ places? left/);
    const className = (await withTrial.getAttribute('aria-label')) ?? '';
    await withTrial.getByRole('button', { name: /^Book a trial/ }).click();
    await shows(page.getByTestId('visitor-total'), 'the price of the choice');
    await shot('2-visitor-finder', { fullPage: true });

    // Paying asks the visitor to sign in, and brings them back with the trial still chosen.
    await page.getByRole('button', { name: 'Sign in to pay' }).click();
    await shows(page.getByRole('heading', { name: 'Parent Sign In' }), 'the parent sign-in page');
    await submitSignIn(page, company().parent.email, company().parent.password);
    await expectAt(page, formPath());
    await shows(page.getByRole('heading', { level: 1, name: 'Term classes' }), 'the form');
    child = page.getByRole('region', { name: 'Child 1', exact: true });
    await child.getByRole('textbox', { name: 'First name' }).fill(firstName);
    await child.getByRole('textbox', { name: 'Last name' }).fill('Parent');
    classes = child.getByRole('list', { name: `Classes for ${firstName}` });
    kinder = classes.getByRole('listitem', { name: className });
    await shows(kinder.getByRole('button', { name: /^Trial .* ✓$/ }), 'the trial kept through sign-in');
    await shot('3-form');

    // The required question, the terms: the server prices it.
    await child.getByRole('textbox', { name: 'Medical notes' }).fill('None');
    await shows(page.getByTestId('enrolment-summary').getByText(/trial on/), 'the trial in the summary');
    const total = page.getByTestId('price-total');
    await expect
      .poll(() => total.textContent().catch(() => null), { timeout: UI_TIMEOUT, interval: 100 })
      .toMatch(/^\$\d+\.\d\d$/);
    await page.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
    expect(await page.getByRole('alert').count(), 'no error on the form').toBe(0);
    const amount = (await total.textContent()) ?? '';
    await scrollToTop(page);
    await shot('4-checkout', { fullPage: true });

    // The test provider's card page: a declined card says so and stays; the next card pays.
    await page.getByRole('button', { name: 'Confirm Payment' }).click();
    await expectCardPage(page, amount);
    await payWith(page, testCards.declined);
    await shows(page.getByRole('alert').filter({ hasText: 'Your card was declined.' }), 'the decline');
    expect(await page.getByRole('alert').textContent()).toBe('Your card was declined.');
    await shot('5-declined');
    await payWith(page, testCards.pays);
    // The return address names the purchase (the confirmation reads it from there).
    await expect
      .poll(() => page.url(), { timeout: UI_TIMEOUT, interval: 100 })
      .toContain(`${formPath()}&status=true&purchase=`);
    await shows(page.getByRole('heading', { name: 'Enrolment confirmed!' }), 'the confirmation');
    const places = page.getByTestId('confirmation-places');
    await shows(places.getByText(`${firstName} Parent: Kinder Gym`, { exact: false }), 'the trial place');
    expect(await places.textContent()).toContain('Trial');
    await shot('6-confirmed');

    // The parent's Enrolments list has it, confirmed.
    const token = await storedToken(page);
    const mine = await apiOk<{ purchases: { status: string; children: string[] }[] }>(
      'GET',
      '/api/v1/students/enrolments',
      { token },
    );
    expect(mine.purchases.find((p) => p.children.includes(firstName))?.status).toBe('confirmed');
    await page.getByRole('link', { name: 'My enrolments' }).click();
    await expectAt(page, '/admin/students/registrations');
    await shows(
      page.getByRole('article').filter({ hasText: firstName }).first(),
      'the enrolment in the list',
    );
    await shot('7-enrolments');
  }, 180_000);
});
