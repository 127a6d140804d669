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
