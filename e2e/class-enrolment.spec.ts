import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { storedToken } from './support/api.ts';
import { apiOk, expectCardPage, fillNewChild, payWith, scrollToTop, testCards } from './support/booking.ts';
import { bothViewports, expectAt, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { demo } from './support/spec-text.ts';
import { shows, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
const formPath = `/registration/?f=term-classes&authhash=${demo.authhash}`;

/** DD/MM/YYYY of a child who is three and a half today: Kinder Gym's age (2 to 5), not Ninja Kids' (6+). */
function threeAndAHalf(): string {
  const born = new Date();
  born.setUTCMonth(born.getUTCMonth() - 42);
  const dd = String(born.getUTCDate()).padStart(2, '0');
  const mm = String(born.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${born.getUTCFullYear()}`;
}

describe.each(bothViewports)('class enrolment (%s)', (viewport) => {
  const fixture = usePage('class-enrolment', viewport, browser);

  it('a parent finds a class by age, books a trial and pays with the test card', async () => {
    const { page, shot } = fixture();
    const firstName = `Kit${viewport === 'desktop' ? 'Desk' : 'Phone'}${randomBytes(3).toString('hex')}`;

    // Signed out, the registration form sends the parent to sign in and back.
    await page.goto(formPath);
    await shows(page.getByRole('heading', { name: 'Parent Sign In' }), 'the parent sign-in page');
    await submitSignIn(page, demo.parent.email, demo.parent.password);
    await expectAt(page, formPath);
    await shows(page.getByRole('heading', { level: 1, name: 'Term classes' }), 'the form');
    await shot('1-form');

    // A new three-year-old: the finder lists Kinder Gym classes for their age, never Ninja Kids.
    const child = page.getByRole('region', { name: 'Child 1', exact: true });
    await fillNewChild(child, { firstName, lastName: 'Parent', dob: threeAndAHalf() });
    const classes = child.getByRole('list', { name: `Classes for ${firstName}` });
    await shows(classes, 'the class finder');
    const kinder = classes.getByRole('listitem').filter({ hasText: 'Kinder Gym' });
    await shows(kinder.first(), 'a Kinder Gym class');
    expect(await classes.getByRole('listitem').filter({ hasText: 'Ninja Kids' }).count()).toBe(0);
    const withTrial = kinder.filter({ has: page.getByRole('button', { name: /^Book a trial/ }) }).first();
    await shows(withTrial, 'a class offering a trial');
    expect(await withTrial.textContent()).toMatch(/\d+ places? left/);
    await shot('2-finder');

    // The trial, the required question, the terms: the server prices it.
    await withTrial.getByRole('button', { name: /^Book a trial/ }).click();
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
    await shot('3-checkout', { fullPage: true });

    // The test provider's card page, then back to the confirmation with the session.
    await page.getByRole('button', { name: 'Confirm Payment' }).click();
    await expectCardPage(page, amount);
    await shot('4-card');
    await payWith(page, testCards.pays);
    await expectAt(page, `${formPath}&status=true`);
    await shows(page.getByRole('heading', { name: 'Enrolment confirmed!' }), 'the confirmation');
    const places = page.getByTestId('confirmation-places');
    await shows(places.getByText(`${firstName} Parent: Kinder Gym`, { exact: false }), 'the trial place');
    expect(await places.textContent()).toContain('Trial');
    await shot('5-confirmed');

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
    await shot('6-enrolments');
  }, 180_000);
});
