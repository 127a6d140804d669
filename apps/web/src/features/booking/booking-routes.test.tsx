import { screen } from '@testing-library/react';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it } from 'vitest';
import { json, renderApp, stubServer } from '../../test/render';

/** The app's routes (app/routes.tsx) load these pages, with or without a trailing slash. */
describe('booking routes', () => {
  it.each(['/booking?e=zz&authhash=H1', '/booking/?e=zz&authhash=H1'])(
    '%s is the booking page',
    async (path) => {
      stubServer({});
      renderApp(path);
      expect(await screen.findByText(messages.noEventData)).toBeTruthy();
    },
  );

  it.each(['/booking/checkout?authhash=H1&b=317c31', '/booking/checkout/?authhash=H1&b=317c31'])(
    '%s is the checkout, which sends a signed-out visitor to parent sign-in',
    async (path) => {
      stubServer({ 'GET /rest/acl': () => json({}, { status: 404 }) });
      const { router } = renderApp(path);
      await screen.findByRole('button', { name: 'Sign In' });
      expect(router.state.location.pathname).toBe('/admin/students/login');
      expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(path);
    },
  );

  it.each(['/events/invitation/confirm', '/events/invitation/confirm/'])(
    '%s is the invitation page',
    async (path) => {
      stubServer({ 'GET /api/v1/events/wait-list/invitation/check': () => json({ valid: false }) });
      renderApp(`${path}?authhash=H1&w=t&e=317c31&b=4`);
      expect(await screen.findByRole('heading', { name: messages.invitationConfirmed })).toBeTruthy();
    },
  );

  it('/payments/test is the test card page', async () => {
    stubServer({});
    renderApp('/payments/test?session=ts_1');
    expect(await screen.findByText('TEST MODE — no real money moves')).toBeTruthy();
  });
});
