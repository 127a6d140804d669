import { anomalyActions } from '@tumble/contracts/registration-forms';
import { beforeAll, describe, expect, it } from 'vitest';
import { goViaSidebar, signInAsStaff } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk } from './support/booking.ts';
import type { ViewportName } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/**
 * Each viewport's look-alike: the company's parent registers a "new" child with the name and date
 * of birth of a child the company already has (the Family household's), which the registration
 * checkout records as a possible duplicate for staff.
 */
const lookAlike: Record<ViewportName, { first_name: string; last_name: string; dob: string }> = {
  desktop: { first_name: 'Noah', last_name: 'Family', dob: '2016-05-14' },
  phone: { first_name: 'Ava', last_name: 'Family', dob: '2018-09-02' },
};
const detailOf = (child: { first_name: string; last_name: string; dob: string }) =>
  `${child.first_name} ${child.last_name} (born ${child.dob}) looks like a child the company already has.`;

/** The company's parent enrols the look-alike in a class for their age through the registration API. */
async function registerLookAlike(viewport: ViewportName) {
  const child = lookAlike[viewport];
  const token = await apiSignIn(company().parent.email, company().parent.password, company().authhash);
  const query = `f=term-classes&authhash=${company().authhash}`;
  const { classes } = await apiOk<{
    classes: { id: number; places_left: number; first_date: string | null }[];
  }>('GET', `/api/v1/registration/classes?${query}&dob=${child.dob}`, { token });
  const open = classes.find((c) => c.places_left > 0 && c.first_date !== null);
  expect(open, `a class with a place for a child born ${child.dob}`).toBeDefined();
  const selection = {
    f: 'term-classes',
    children: [{ ...child, consent: true }],
    choices: [{ child: 0, term_class_id: open!.id, kind: 'enrolled' }],
    answers: [{ medical_notes: 'None' }],
  };
  const quote = await apiOk<{ amount_due: number }>(
    'POST',
    `/api/v1/registration/quote?authhash=${company().authhash}`,
    {
      token,
      body: selection,
    },
  );
  await apiOk('POST', `/api/v1/registration/checkout?authhash=${company().authhash}`, {
    token,
    body: { ...selection, accept_terms: true, amount: quote.amount_due },
  });
}

describe.each(bothViewports)('registration anomalies (%s)', (viewport) => {
  const fixture = usePage('anomalies', viewport, browser);

  beforeAll(async () => {
    await registerLookAlike(viewport);
  }, 60_000);

  it('staff see the open anomalies and resolve a possible duplicate child with its one action', async () => {
    const { page, shot } = fixture();
    const detail = detailOf(lookAlike[viewport]);
    await signInAsStaff(page);
    // The dashboard counts what is open.
    await shows(page.getByText(/registrations? needs? a decision\./), 'the open anomalies on the dashboard');
    await shot('1-dashboard');

    await goViaSidebar(page, viewport, 'Registration anomalies', '/admin/registration-anomalies');
    const entry = (viewport === 'phone' ? page.getByRole('listitem') : page.getByRole('row')).filter({
      hasText: detail,
    });
    await shows(entry, 'the look-alike’s anomaly');
    await expect
      .poll(() => entry.textContent(), { timeout: UI_TIMEOUT })
      .toContain('Possible duplicate child');
    expect(await entry.textContent()).toContain('Pat Parent');
    // One action, named for its kind; merging records is not offered here yet (it says so).
    expect(await entry.getByRole('button').allTextContents()).toEqual([anomalyActions.not_same_child.label]);
    expect(await entry.textContent()).toContain('Merging the two records is not available yet');
    await shot('2-open', { fullPage: true });

    await entry.getByRole('button', { name: new RegExp(`^${anomalyActions.not_same_child.label}`) }).click();
    await shows(page.getByText(anomalyActions.not_same_child.done), 'the resolution notice');
    await expect.poll(() => entry.count(), { timeout: UI_TIMEOUT, interval: 100 }).toBe(0);
    await shot('3-resolved-notice');

    // Under Resolved it says who resolved it and when.
    await page
      .locator('label')
      .filter({ hasText: /^Resolved$/ })
      .click();
    await shows(entry, 'the resolved anomaly');
    await expect
      .poll(() => entry.textContent(), { timeout: UI_TIMEOUT, interval: 100 })
      .toContain(`Resolved by ${company().admin.fullName}`);
    expect(await entry.getByRole('button').count()).toBe(0);
    await shot('4-resolved-list', { fullPage: true });
  });
});
