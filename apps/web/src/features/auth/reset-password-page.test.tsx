import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it } from 'vitest';
import { json, renderApp, stubServer } from '../../test/render';

function linkCheck(result: 0 | 1 | 2) {
  return { 'GET /api/v1/auth/reset-password': () => json({ result }) };
}

async function submitPasswords(password: string, password2: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/^new password/i), password);
  await user.type(screen.getByLabelText(/^confirm new password/i), password2);
  await user.click(screen.getByRole('button', { name: 'Reset Password' }));
}

describe('ResetPasswordPage link check', () => {
  it('checks the link with hashcode and check=result', async () => {
    const fetchMock = stubServer(linkCheck(1));
    renderApp('/admin/reset-password?hashcode=abc123');

    await screen.findByLabelText(/^new password/i);
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://localhost');
    expect(url.pathname).toBe('/api/v1/auth/reset-password');
    expect(url.searchParams.get('hashcode')).toBe('abc123');
    expect(url.searchParams.get('check')).toBe('result');
  });

  it('says "Set your password" to an invited staff member (issue 21 point 16)', async () => {
    stubServer(linkCheck(1));
    renderApp('/admin/reset-password?hashcode=abc123&invitation=1');

    expect(await screen.findByRole('heading', { name: 'Set your password' })).toBeTruthy();
    expect(screen.queryByText('Reset your password')).toBeNull();
    expect(await screen.findByRole('button', { name: 'Set Password' })).toBeTruthy();
  });

  it('says the link is invalid for result 0, without a form', async () => {
    stubServer(linkCheck(0));
    renderApp('/admin/reset-password?hashcode=abc123');

    expect(await screen.findByText(messages.resetLinkInvalid)).toBeTruthy();
    expect(screen.queryByLabelText(/^new password/i)).toBeNull();
  });

  it('says the link timed out for result 2, with a link to request a new one', async () => {
    stubServer(linkCheck(2));
    renderApp('/admin/reset-password?hashcode=abc123');

    expect(await screen.findByText(messages.resetLinkTimedOut)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe(
      '/admin/forgotten-password',
    );
    expect(screen.queryByLabelText(/^new password/i)).toBeNull();
  });

  it('treats a missing hashcode as invalid without asking the server', async () => {
    const fetchMock = stubServer({});
    renderApp('/admin/reset-password');

    expect(await screen.findByText(messages.resetLinkInvalid)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says the data could not be loaded when the check itself fails', async () => {
    stubServer({ 'GET /api/v1/auth/reset-password': () => json({ message: 'Boom' }, { status: 500 }) });
    renderApp('/admin/reset-password?hashcode=abc123');

    expect(await screen.findByText(messages.formLoadFailed)).toBeTruthy();
  });
});

describe('ResetPasswordPage form', () => {
  it('requires both passwords before posting', async () => {
    const fetchMock = stubServer(linkCheck(1));
    renderApp('/admin/reset-password?hashcode=abc123');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Reset Password' }));

    expect(screen.getByText('Password is required.')).toBeTruthy();
    expect(screen.getByText('Please confirm the password.')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('shows html_message at the top and the field errors of an invalid form response', async () => {
    stubServer({
      ...linkCheck(1),
      'POST /api/v1/auth/reset-password': () =>
        json(
          {
            valid: false,
            error: {
              html_message: '<p>Please correct the <b>errors</b> below.</p>',
              element: [{ name: 'password', messages: ['The password is too weak.'] }],
            },
          },
          { status: 422 },
        ),
    });
    renderApp('/admin/reset-password?hashcode=abc123');

    await submitPasswords('abc', 'abc');

    // html_message is HTML (SPEC.md point 5): its paragraph and bold word, never the tags as text.
    const bold = await screen.findByText('errors', { selector: 'b' });
    expect(bold.closest('p')?.textContent).toBe('Please correct the errors below.');
    expect(screen.getByText('The password is too weak.')).toBeTruthy();
    expect(screen.getByLabelText(/^new password/i).getAttribute('aria-invalid')).toBe('true');
  });

  it('posts hashcode, password and password2, then goes to the redirect', async () => {
    const fetchMock = stubServer({
      ...linkCheck(1),
      'POST /api/v1/auth/reset-password': () =>
        json({
          valid: true,
          redirect: '/admin/login',
          info: { title: 'Password changed', message: 'You can sign in now.' },
        }),
    });
    const { router } = renderApp('/admin/reset-password?hashcode=abc123');

    await submitPasswords('a long new password', 'a long new password');

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      hashcode: 'abc123',
      password: 'a long new password',
      password2: 'a long new password',
    });
  });

  it('says the request failed when no form response comes back', async () => {
    stubServer({
      ...linkCheck(1),
      'POST /api/v1/auth/reset-password': () => json({ message: 'Boom' }, { status: 500 }),
    });
    renderApp('/admin/reset-password?hashcode=abc123');

    await submitPasswords('pw-one', 'pw-one');

    expect(await screen.findByText(messages.resetPasswordFailed)).toBeTruthy();
  });
});
