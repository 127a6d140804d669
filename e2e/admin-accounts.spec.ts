import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  goViaSidebar,
  input,
  notified,
  openSidebar,
  signInAsStaff,
  topShot,
  writePng,
} from './support/admin.ts';
import { apiInviteStaff, apiSignIn, linkTo, uniqueEmail, uniquePassword } from './support/api.ts';
import { waitForMail } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import {
  bothViewports,
  expectAt,
  staffViewport,
  UI_TIMEOUT,
  useBrowser,
  usePage,
} from './support/harness.ts';
import { field, shows, sidebar, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/** Opens the top bar's Account Settings menu and answers its entries. */
async function accountSettings(page: Page): Promise<string[]> {
  await page.getByRole('banner').getByRole('button', { name: 'Account Settings' }).click();
  const menu = page.getByRole('menu');
  await shows(menu.getByRole('menuitem').first(), 'the Account Settings menu');
  return (await menu.getByRole('menuitem').allInnerTexts()).map((t) => t.trim());
}

/** The company logo in the sidebar: an <img> once a logo is set (the initials otherwise). */
function sidebarLogo(page: Page) {
  return sidebar(page).getByRole('img', { name: `${company().name} logo` });
}

describe.each(staffViewport)('admin accounts (%s)', (viewport) => {
  const fixture = usePage('admin-accounts', viewport, browser);

  it('My Company: the phone is saved, a logo is uploaded to the sidebar and removed again', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const phone = `02 9${randomInt(100, 999)} ${randomInt(1000, 9999)}`;

    await signInAsStaff(page);
    expect(await accountSettings(page)).toEqual(['My Account', 'My Company', 'Users']);
    await page.getByRole('menuitem', { name: 'My Company' }).click();
    await expectAt(page, '/admin/my-company');
    await shows(page.getByRole('heading', { level: 1, name: 'My Company' }), 'the My Company page');
    const details = page.getByRole('form', { name: 'Company details' });
    await shows(input(details, 'Company name'), 'the company form');
    expect(await input(details, 'Company name').inputValue()).toBe(company().name);

    // The phone: saved, and still there after a reload.
    await input(details, 'Phone').fill(phone);
    await details.getByRole('button', { name: 'Save' }).click();
    await notified(page, 'The company settings have been saved.');
    await shot('company-saved');
    await page.reload();
    await expect
      .poll(() => field(page, 'Phone').inputValue(), { timeout: UI_TIMEOUT, interval: 100 })
      .toBe(phone);

    // A logo: shown on the page and in the sidebar (from /rest/acl).
    expect(await sidebarLogo(page).count()).toBe(0);
    await page.locator('input[type="file"]').setInputFiles(writePng());
    const pageLogo = page.getByRole('main').getByRole('img', { name: `${company().name} logo` });
    await shows(pageLogo, 'the logo on the page');
    await shows(page.getByRole('button', { name: 'Replace logo' }), "'Replace logo'");
    await expect.poll(() => sidebarLogo(page).count(), { timeout: UI_TIMEOUT, interval: 100 }).toBe(1);
    const src = await sidebarLogo(page).getAttribute('src');
    expect(src).toMatch(/^\/api\/v1\/files\/public\/\d+\/.+\.png$/);
    expect(await pageLogo.getAttribute('src')).toBe(src);
    // The image really loads (a broken file would show the initials instead).
    await expect
      .poll(() => sidebarLogo(page).evaluate((img) => (img as HTMLImageElement).naturalWidth), {
        timeout: UI_TIMEOUT,
        interval: 100,
      })
      .toBe(32);
    await shot('logo-uploaded');

    // Removed: the sidebar goes back to the initials, and the file is gone.
    await page.getByRole('button', { name: 'Remove logo' }).click();
    await shows(page.getByText('No logo', { exact: true }), "'No logo'");
    await expect.poll(() => sidebarLogo(page).count(), { timeout: UI_TIMEOUT, interval: 100 }).toBe(0);
    await shows(page.getByRole('button', { name: 'Upload logo' }), "'Upload logo'");
    expect((await page.request.get(src!)).status()).toBe(404);
    await shot('logo-removed');
  });

  it('a coach, invited by mail, reads events but cannot add them, manage users or the company', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const email = uniqueEmail('coach', viewport);
    const password = uniquePassword('coach');

    const adminToken = await apiSignIn(company().admin.email, company().admin.password);
    await apiInviteStaff(adminToken, { full_name: `Casey Coach ${viewport}`, email, role: 'companycoach' });
    const mail = await waitForMail(email, 'invited');
    await page.goto(linkTo(mail.links, '/admin/reset-password'));
    // An invitation sets a first password: "Set your password", not "Reset".
    await shows(page.getByRole('heading', { name: 'Set your password' }), "'Set your password'");
    expect(await page.getByText('Reset your password').count()).toBe(0);
    await field(page, 'Password').fill(password);
    await field(page, 'Confirm password').fill(password);
    await shot('set-password');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expectAt(page, '/admin/login');
    await submitSignIn(page, email, password);
    // A coach lands on the day's roll (decision 012); a coach with no coach profile sees no sessions.
    await expectAt(page, '/admin/roll');

    // The sidebar: the Roll (its Classes group is open on the roll; Events is reached below), no Users.
    const nav = await openSidebar(page, viewport);
    await shows(nav.getByRole('link', { name: 'Roll', exact: true }), 'Roll in the sidebar');
    expect(await nav.getByRole('link', { name: 'Users', exact: true }).count()).toBe(0);
    await shot('coach-sidebar');

    // Account Settings: My Account only.
    expect(await accountSettings(page)).toEqual(['My Account']);
    await shot('coach-account-settings');
    await page.keyboard.press('Escape');

    // Events, read-only: rows and their view icons, but no Add, Edit or Archive.
    await goViaSidebar(page, viewport, 'Events', '/admin/events');
    const events = page.getByRole('table', { name: 'Events' });
    await shows(
      events.getByRole('link', { name: 'Summer Gymnastics Holiday Camp', exact: true }),
      "the company's camp",
    );
    expect(await page.getByRole('link', { name: 'Add event' }).count()).toBe(0);
    expect(await events.getByRole('link', { name: /^View event / }).count()).toBeGreaterThan(0);
    expect(await events.getByRole('link', { name: /^Edit event / }).count()).toBe(0);
    expect(await events.getByRole('button', { name: /^Archive event / }).count()).toBe(0);
    const bar = page.getByRole('toolbar', { name: 'Actions' });
    expect(await bar.getByRole('button', { name: 'Archive' }).count()).toBe(0);
    expect(await bar.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    await shot('coach-events');

    // Nor does the add form open for them.
    await page.goto('/admin/events/add');
    await shows(page.getByText('You cannot add events.', { exact: true }), 'the refusal');
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await expectAt(page, '/admin/events/add');
  });
});

/** The outbox is a table on a desktop and one card per mail on a phone: this journey runs at both widths. */
describe.each(bothViewports)('admin accounts, users and the outbox (%s)', (viewport) => {
  const fixture = usePage('admin-accounts', viewport, browser);

  it('Users: an invitation adds the user and its mail reaches SMTP; the Outbox shows it sent', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const email = uniqueEmail('invited', viewport);
    const fullName = `Sam Staff ${viewport}`;

    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Users', '/admin/users');
    await page.getByRole('button', { name: 'Invite user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a user' });
    await shows(dialog, 'the invitation form');
    await input(dialog, 'Full name').fill(fullName);
    await input(dialog, 'Email address').fill(email);
    expect(await dialog.getByLabel(/^Role\s*\*?$/).inputValue()).toBe('Staff');
    await shot('invite-form');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await notified(page, `An invitation has been sent to ${email}.`);
    await dialog.waitFor({ state: 'hidden' });

    const user = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: email });
    await shows(user, `the new user ${email} in the list`);
    expect((await user.getByRole('cell').allTextContents()).slice(0, 5).map((t) => t.trim())).toEqual([
      fullName,
      email,
      'Staff',
      // Invited, not yet signed in: not "Active".
      'Invited',
      'Never',
    ]);
    await shot('user-invited');

    const mail = await waitForMail(email, 'invited');
    expect(mail.subject).toBe(`You have been invited to ${company().name}`);
    linkTo(mail.links, '/admin/reset-password');

    // The outbox lists it; with SMTP configured it was sent, not kept.
    await goViaSidebar(page, viewport, 'Outbox', '/admin/mail');
    // A desktop shows a table; a phone shows one card per mail.
    const phone = viewport === 'phone';
    const sent = (
      phone
        ? page.getByRole('list', { name: 'Outbox' }).getByRole('listitem')
        : page.getByRole('table', { name: 'Outbox' }).getByRole('row')
    ).filter({ hasText: email });
    await shows(sent, 'the invitation in the outbox');
    expect(await sent.getByRole('link', { name: mail.subject }).count()).toBe(1);
    const statusOf = async () =>
      phone
        ? (await sent.getByText(/^(pending|sent|kept|failed)$/).textContent())?.trim()
        : ((await sent.getByRole('cell').nth(2).textContent()) ?? '').trim();
    await expect
      .poll(
        async () => {
          const status = await statusOf();
          if (status !== 'sent') await page.reload();
          return status;
        },
        { timeout: UI_TIMEOUT, interval: 500 },
      )
      .toBe('sent');
    await shot('outbox');
  });
});
