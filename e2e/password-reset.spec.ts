import { describe, expect, it } from 'vitest';
import {
  apiInviteStaff,
  apiSignIn,
  linkTo,
  storedToken,
  uniqueEmail,
  uniquePassword,
} from './support/api.ts';
import { waitForMail } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import type { PageFixture } from './support/harness.ts';
import { expectAt, staffViewport, useBrowser, usePage } from './support/harness.ts';
import { specText } from './support/spec-text.ts';
import { expectSignInRefused, field, shows, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/**
 * The journeys change a password, so each uses a staff member of its own: the company's
 * administrator invites them through the API and the invitation mail (a reset link) sets their
 * first password.
 */
describe.each(staffViewport)('password reset (%s)', (viewport) => {
  const fixture = usePage('password-reset', viewport, browser);

  /**
   * Opens a reset link, checks the form and chooses `password`; ends on /admin/login. An
   * invitation's link says "Set your password" (issue 21: the invited have no password to reset).
   */
  async function chooseNewPassword(
    { page, shot }: PageFixture,
    link: string,
    password: string,
    step: 'invitation' | 'reset',
  ) {
    const words =
      step === 'invitation'
        ? {
            heading: 'Set your password',
            password: 'Password',
            confirm: 'Confirm password',
            button: 'Set Password',
          }
        : {
            heading: 'Reset your password',
            password: 'New password',
            confirm: 'Confirm new password',
            button: 'Reset Password',
          };
    await page.goto(link);
    await shows(page.getByRole('heading', { name: words.heading }), `the ${step} page`);
    await shows(field(page, words.password), 'the password field');
    expect(await field(page, words.password).getAttribute('name')).toBe('password');
    expect(await field(page, words.confirm).getAttribute('name')).toBe('password2');
    await shot(`${step}-form`);

    await field(page, words.password).fill(password);
    await field(page, words.confirm).fill(password);
    await page.getByRole('button', { name: words.button }).click();
    await expectAt(page, '/admin/login');
    await shows(
      page.getByText('Your password has been changed. Please sign in.'),
      'the password-changed notice',
    );
    await shot(`${step}-done`);
  }

  async function signInAndOut({ page }: PageFixture, email: string, password: string) {
    await submitSignIn(page, email, password);
    await expectAt(page, '/admin/dashboard');
    await shows(
      page.getByRole('main').getByText(`Welcome, ${fullName}`, { exact: false }),
      'the welcome line',
    );
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    await expectAt(page, '/admin/login');
    expect(await storedToken(page)).toBeNull();
  }

  const fullName = `Robin Reset ${viewport}`;

  it('invitation → first password → forgotten password → mail → new password → sign in', async () => {
    const f = fixture();
    const { page, shot } = f;
    const email = uniqueEmail('staff', viewport);
    const firstPassword = uniquePassword('first');
    const newPassword = uniquePassword('second');

    // The administrator invites a staff member; the invitation mail links to the reset page.
    const adminToken = await apiSignIn(company().admin.email, company().admin.password);
    await apiInviteStaff(adminToken, { full_name: fullName, email, role: 'companystaff' });
    const invitation = await waitForMail(email, 'invited');
    expect(invitation.subject).toBe(`You have been invited to ${company().name}`);
    const invitationLink = linkTo(invitation.links, '/admin/reset-password');
    await chooseNewPassword(f, invitationLink, firstPassword, 'invitation');
    await signInAndOut(f, email, firstPassword);

    // Forgotten password, from the sign-in page's link.
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expectAt(page, '/admin/forgotten-password');
    await field(page, 'Email address').fill(email);
    await shot('forgotten');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const confirmation = page.getByRole('status');
    await shows(confirmation, 'the confirmation message');
    expect((await confirmation.textContent())?.trim()).toBe(
      'If an account exists for this email address, we have sent a link to reset its password.',
    );
    expect(await page.getByRole('button', { name: 'Send reset link' }).count()).toBe(0);
    await shot('forgotten-sent');

    const mail = await waitForMail(email, 'Reset');
    expect(mail.subject).toBe(`Reset your ${company().name} password`);
    const resetLink = linkTo(mail.links, '/admin/reset-password');
    expect(resetLink).not.toBe(invitationLink);
    await chooseNewPassword(f, resetLink, newPassword, 'reset');

    // The new password works, the old one no longer does.
    await signInAndOut(f, email, newPassword);
    await submitSignIn(page, email, firstPassword);
    await expectSignInRefused(page);
    await expectAt(page, '/admin/login');
    await shot('old-password-refused');

    // Each link works once.
    for (const [link, step] of [
      [resetLink, 'reused-reset-link'],
      [invitationLink, 'reused-invitation-link'],
    ] as const) {
      await page.goto(link);
      const message = page.getByRole('alert').filter({ hasText: specText.resetLinkInvalid });
      await shows(message, `the invalid-link message for the ${step}`);
      expect((await message.textContent())?.trim()).toBe(specText.resetLinkInvalid);
      expect(await page.locator('input[type=password]').count()).toBe(0);
      await shot(step);
    }
  });

  it('a made-up reset link shows the invalid-link message and no form', async () => {
    const { page, shot } = fixture();
    await page.goto('/admin/reset-password?hashcode=nonsense');

    const message = page.getByRole('alert').filter({ hasText: specText.resetLinkInvalid });
    await shows(message, 'the invalid-link message');
    expect((await message.textContent())?.trim()).toBe(specText.resetLinkInvalid);
    expect(await field(page, 'New password').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Reset Password' }).count()).toBe(0);
    await shot('nonsense-link');

    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await expectAt(page, '/admin/login');
  });

  it('a forgotten-password request for an unknown address answers the same and sends nothing', async () => {
    const { page, shot } = fixture();
    const email = uniqueEmail('nobody', viewport);
    await page.goto('/admin/forgotten-password');
    await field(page, 'Email address').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();

    const confirmation = page.getByRole('status');
    await shows(confirmation, 'the confirmation message');
    expect((await confirmation.textContent())?.trim()).toBe(
      'If an account exists for this email address, we have sent a link to reset its password.',
    );
    await shot('unknown-address');
    await expect(waitForMail(email, 'Reset', 1_500)).rejects.toThrow(/no mail/);
  });
});
