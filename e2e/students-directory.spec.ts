import { describe, expect, it } from 'vitest';
import { goViaSidebar, notified, signInAsStaff } from './support/admin.ts';
import { useCompany } from './support/company.ts';
import { bothViewports, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows } from './support/ui.ts';

/**
 * The staff Students screens: staff search the company's children by their parent's name,
 * open Ruby Walker's screen (seed/classes-demo.ts: Tom Walker's daughter, in Kinder Gym, with a
 * peanut allergy in her medical notes) and save her school.
 */

const browser = useBrowser();
useCompany();

describe.each(bothViewports)('staff Students screen (%s)', (viewport) => {
  const fixture = usePage('students-directory', viewport, browser);

  it('staff search a demo child by the parent’s name and open the child’s screen', async () => {
    const { page, shot } = fixture();
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Students', '/admin/students');
    const box = page.getByRole('searchbox', { name: 'Search students' });
    await box.fill('tom walker');
    await box.press('Enter');
    await expect
      .poll(() => new URL(page.url()).searchParams.get('q'), { timeout: 15_000, interval: 100 })
      .toBe('tom walker');
    const students = page.getByRole('table', { name: 'Students' });
    await shows(students.getByRole('link', { name: 'Ruby Walker', exact: true }), 'Ruby in the results');
    await shows(students.getByRole('link', { name: 'Jack Walker', exact: true }), 'Jack in the results');
    // The earlier page stays while the search loads: wait for Tom Walker's two children alone.
    await expect.poll(() => students.getByRole('row').count(), { timeout: 15_000, interval: 100 }).toBe(3);
    await shows(page.getByText('2 children', { exact: true }), 'the count');
    await expectFitsWidth(page);
    await shot('1-search');

    await students.getByRole('link', { name: 'Ruby Walker', exact: true }).click();
    await expect
      .poll(() => new URL(page.url()).pathname, { timeout: 15_000, interval: 100 })
      .toMatch(/^\/admin\/students\/\d+$/);
    await shows(page.getByRole('heading', { level: 1, name: 'Ruby Walker' }), 'Ruby’s screen');
    await shows(page.getByText('Tom Walker', { exact: true }), 'her family');
    await shows(page.getByRole('link', { name: 'Jack Walker' }), 'her brother');
    await shows(page.getByRole('link', { name: 'Family account' }), 'the family account link');
    await shows(page.getByRole('heading', { name: 'Classes and attendance' }), 'the classes');
    await shows(page.getByText(/Peanut allergy/).first(), 'her medical notes');
    await expectFitsWidth(page);
    await shot('2-child');

    const school = page.getByRole('textbox', { name: 'School' });
    await school.fill('Bondi Public School');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await notified(page, 'Ruby’s details have been saved.');
    await page.reload();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'School' }).inputValue())
      .toBe('Bondi Public School');
    await page.getByRole('heading', { name: 'Profile' }).scrollIntoViewIfNeeded();
    await shot('3-profile-saved');

    await page.getByRole('link', { name: 'Family account' }).click();
    await expect
      .poll(() => new URL(page.url()).pathname, { timeout: 15_000, interval: 100 })
      .toMatch(/^\/admin\/parents\/\d+\/family-account$/);
  });
});
