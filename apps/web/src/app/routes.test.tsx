import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import { waiverMessages } from '@tumble/contracts/waiver';
import { describe, expect, it } from 'vitest';
import { api } from '../api/client';
import { staffAcl, studentAcl } from '../test/fixtures';
import { json, renderApp, stubServer } from '../test/render';

describe('router', () => {
  it('shows the not-found page, with a link home, for an unknown path', async () => {
    stubServer({});
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
  });

  it('sends a signed-out visitor of /admin to /admin/login', async () => {
    stubServer({});
    const { router } = renderApp('/admin');

    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(router.state.location.search).toBe('');
  });

  it('sends a signed-in user from /admin to the dashboard with the company name', async () => {
    stubServer({ 'GET /rest/acl': () => json(staffAcl()) });
    api.setToken('tok');
    const { router } = renderApp('/admin/');

    expect(await screen.findByRole('heading', { name: 'Bounce Gym' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
  });

  it('sends a signed-out visitor of a signed-in page to sign in, coming back afterwards', async () => {
    stubServer({});
    const { router } = renderApp('/admin/users?page=2');

    await screen.findByRole('button', { name: 'Sign In' });
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/admin/users?page=2');
  });

  it.each([
    ['/birthday-party/waiver', 'GET /api/v1/birthday-party/waiver'],
    ['/birthday-party/waiver/', 'GET /api/v1/birthday-party/waiver'],
    ['/event-booking/waiver', 'GET /api/v1/event-booking/waiver'],
    ['/event-booking/waiver/', 'GET /api/v1/event-booking/waiver'],
  ])('opens the waiver page at %s, asking %s', async (path, call) => {
    stubServer({
      [call]: () =>
        json({
          valid: false,
          message: waiverMessages.invalidLink,
          title: '',
          hash: '',
          waiver: null,
          people: [],
        }),
    });
    renderApp(`${path}?id=abc&authhash=h`);

    expect(await screen.findByText(waiverMessages.invalidLink)).toBeTruthy();
  });

  it('renders staff pages in the sidebar layout with the Account Settings menu', async () => {
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/term-classes/meta': () => json({ message: 'Not found.' }, { status: 404 }),
    });
    api.setToken('tok');
    renderApp('/admin/term-classes');

    // A resource the server does not have (yet) says so inside the layout.
    expect(
      await screen.findByText('This page does not exist, or it is not available to your account.'),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Term classes' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByText('Bounce Gym')).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'My Account' }).getAttribute('href')).toBe(
      '/admin/my-account',
    );
    expect(within(nav).getByRole('link', { name: 'Term Classes' }).getAttribute('data-active')).toBe('true');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Account Settings' }));
    expect((await screen.findByRole('menuitem', { name: 'My Company' })).getAttribute('href')).toBe(
      '/admin/my-company',
    );
    expect(screen.getByRole('menuitem', { name: 'Users' }).getAttribute('href')).toBe('/admin/users');
  });

  it('says the user meta request failed when GET /rest/acl fails', async () => {
    stubServer({ 'GET /rest/acl': () => json({ message: 'Boom' }, { status: 500 }) });
    api.setToken('tok');
    renderApp('/admin/dashboard');

    expect(await screen.findByText(messages.userMetaFailed)).toBeTruthy();
  });

  it('logs staff out: POST /rest/logout, token cleared, back to /admin/login', async () => {
    const fetchMock = stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'POST /rest/logout': () => json({}),
    });
    api.setToken('tok');
    const { router } = renderApp('/admin/dashboard');

    await userEvent.setup().click(await screen.findByRole('button', { name: 'Logout' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(router.state.location.search).toBe('');
    expect(api.getToken()).toBeNull();
    expect(window.localStorage.getItem('tumble.token')).toBeNull();
    expect(
      fetchMock.mock.calls.some(([url, init]) => url === '/rest/logout' && init?.method === 'POST'),
    ).toBe(true);
  });

  it('gives parents their own layout and asks before logging out', async () => {
    const fetchMock = stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'POST /rest/logout': () => json({}),
    });
    api.setToken('tok');
    api.setAuthHash('H9');
    const { router } = renderApp('/admin/students/profile');
    const user = userEvent.setup();

    expect(await screen.findByRole('heading', { name: 'My Profile' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).queryByRole('link', { name: 'My Account' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Account Settings' })).toBeNull();
    expect(screen.getByRole('link', { name: 'My Account' }).getAttribute('href')).toBe(
      '/admin/students/profile',
    );

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(messages.logoutConfirm)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === '/rest/logout')).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Logout' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/students/login'));
    expect(router.state.location.search).toBe('?authhash=H9');
    expect(api.getToken()).toBeNull();
    expect(api.getAuthHash()).toBe('H9');
  });
});
