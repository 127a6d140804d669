import { screen, waitFor } from '@testing-library/react';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it } from 'vitest';
import { json, renderApp, stubServer } from '../../test/render';

describe('ActivatePage', () => {
  it.each([
    [0, messages.activationInvalid],
    [2, messages.activationTimedOut],
  ] as const)('shows the message for result %i', async (result, text) => {
    stubServer({ 'GET /api/v1/auth/activate': () => json({ result }) });
    renderApp('/admin/activate?hashcode=h1');

    expect(await screen.findByText(text)).toBeTruthy();
  });

  it('goes to sign-in with the confirmation note for result 1', async () => {
    const fetchMock = stubServer({ 'GET /api/v1/auth/activate': () => json({ result: 1 }) });
    const { router } = renderApp('/admin/activate?hashcode=h1');

    expect(await screen.findByText(messages.activationConfirmed)).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?activation=1'));
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/auth/activate?hashcode=h1&check=result');
  });
});
