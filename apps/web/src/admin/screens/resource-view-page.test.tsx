import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { eventRow, eventsMeta, sessionsMeta } from '../../test/admin-fixtures';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const SLOW = 20_000;

function server(extra: Parameters<typeof stubServer>[0] = {}) {
  return stubServer({
    'GET /rest/acl': () => json(staffAcl()),
    'GET /api/v1/admin/events/meta': () => json(eventsMeta()),
    'GET /api/v1/admin/events/1': () => json(eventRow(1, { name: 'Holiday camp' })),
    'GET /api/v1/admin/events/1/sessions/meta': () => json(sessionsMeta()),
    'GET /api/v1/admin/events/1/sessions': () =>
      json({
        data: [
          {
            id: 4,
            name: 'Morning camp',
            start_date: '2026-01-05',
            days_of_week: ['1', '2', '3', '4', '5'],
            capacity: 20,
          },
        ],
        total: 1,
      }),
    'GET /api/v1/admin/events': () => json({ data: [eventRow(1)], total: 1 }),
    ...extra,
  });
}

describe('resource view', () => {
  it(
    "shows a row's values and tabs to its nested lists",
    async () => {
      server();
      api.setToken('tok');
      const { router } = renderApp('/admin/events/1');

      expect(await screen.findByRole('heading', { name: 'Holiday camp' }, { timeout: 5000 })).toBeTruthy();
      const value = (name: string) => document.querySelector(`[data-field="${name}"]`)?.textContent;
      expect(value('start_date')).toBe('24/12/2025');
      expect(value('booking_fee')).toBe('$12.50');
      expect(value('venue_id')).toBe('Main gym');
      expect(value('published')).toBe('Yes');
      expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/admin/events/1/edit');

      const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
      expect(tabs).toEqual(['Details', 'Sessions', 'Tickets', 'Price tiers', 'Contacts', 'Downloads']);

      await userEvent.setup().click(screen.getByRole('tab', { name: 'Sessions' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/events/1/sessions'));
      const table = await screen.findByRole('table', { name: 'Sessions' });
      const row = within(table).getAllByRole('row')[1]!;
      expect(within(row).getByRole('link', { name: 'Morning camp' }).getAttribute('href')).toBe(
        '/admin/events/1/sessions/4',
      );
      // A multi-select column names up to three choices.
      expect(within(row).getByText('Monday, Tuesday, Wednesday +2 more')).toBeTruthy();
      expect(screen.getByRole('tab', { name: 'Sessions' }).getAttribute('aria-selected')).toBe('true');
      expect(screen.getByRole('link', { name: 'Holiday camp' }).getAttribute('href')).toBe('/admin/events/1');
    },
    SLOW,
  );

  it(
    'archives the row from its own page with the row question, then goes back to the list',
    async () => {
      const fetchMock = server({
        'POST /api/v1/admin/events/dispatch/delete': () =>
          json({ success: true, message: '1 event archived.' }),
      });
      api.setToken('tok');
      const { router } = renderApp('/admin/events/1');
      const user = userEvent.setup();

      await user.click(await screen.findByRole('button', { name: 'Archive' }, { timeout: 5000 }));
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByText('Are you sure to archive?')).toBeTruthy();
      await user.click(within(dialog).getByRole('button', { name: 'Archive' }));

      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/events'));
      expect(await screen.findByText('1 event archived.')).toBeTruthy();
      const call = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/dispatch/delete'));
      expect(JSON.parse(String(call?.[1]?.body))).toEqual({ ids: [1], values: {} });
    },
    SLOW,
  );

  it(
    'says not found for a nested resource its parent does not have',
    async () => {
      server();
      api.setToken('tok');
      renderApp('/admin/events/1/rooms');

      expect(
        await screen.findByText(
          'This page does not exist, or it is not available to your account.',
          {},
          { timeout: 5000 },
        ),
      ).toBeTruthy();
    },
    SLOW,
  );
});
