import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AclResponse } from '@tumble/contracts/auth';
import { TOKEN_HEADER } from '@tumble/contracts/http';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const branding: AclResponse = {
  name: '',
  meta: { logo: null, role: null, is_company: false, company_id: 7, company_name: 'Bounce Gym' },
  navigation: { side: [], top: [] },
};

describe('StudentLoginPage', () => {
  it('shows the company branding from the authhash and links to sign-up and forgotten password', async () => {
    const fetchMock = stubServer({ 'GET /rest/acl': () => json(branding) });
    renderApp('/admin/students/login?authhash=H1&id=7');

    expect(await screen.findByText('Bounce Gym')).toBeTruthy();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/rest/acl?authhash=H1');
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
      '/admin/students/signup?authhash=H1',
    );
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      '/admin/students/forgotten-password?authhash=H1',
    );
    expect(api.getAuthHash()).toBe('H1');
  });

  it('signs in with the authhash and follows the redirect back', async () => {
    const fetchMock = stubServer({
      'GET /rest/acl': (url) => json(url.searchParams.has('authhash') ? branding : studentAcl()),
      'POST /rest': () => json({ token: 'tok-s' }, { headers: { [TOKEN_HEADER]: 'tok-s' } }),
    });
    const { router } = renderApp(
      `/admin/students/login?authhash=H1&redirect=${encodeURIComponent('/booking/checkout?authhash=H1&b=3')}`,
    );
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText(/email address/i), 'pat@example.test');
    await user.type(screen.getByLabelText(/^password/i), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/booking/checkout'));
    expect(router.state.location.search).toBe('?authhash=H1&b=3');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      username: 'pat@example.test',
      password: 'secret',
      authhash: 'H1',
    });
    expect(api.getUserMeta()).toEqual({ role: 'student', companyId: 7 });
  });

  it('keeps the way back to checkout through Create an account, sign-up and sign-in (issue 21 point 1)', async () => {
    const checkout = '/booking/checkout?authhash=H1&b=3';
    const fetchMock = stubServer({
      'GET /rest/acl': (url) => json(url.searchParams.has('authhash') ? branding : studentAcl()),
      'POST /api/v1/students/signup': () =>
        json({
          valid: true,
          redirect: '/admin/students/login?authhash=H1',
          info: { title: 'Welcome!', message: 'Your account has been created. Please sign in.' },
        }),
      'POST /rest': () => json({ token: 'tok-s' }, { headers: { [TOKEN_HEADER]: 'tok-s' } }),
    });
    const { router } = renderApp(
      `/admin/students/login?authhash=H1&redirect=${encodeURIComponent(checkout)}`,
    );
    const user = userEvent.setup();

    await user.click(await screen.findByRole('link', { name: 'Create an account' }));
    await screen.findByRole('heading', { name: 'Create your parent account' });
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(checkout);
    await user.type(screen.getByLabelText(/full name/i), 'Pat New');
    await user.type(screen.getByLabelText(/email address/i), 'pat@example.test');
    await user.type(screen.getByLabelText(/phone/i), '0400000000');
    await user.type(screen.getByLabelText(/^password/i), 'secret-123');
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/students/login'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      authhash: 'H1',
      redirect: checkout,
    });
    await user.type(await screen.findByLabelText(/email address/i), 'pat@example.test');
    await user.type(screen.getByLabelText(/^password/i), 'secret-123');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/booking/checkout'));
    expect(router.state.location.search).toBe('?authhash=H1&b=3');
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/v1/students/signup'))).toBe(
      true,
    );
  });

  it('goes to the parent profile without a redirect', async () => {
    stubServer({
      'GET /rest/acl': (url) => json(url.searchParams.has('authhash') ? branding : studentAcl()),
      'POST /rest': () => json({ token: 'tok-s' }, { headers: { [TOKEN_HEADER]: 'tok-s' } }),
    });
    const { router } = renderApp('/admin/students/login?authhash=H1');
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText(/email address/i), 'pat@example.test');
    await user.type(screen.getByLabelText(/^password/i), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByRole('heading', { name: 'My Profile' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/students/profile');
  });
});
