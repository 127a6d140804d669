import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TOKEN_HEADER } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/email address/i), email);
  await user.type(screen.getByLabelText(/^password/i), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('LoginPage', () => {
  it('shows the form with a link to the forgotten password page', async () => {
    stubServer({});
    renderApp('/admin/login');

    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
    const link = screen.getByRole('link', { name: 'Forgot your password?' });
    expect(link.getAttribute('href')).toBe('/admin/forgotten-password');
  });

  it('marks both fields as required and does not call the server', async () => {
    const fetchMock = stubServer({});
    renderApp('/admin/login');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Sign In' }));

    expect(screen.getByText('Email address is required.')).toBeTruthy();
    expect(screen.getByText('Password is required.')).toBeTruthy();
    expect(screen.getByLabelText(/email address/i).getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the 'Sorry!' banner when the server answers 401", async () => {
    const fetchMock = stubServer({ 'POST /rest': () => json({ message: 'Unauthorised' }, { status: 401 }) });
    renderApp('/admin/login');

    await fillAndSubmit('owner@bounce.test', 'wrong password');

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('Sorry!');
    expect(banner.textContent).toContain(messages.loginFailed);
    const init = fetchMock.mock.calls[0]?.[1];
    expect(JSON.parse(String(init?.body))).toEqual({
      username: 'owner@bounce.test',
      password: 'wrong password',
    });
    expect(api.getToken()).toBeNull();
  });

  it("shows the server's message for other failures such as 429", async () => {
    stubServer({
      'POST /rest': () => json({ message: 'Too many attempts. Try again in a minute.' }, { status: 429 }),
    });
    renderApp('/admin/login');

    await fillAndSubmit('owner@bounce.test', 'pw');

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('Sorry!');
    expect(banner.textContent).toContain('Too many attempts. Try again in a minute.');
  });

  it('shows the communication error when the server cannot be reached', async () => {
    stubServer({
      'POST /rest': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderApp('/admin/login');

    await fillAndSubmit('owner@bounce.test', 'pw');

    expect((await screen.findByRole('alert')).textContent).toContain(messages.communicationError);
  });

  it('keeps the button loading while the request is pending', async () => {
    stubServer({ 'POST /rest': () => new Promise<Response>(() => {}) });
    renderApp('/admin/login');

    await fillAndSubmit('owner@bounce.test', 'pw');

    const button = screen.getByRole('button', { name: 'Sign In' });
    await waitFor(() => expect(button.hasAttribute('data-loading')).toBe(true));
    expect(button.hasAttribute('disabled')).toBe(true);
  });

  it('shows the activation note only with ?activation=1', async () => {
    stubServer({});
    const first = renderApp('/admin/login?activation=1');
    expect(await screen.findByText(messages.activationConfirmed)).toBeTruthy();
    first.unmount();

    renderApp('/admin/login');
    await screen.findByRole('button', { name: 'Sign In' });
    expect(screen.queryByText(messages.activationConfirmed)).toBeNull();
  });

  it('stores the token from the header, loads the user meta and lands on the dashboard', async () => {
    const fetchMock = stubServer({
      'POST /rest': () => json({ token: 'tok-1' }, { headers: { [TOKEN_HEADER]: 'tok-1' } }),
      'GET /rest/acl': () => json(staffAcl()),
    });
    const { router } = renderApp('/admin/login');

    await fillAndSubmit('owner@bounce.test', 'correct horse');

    expect(await screen.findByRole('heading', { name: 'Bounce Gym' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    expect(api.getToken()).toBe('tok-1');
    expect(window.localStorage.getItem('tumble.token')).toBe('tok-1');
    const aclCall = fetchMock.mock.calls.find(([url]) => String(url).startsWith('/rest/acl'));
    expect(new Headers(aclCall?.[1]?.headers).get('Authorization')).toBe('Bearer tok-1');
  });

  it('follows a same-origin redirect and ignores a foreign one', async () => {
    stubServer({
      'POST /rest': () => json({ token: 'tok-2' }, { headers: { [TOKEN_HEADER]: 'tok-2' } }),
      'GET /rest/acl': () => json(staffAcl()),
    });
    const first = renderApp('/admin/login?redirect=%2Fadmin%2Fusers');
    await fillAndSubmit('owner@bounce.test', 'pw');
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/admin/users'));
    first.unmount();
    api.clearSession();

    const second = renderApp('/admin/login?redirect=%2F%2Fevil.test%2Fphish');
    await fillAndSubmit('owner@bounce.test', 'pw');
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/admin/dashboard'));
  });

  it('says the user meta request failed when GET /rest/acl fails after sign-in', async () => {
    stubServer({
      'POST /rest': () => json({ token: 'tok-3' }, { headers: { [TOKEN_HEADER]: 'tok-3' } }),
      'GET /rest/acl': () => json({ message: 'Boom' }, { status: 500 }),
    });
    const { router } = renderApp('/admin/login');

    await fillAndSubmit('owner@bounce.test', 'pw');

    expect((await screen.findByRole('alert')).textContent).toContain(messages.userMetaFailed);
    expect(router.state.location.pathname).toBe('/admin/login');
  });
});
