import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderApp, stubServer } from '../../test/render';
import { calendarAnswer, onMonday2March } from './party-test-kit';

afterEach(() => {
  vi.useRealTimers();
});

/** The app's routes (app/routes.tsx) load the party pages, with or without a trailing slash. */
describe('party routes', () => {
  it.each(['/birthday-party/booking?authhash=H1', '/birthday-party/booking/?authhash=H1'])(
    '%s is the party booking page',
    async (path) => {
      onMonday2March();
      stubServer({
        'GET /rest/acl': () => json({}, { status: 404 }),
        'GET /api/v1/birthday-party/booking/load-calendar': () => json(calendarAnswer()),
      });
      renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Book a birthday party' })).toBeTruthy();
    },
  );

  it.each([
    '/birthday-party/booking/checkout?authhash=H1',
    '/birthday-party/booking/checkout/?authhash=H1',
    '/birthday-party/update-guest?id=REF1&authhash=H1',
    '/birthday-party/update-guest/?id=REF1&authhash=H1',
  ])('%s sends a signed-out visitor to parent sign-in and back', async (path) => {
    stubServer({ 'GET /rest/acl': () => json({}, { status: 404 }) });
    const { router } = renderApp(path);
    await screen.findByRole('button', { name: 'Sign In' });
    expect(router.state.location.pathname).toBe('/admin/students/login');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(path);
  });
});
