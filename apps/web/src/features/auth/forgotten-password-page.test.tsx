import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it } from 'vitest';
import { json, renderApp, stubServer } from '../../test/render';

async function requestLink(email: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/email address/i), email);
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
}

describe('ForgottenPasswordPage', () => {
  it("posts the email and shows the server's message", async () => {
    const fetchMock = stubServer({
      'POST /api/v1/auth/forgotten-password': () =>
        json({ message: 'If that address is ours, a link is on its way.' }),
    });
    renderApp('/admin/forgotten-password');

    await requestLink('owner@bounce.test');

    expect(await screen.findByText('If that address is ours, a link is on its way.')).toBeTruthy();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ email: 'owner@bounce.test' });
  });

  it('says the request failed when the server refuses it', async () => {
    stubServer({ 'POST /api/v1/auth/forgotten-password': () => json({ message: 'Boom' }, { status: 500 }) });
    renderApp('/admin/forgotten-password');

    await requestLink('owner@bounce.test');

    expect(await screen.findByText(messages.forgotPasswordFailed)).toBeTruthy();
  });

  it('checks the email address before posting', async () => {
    const fetchMock = stubServer({});
    renderApp('/admin/forgotten-password');

    await requestLink('not-an-email');

    expect(screen.getByText('Please enter a valid email address.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
