import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ResourceMeta } from '@tumble/contracts/resources';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';
import { parseResourcePath } from '../resource-ref';

/** A small resource meta: a name column, read-only unless said otherwise. */
function meta(
  name: string,
  label: string,
  parent: string | null,
  children: { name: string; label: string }[] = [],
): ResourceMeta {
  return {
    name,
    label,
    singular: label.replace(/s$/, ''),
    parent,
    children,
    titleField: 'name',
    fields: [{ name: 'name', type: 'text', label: 'Name', required: true, readOnly: false }],
    columns: ['name'],
    sortable: ['name'],
    defaultSort: { field: 'name', order: 'asc' },
    filters: [],
    searchable: false,
    actions: [],
    canWrite: false,
    canCreate: false,
    canEdit: false,
    canDelete: false,
    deleteMode: 'none',
  };
}

const SLOW = 20_000;

describe('parseResourcePath', () => {
  it.each([
    ['/admin/venues', { ref: { resource: 'venues', parent: null }, id: null, screen: 'list' }],
    ['/admin/venues/add', { ref: { resource: 'venues', parent: null }, id: null, screen: 'add' }],
    ['/admin/venues/4', { ref: { resource: 'venues', parent: null }, id: 4, screen: 'view' }],
    ['/admin/venues/4/edit', { ref: { resource: 'venues', parent: null }, id: 4, screen: 'edit' }],
    [
      '/admin/party-bookings/7/guests',
      {
        ref: { resource: 'guests', parent: { resource: 'party-bookings', id: 7, parent: null } },
        screen: 'list',
      },
    ],
    [
      '/admin/terms/1/classes/4/sessions/9/edit',
      {
        ref: {
          resource: 'sessions',
          parent: { resource: 'classes', id: 4, parent: { resource: 'terms', id: 1, parent: null } },
        },
        id: 9,
        screen: 'edit',
      },
    ],
  ])('reads %s', (path, expected) => {
    expect(parseResourcePath(path)).toMatchObject({ badId: false, ...expected });
  });

  it('says not found for ids that are not ids', () => {
    expect(parseResourcePath('/admin/venues/abc')).toMatchObject({ badId: true, screen: 'view' });
    expect(parseResourcePath('/admin/events/abc/sessions')).toMatchObject({ ref: null });
  });
});

describe('nested resource screens', () => {
  it(
    "opens a party booking's Guests tab with its guests (the tab said Not found before)",
    async () => {
      stubServer({
        'GET /rest/acl': () => json(staffAcl()),
        'GET /api/v1/admin/party-bookings/meta': () =>
          json(meta('party-bookings', 'Party bookings', null, [{ name: 'guests', label: 'Guests' }])),
        'GET /api/v1/admin/party-bookings/7': () => json({ id: 7, name: 'Mia turns 7', _labels: {} }),
        'GET /api/v1/admin/party-bookings/7/guests/meta': () =>
          json(meta('guests', 'Guests', 'party-bookings')),
        'GET /api/v1/admin/party-bookings/7/guests': () =>
          json({ data: [{ id: 1, name: 'Ollie', _labels: {} }], total: 1 }),
      });
      api.setToken('tok');
      const { router } = renderApp('/admin/party-bookings/7');
      const user = userEvent.setup();

      await user.click(await screen.findByRole('tab', { name: 'Guests' }, { timeout: 5000 }));

      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/party-bookings/7/guests'));
      const table = await screen.findByRole('table', { name: 'Guests' });
      expect(within(table).getByText('Ollie')).toBeTruthy();
      expect(screen.queryByText('Not found')).toBeNull();
    },
    SLOW,
  );

  it(
    'lists a resource nested two levels deep, asking the server along the whole chain',
    async () => {
      stubServer({
        'GET /rest/acl': () => json(staffAcl()),
        'GET /api/v1/admin/terms/1/classes/meta': () =>
          json(meta('classes', 'Classes', 'terms', [{ name: 'sessions', label: 'Sessions' }])),
        'GET /api/v1/admin/terms/1/classes/4': () => json({ id: 4, name: 'Tumble tots', _labels: {} }),
        'GET /api/v1/admin/terms/1/classes/4/sessions/meta': () =>
          json(meta('sessions', 'Sessions', 'classes')),
        'GET /api/v1/admin/terms/1/classes/4/sessions': () =>
          json({ data: [{ id: 9, name: 'Monday 4pm', _labels: {} }], total: 1 }),
      });
      api.setToken('tok');
      renderApp('/admin/terms/1/classes/4/sessions');

      const table = await screen.findByRole('table', { name: 'Sessions' }, { timeout: 5000 });
      expect(within(table).getByRole('link', { name: 'Monday 4pm' }).getAttribute('href')).toBe(
        '/admin/terms/1/classes/4/sessions/9',
      );
      // The crumbs lead back to the class and to the term's classes.
      expect(screen.getByRole('link', { name: 'Tumble tots' }).getAttribute('href')).toBe(
        '/admin/terms/1/classes/4',
      );
      expect(screen.getByRole('link', { name: 'Classes' }).getAttribute('href')).toBe(
        '/admin/terms/1/classes',
      );
    },
    SLOW,
  );
});
