import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiSearch, notified, signInAsStaff, topShot, uniqueTag } from './support/admin.ts';
import { apiSignIn, linkTo, uniqueEmail } from './support/api.ts';
import { apiOk } from './support/booking.ts';
import { type ViewportName, waitForMail } from './support/browser.ts';
import { closeNotifications } from './support/classes.ts';
import { company, useCompany } from './support/company.ts';
import {
  bothViewports,
  expectAt,
  staffViewport,
  UI_TIMEOUT,
  useBrowser,
  usePage,
} from './support/harness.ts';
import { shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/** Two of the company's classes (seed/classes-demo.ts): Ninja Kids per session, Recreational Gymnastics a term. */
const from = 'Ninja Kids Tuesday';
const to = 'Recreational Gymnastics Thursday';

/** A child's line: a table row on a computer, a card on a phone. */
function childLine(page: Page, viewport: ViewportName, name: string): Locator {
  return viewport === 'phone'
    ? page.locator('.mantine-Card-root').and(page.getByLabel(name, { exact: true }))
    : page.getByRole('row').filter({ hasText: name });
}

/** The id of one of the company's classes by its exact name. */
async function classId(token: string, name: string): Promise<number> {
  const rows = (await apiSearch(token, 'term-classes', name)).filter((r) => r.name === name);
  expect(rows, name).toHaveLength(1);
  return rows[0]!.id;
}

// The students screen is a table on a computer and cards on a phone: both widths.
describe.each(bothViewports)('class students (%s)', (viewport) => {
  const fixture = usePage('class-students', viewport, browser);

  it('staff enrol a child from the next session, transfer them to another class and withdraw them', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const tag = uniqueTag(viewport).replace(/[^A-Za-z]/g, '');
    const child = { first: `Robin${tag}`, last: 'Enrol' };
    const name = `${child.first} ${child.last}`;

    // The parent adds a child of their own (each width its own, so the two runs never meet).
    const parent = await apiSignIn(company().parent.email, company().parent.password, company().authhash);
    await apiOk('POST', '/api/v1/students/children', {
      token: parent,
      body: { first_name: child.first, last_name: child.last, dob: '2017-05-01' },
    });
    const admin = await apiSignIn(company().admin.email, company().admin.password);
    const [fromId, toId] = [await classId(admin, from), await classId(admin, to)];

    await signInAsStaff(page);
    await page.goto(`/admin/term-classes/${fromId}/class-students`);
    await shows(page.getByRole('heading', { level: 1, name: `${from}: students` }), 'the students screen');
    await shows(page.getByText(/places left/), 'the places left');
    await shot('list');

    // Enrol: find the child by name; the start is the next session.
    const box = page.getByRole('combobox', { name: 'Child', exact: true });
    await box.click();
    await box.fill(child.first);
    await page.getByRole('option').filter({ hasText: name }).click();
    await page.getByRole('button', { name: 'Enrol', exact: true }).click();
    await notified(page, `${name} is enrolled from`);
    const line = childLine(page, viewport, name);
    await shows(line, `${name} in the list`);
    await expect.poll(() => line.textContent(), { timeout: UI_TIMEOUT }).toContain('Active');
    await shot('enrolled');
    await closeNotifications(page);

    // Transfer to the term class from the next session.
    await line.getByRole('button', { name: 'Transfer' }).click();
    const dialog = page.getByRole('dialog', { name: `Transfer ${name}` });
    await shows(dialog, 'the transfer dialog');
    const target = dialog.getByRole('combobox', { name: 'To class', exact: true });
    await target.click();
    await target.fill(to);
    await page.getByRole('option', { name: to, exact: true }).click();
    await shot('transfer');
    await dialog.getByRole('button', { name: 'Transfer', exact: true }).click();
    await notified(page, `${name} moves to ${to} from`);
    await expect
      .poll(() => line.textContent(), { timeout: UI_TIMEOUT })
      .toMatch(/(Withdrawnfrom|leaves) \d\d\/\d\d\/\d{4}/);
    await closeNotifications(page);

    // Withdraw from the new class: the sessions not run are credited (the company's policy: credit).
    await page.goto(`/admin/term-classes/${toId}/class-students`);
    await shows(page.getByRole('heading', { level: 1, name: `${to}: students` }), 'the other class');
    const moved = childLine(page, viewport, name);
    await shows(moved, `${name} in ${to}`);
    await moved.getByRole('button', { name: 'Withdraw' }).click();
    const withdraw = page.getByRole('dialog', { name: `Withdraw ${name}` });
    await shows(withdraw, 'the withdraw dialog');
    await withdraw.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await notified(page, `${name} is withdrawn from`);
    await expect.poll(() => moved.textContent(), { timeout: UI_TIMEOUT }).toMatch(/Withdrawn|leaves/);
    await shot('withdrawn');
    await closeNotifications(page);

    // What the changes left owing, for the office.
    await page.goto('/admin/class-payments');
    await shows(page.getByRole('heading', { level: 1, name: 'Credits and refunds due' }), 'the credits list');
    await shows(page.getByText(name).first(), `${name} in the credits list`);
    await shot('credits');

    // The front desk's tablet (1024px wide): the same screen, still a table with its buttons in view.
    if (viewport === 'desktop') {
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.goto(`/admin/term-classes/${fromId}/class-students`);
      await shows(childLine(page, viewport, name), `${name} on the tablet`);
      await shot('tablet');
    }
  });
});

describe.each(staffViewport)('class students (%s)', (viewport) => {
  const fixture = usePage('class-students', viewport, browser);

  it('staff invite a family; the parent sets a password and lands on the registration form', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const email = uniqueEmail('family', viewport);
    await signInAsStaff(page);
    await page.goto('/admin/students/invite');
    await shows(page.getByRole('heading', { level: 1, name: 'Invite a family' }), 'the invitation form');
    await page.getByLabel('Full name').fill('Jordan Invited');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Phone').fill('0400 123 456');
    await page.getByRole('combobox', { name: 'Registration form' }).click();
    // The company's form by its name.
    await page.getByRole('option', { name: 'Term classes', exact: true }).click();
    await page.getByLabel('First name').fill('Kai');
    await page.getByLabel('Last name').fill('Invited');
    await page.getByLabel('Date of birth').fill('01/05/2018');
    await page.getByLabel('Date of birth').blur();
    await shot('invite');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await shows(page.getByText(`An invitation has been sent to ${email}.`), 'the invitation sent');

    // The same email again is refused with a clear message.
    await page.getByLabel('Full name').fill('Jordan Again');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('combobox', { name: 'Registration form' }).click();
    await page.getByRole('option', { name: 'Term classes', exact: true }).click();
    await page.getByLabel('First name').fill('Kai');
    await page.getByLabel('Last name').fill('Invited');
    await page.getByLabel('Date of birth').fill('01/05/2018');
    await page.getByLabel('Date of birth').blur();
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await shows(
      page.getByText('An account with this email address already exists in this company.').first(),
      'the refusal',
    );

    const mail = await waitForMail(email, 'Your family account');
    const link = linkTo(mail.links, '/admin/students/invite/accept');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.goto(link);
    await shows(page.getByText('Welcome, Jordan Invited.'), 'the welcome');
    await page.locator('input[name="password"]').fill('family password 1');
    await page.locator('input[name="password2"]').fill('family password 1');
    await shot('set-password');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expectAt(page, '/registration/');
    await expect.poll(() => new URL(page.url()).searchParams.get('f')).toBe('term-classes');
    await shot('landed');
  });
});
