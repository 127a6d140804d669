import { describe, expect, it } from 'vitest';
import { baseUrl } from './support/browser.ts';
import { useCompany } from './support/company.ts';
import { expectAt, staffViewport, useBrowser, usePage } from './support/harness.ts';
import { specText } from './support/spec-text.ts';
import { field, shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

describe('foundation: health', () => {
  it('GET /api/health answers 200 with the database up', async () => {
    const response = await fetch(`${baseUrl()}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'up' });
  });
});

describe.each(staffViewport)('foundation pages (%s)', (viewport) => {
  const fixture = usePage('foundation', viewport, browser);

  it('/admin/login renders the sign-in form with a link to the forgotten password page', async () => {
    const { page, shot } = fixture();
    await page.goto('/admin/login');

    await shows(page.getByRole('heading', { name: 'Sign In' }), 'the Sign In heading');
    const email = field(page, 'Email address');
    const password = field(page, 'Password');
    expect(await email.getAttribute('type')).toBe('email');
    expect(await password.getAttribute('type')).toBe('password');
    expect(await email.isVisible()).toBe(true);
    expect(await password.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign In', exact: true }).isVisible()).toBe(true);
    // No activation note without activation=1.
    expect(await page.getByText(specText.activationConfirmed).count()).toBe(0);
    await shot('login');

    // Both fields are required: the form says so instead of calling the server.
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await shows(page.getByText('Email address is required.'), 'the required email message');
    await shows(page.getByText('Password is required.'), 'the required password message');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    await shot('login-required');

    const forgotten = page.getByRole('link', { name: 'Forgot your password?' });
    expect(await forgotten.getAttribute('href')).toBe('/admin/forgotten-password');
    await forgotten.click();
    await expectAt(page, '/admin/forgotten-password');
    await shows(page.getByRole('heading', { name: 'Forgot your password?' }), 'the forgotten password page');
    await shows(field(page, 'Email address'), 'the email field');
    await shot('forgotten-password');
  });

  it("/admin/login?activation=1 shows SPEC's confirmation note above the form", async () => {
    const { page, shot } = fixture();
    await page.goto('/admin/login?activation=1');

    const note = page.getByRole('status').filter({ hasText: specText.activationConfirmed });
    await shows(note, 'the activation note');
    expect((await note.textContent())?.trim()).toBe(specText.activationConfirmed);
    expect(await page.getByRole('button', { name: 'Sign In', exact: true }).isVisible()).toBe(true);
    await shot('login-activated');
  });

  it('an unknown path shows the not-found page', async () => {
    const { page, shot } = fixture();
    await page.goto('/no/such/page-here');

    await shows(page.getByRole('heading', { name: 'Page not found' }), 'the not-found heading');
    await shows(page.getByText('404', { exact: true }), 'the 404');
    expect(await page.title()).toBe('Page not found · Tumble');
    expect(new URL(page.url()).pathname).toBe('/no/such/page-here');
    await shot('not-found');

    // An unknown admin path outside the signed-in area is just as unknown.
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expectAt(page, '/admin/login');
  });

  it('/admin when logged out lands on /admin/login', async () => {
    const { page, shot } = fixture();
    await page.goto('/admin');

    await expectAt(page, '/admin/login');
    await shows(page.getByRole('button', { name: 'Sign In', exact: true }), 'the sign-in form');
    await shot('admin-logged-out');

    // A signed-in page sends the visitor to sign in and back afterwards.
    await page.goto('/admin/dashboard');
    await expectAt(page, '/admin/login?redirect=%2Fadmin%2Fdashboard');
    await shows(page.getByRole('button', { name: 'Sign In', exact: true }), 'the sign-in form');
  });

  it("/api/docs renders the API reference titled 'Tumble API'", async () => {
    const { page, shot } = fixture();
    const response = await page.goto('/api/docs');
    expect(response?.status()).toBe(200);

    await shows(page.getByRole('heading', { name: /^Tumble API/ }), "the 'Tumble API' title");
    // The operations come from the OpenAPI document the server generates.
    await shows(page.getByText('/api/health', { exact: true }).first(), 'the health operation');
    await shows(page.getByText('/rest', { exact: true }).first(), 'the sign-in operation');
    // The reference is thousands of pixels long: the first screen is what tells it rendered.
    await shot('api-docs', { fullPage: false });
  });
});
