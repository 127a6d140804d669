import { describe, expect, it } from 'vitest';
import { goViaSidebar, notified, signInAsStaff, toolbar, topShot, uniqueTag } from './support/admin.ts';
import { useCompany } from './support/company.ts';
import { bothViewports, expectAt, staffViewport, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, field, shows, signInAsParent } from './support/ui.ts';

const browser = useBrowser();
useCompany();

describe.each(bothViewports)("the parent's account (%s)", (viewport) => {
  const fixture = usePage('parent-account', viewport, browser);

  it('a parent adds a child, edits it, and changes their phone; the changes stay after a reload', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const first = `Ivy${uniqueTag(viewport).replace(' ', '')}`;

    await signInAsParent(page);
    await goViaSidebar(page, viewport, 'My Children', '/admin/students/children');
    await page.getByRole('link', { name: 'Add child' }).click();
    await expectAt(page, '/admin/students/children/add');
    // The form checks with the server's own schema: nothing is sent without the names.
    await page.getByRole('button', { name: 'Add child' }).click();
    await shows(page.getByText('Please enter the first name.'), 'the first-name message');

    await field(page, 'First name').fill(first);
    await field(page, 'Last name').fill('Parent');
    const dob = page.getByRole('textbox', { name: 'Date of birth' });
    await dob.fill('14/06/2019');
    await dob.press('Tab');
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Insurance' }).selectOption({ label: 'Daily insurance' });
    await page.getByRole('checkbox', { name: /I consent to photos/ }).check();
    await expectFitsWidth(page);
    await shot('add-child');
    await page.getByRole('button', { name: 'Add child' }).click();

    await expectAt(page, '/admin/students/children');
    const card = page.getByRole('article', { name: `${first} Parent` });
    await shows(card, 'the new child');
    expect(await card.textContent()).toContain('14/06/2019');
    expect(await card.textContent()).toContain('Daily insurance');
    expect(await card.textContent()).toContain('Photo consent given');

    await card.getByRole('link', { name: `Edit ${first} Parent` }).click();
    await shows(page.getByRole('heading', { level: 1, name: `Edit ${first}` }), 'the edit form');
    await field(page, 'Last name').fill('Parent-Lee');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectAt(page, '/admin/students/children');
    await page.reload();
    await shows(
      page.getByRole('article', { name: `${first} Parent-Lee` }),
      'the renamed child after a reload',
    );
    await expectFitsWidth(page);
    await shot('children');

    const phone = `04${String(Date.now()).slice(-8)}`;
    await goViaSidebar(page, viewport, 'My Profile', '/admin/students/profile');
    await field(page, 'Phone').fill(phone);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notified(page, 'Your details have been saved.');
    await page.reload();
    await expect.poll(() => field(page, 'Phone').inputValue()).toBe(phone);
    await shot('profile');
  });
});

// The audit log is a staff screen whose layout does not change with the width: at the desk's.
describe.each(staffViewport)('the staff audit log (%s)', (viewport) => {
  const fixture = usePage('parent-account', viewport, browser);

  it('a company administrator finds a staff change in the audit log, with before and after', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const name = `Audit venue ${uniqueTag(viewport)}`;

    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Venues', '/admin/venues');
    await toolbar(page).getByRole('link', { name: 'Add venue' }).click();
    await expectAt(page, '/admin/venues/add');
    await field(page, 'Name').fill(name);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notified(page, 'The venue has been saved.');

    await goViaSidebar(page, viewport, 'Audit log', '/admin/audit-log');
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.fill(name);
    await box.press('Enter');
    const entry = page.getByRole('row').filter({ hasText: name }).first();
    await shows(entry, 'the venue creation in the audit log');
    const text = (await entry.textContent()) ?? '';
    expect(text).toContain('create');
    expect(text).toContain('venues');
    expect(text).toContain(`name: — → ${name}`);
    await shot('audit-log');
  });
});
