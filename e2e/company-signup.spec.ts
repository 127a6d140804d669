import { describe, expect, it } from 'vitest';
import { linkTo, storedToken, uniqueEmail, uniquePassword } from './support/api.ts';
import { waitForMail } from './support/browser.ts';
import { useCompany } from './support/company.ts';
import { expectAt, staffViewport, useBrowser, usePage } from './support/harness.ts';
import { specText } from './support/spec-text.ts';
import { expectSignInRefused, field, shows, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
useCompany();

describe.each(staffViewport)('company signup (%s)', (viewport) => {
  const fixture = usePage('company-signup', viewport, browser);

  it('signup → activation mail → activation link → sign in; the link works once', async () => {
    const { page, shot } = fixture();
    const email = uniqueEmail('owner', viewport);
    const password = uniquePassword('owner');
    const companyName = `Leap Gym ${viewport} ${Date.now().toString(36)}`;

    await page.goto('/admin/company/signup');
    await shows(page.getByRole('heading', { name: 'Create your company account' }), 'the signup heading');
    await field(page, 'Company name').fill(companyName);
    await field(page, 'Your full name').fill('Olive Owner');
    await field(page, 'Email address').fill(email);
    await field(page, 'Password').fill(password);
    await shot('form');
    await page.getByRole('button', { name: 'Create account' }).click();

    const info = page.getByRole('status');
    await shows(info.getByText('Check your email'), 'the info title');
    expect(await info.textContent()).toContain(
      `We have sent an activation link to ${email}. Open it to confirm your email address; we will notify you when your account is active.`,
    );
    expect(await page.getByRole('button', { name: 'Create account' }).count()).toBe(0);
    await shot('check-email');

    // Not active yet: signing in is refused until the email is confirmed.
    await page.goto('/admin/login');
    await submitSignIn(page, email, password);
    await expectSignInRefused(page);
    await shot('not-yet-active');

    const mail = await waitForMail(email, 'Activate');
    expect(mail.subject).toBe(`Activate your ${companyName} account`);
    const link = linkTo(mail.links, '/admin/activate');
    await page.goto(link);
    await expectAt(page, '/admin/login?activation=1');
    const note = page.getByRole('status').filter({ hasText: specText.activationConfirmed });
    await shows(note, 'the activation note');
    await shot('activated');

    // Confirmed, the company waits for an operator's approval (e2e/operator.spec.ts approves one).
    await submitSignIn(page, email, password);
    await shows(
      page.getByRole('alert').filter({ hasText: 'Your company is waiting for approval.' }),
      'the waiting-for-approval message',
    );
    expect(await storedToken(page)).toBeNull();
    await shot('waiting-for-approval');

    // The activation link works once.
    await page.goto(link);
    const invalid = page.getByRole('alert').filter({ hasText: specText.activationInvalid });
    await shows(invalid, 'the invalid activation message');
    expect((await invalid.textContent())?.trim()).toBe(specText.activationInvalid);
    expect(location(page.url())).toBe('/admin/activate');
    await shot('link-reused');
  });

  it('a made-up activation link says it is invalid', async () => {
    const { page, shot } = fixture();
    await page.goto('/admin/activate?hashcode=nonsense');
    const invalid = page.getByRole('alert').filter({ hasText: specText.activationInvalid });
    await shows(invalid, 'the invalid activation message');
    expect((await invalid.textContent())?.trim()).toBe(specText.activationInvalid);
    await shot('link-invalid');
  });

  it('staff passwords need 12 characters', async () => {
    const { page, shot } = fixture();
    await page.goto('/admin/company/signup');
    await field(page, 'Company name').fill('Short Password Gym');
    await field(page, 'Your full name').fill('Sho Rt');
    await field(page, 'Email address').fill(uniqueEmail('short', viewport));
    await field(page, 'Password').fill('elevenchars');
    await page.getByRole('button', { name: 'Create account' }).click();
    await shows(page.getByText('Password must be at least 12 characters.'), 'the password-length message');
    expect(await field(page, 'Password').getAttribute('aria-invalid')).toBe('true');
    await shot('short-password');
  });
});

function location(url: string): string {
  return new URL(url).pathname;
}
