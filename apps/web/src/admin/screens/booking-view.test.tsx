import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FieldMeta, ResourceMeta } from '@tumble/contracts/resources';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { eventRow, eventsMeta } from '../../test/admin-fixtures';
import { staffAcl } from '../../test/fixtures';
import { mediaQueries } from '../../test/media-query';
import { json, renderApp, stubServer } from '../../test/render';

const SLOW = 20_000;

const field = (name: string, type: FieldMeta['type'], label: string, extra: Partial<FieldMeta> = {}) =>
  ({ name, type, label, required: false, readOnly: false, ...extra }) as FieldMeta;

/** GET /api/v1/admin/events/1/bookings/meta as the server answers staff (trimmed to what matters). */
const bookingsMeta: ResourceMeta = {
  name: 'bookings',
  label: 'Bookings',
  singular: 'Booking',
  parent: 'events',
  children: [],
  titleField: 'reference',
  fields: [
    field('reference', 'text', 'Reference', { readOnly: true }),
    field('status', 'text', 'Status', { readOnly: true }),
  ],
  columns: ['reference', 'status'],
  sortable: ['reference', 'status'],
  defaultSort: { field: 'reference', order: 'asc' },
  filters: [],
  searchable: false,
  actions: [
    {
      name: 'cancel',
      label: 'Cancel booking',
      selection: 'many',
      confirm: 'cancel the selected bookings',
      dismiss: 'Keep booking',
      fields: [
        field('refund', 'select', 'Money paid (paid bookings)', {
          options: [
            { value: 'refund', label: 'Refund the payment' },
            { value: 'credit', label: 'Keep it as credit' },
            { value: 'none', label: 'No refund' },
          ],
        }),
      ],
    },
    {
      name: 'swap-session',
      label: 'Swap session',
      selection: 'one',
      confirm: 'swap the session',
      fields: [
        field('from_session_id', 'reference', 'From session', { required: true, reference: 'sessions' }),
        field('from_date', 'date', 'From day', { required: true }),
        field('to_session_id', 'reference', 'To session', { required: true, reference: 'sessions' }),
        field('to_date', 'date', 'To day', { required: true }),
      ],
    },
  ],
  canWrite: true,
  canCreate: false,
  canEdit: false,
  canDelete: false,
  deleteMode: 'none',
  sections: [
    { name: 'children', label: 'Children' },
    { name: 'days', label: 'Days' },
  ],
};

function server(extra: Parameters<typeof stubServer>[0] = {}) {
  return stubServer({
    'GET /rest/acl': () => json(staffAcl()),
    'GET /api/v1/admin/events/meta': () =>
      json(eventsMeta({ children: [...eventsMeta().children, { name: 'bookings', label: 'Bookings' }] })),
    'GET /api/v1/admin/events/1': () => json(eventRow(1, { name: 'Holiday camp' })),
    'GET /api/v1/admin/events/1/bookings/meta': () => json(bookingsMeta),
    'GET /api/v1/admin/events/1/bookings/7': () =>
      json({ id: 7, reference: 'BK-7F3K2', status: 'confirmed' }),
    'GET /api/v1/admin/events/1/bookings/7/sections': () =>
      json([
        {
          name: 'children',
          label: 'Children',
          columns: [
            { name: 'name', label: 'Name' },
            { name: 'dob', label: 'Date of birth' },
          ],
          rows: [{ name: 'Ava Smith', dob: '04/03/2018' }],
        },
        {
          name: 'days',
          label: 'Days',
          columns: [
            { name: 'date', label: 'Day' },
            { name: 'session', label: 'Session' },
          ],
          rows: [{ date: '05/01/2026', session: 'Morning camp' }],
        },
      ]),
    'GET /api/v1/admin/events/1/sessions/options': () => json([{ value: 4, label: 'Morning camp' }]),
    ...extra,
  });
}

describe('a booking’s page', () => {
  it(
    'lists the children and days of the booking',
    async () => {
      server();
      api.setToken('tok');
      renderApp('/admin/events/1/bookings/7');

      const children = await screen.findByRole('table', { name: 'Children' }, { timeout: 5000 });
      expect(within(children).getByText('Ava Smith')).toBeTruthy();
      const days = screen.getByRole('table', { name: 'Days' });
      expect(within(days).getByText('05/01/2026')).toBeTruthy();
      expect(within(days).getByText('Morning camp')).toBeTruthy();
    },
    SLOW,
  );

  it(
    'on a phone lists each child and day as a small card, not a table wider than the screen',
    async () => {
      const phoneQuery = vi
        .spyOn(window, 'matchMedia')
        .mockImplementation(mediaQueries((query) => query === '(max-width: 36em)'));
      try {
        server();
        api.setToken('tok');
        renderApp('/admin/events/1/bookings/7');

        const children = await screen.findByRole('list', { name: 'Children' }, { timeout: 5000 });
        expect(screen.queryByRole('table', { name: 'Children' })).toBeNull();
        const [ava] = within(children).getAllByRole('listitem');
        expect(within(ava!).getByText('Ava Smith')).toBeTruthy();
        expect(within(ava!).getByRole('term').textContent).toBe('Date of birth');
        expect(within(ava!).getByRole('definition').textContent).toBe('04/03/2018');
        const days = screen.getByRole('list', { name: 'Days' });
        expect(within(days).getByText('05/01/2026')).toBeTruthy();
      } finally {
        phoneQuery.mockRestore();
      }
    },
    SLOW,
  );

  it(
    'swap session offers the event’s sessions (not the missing /admin/sessions)',
    async () => {
      const fetchMock = server();
      api.setToken('tok');
      renderApp('/admin/events/1/bookings/7');
      const user = userEvent.setup();

      await user.click(await screen.findByRole('button', { name: 'Swap session' }, { timeout: 5000 }));
      const dialog = await screen.findByRole('dialog');
      await user.click(within(dialog).getByRole('combobox', { name: 'From session' }));
      expect(await screen.findByRole('option', { name: 'Morning camp' })).toBeTruthy();
      const asked = fetchMock.mock.calls.map(
        ([input]) => new URL(String(input), 'http://localhost').pathname,
      );
      expect(asked).toContain('/api/v1/admin/events/1/sessions/options');
      expect(asked).not.toContain('/api/v1/admin/sessions/options');
    },
    SLOW,
  );

  it(
    'cancel asks Keep booking / Cancel booking and sends the refund choice',
    async () => {
      const fetchMock = server({
        'POST /api/v1/admin/events/1/bookings/dispatch/cancel': () =>
          json({ success: true, message: '1 booking cancelled. Freed places were offered to the waitlist.' }),
      });
      api.setToken('tok');
      renderApp('/admin/events/1/bookings/7');
      const user = userEvent.setup();

      await user.click(await screen.findByRole('button', { name: 'Cancel booking' }, { timeout: 5000 }));
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByRole('button', { name: 'Keep booking' })).toBeTruthy();
      expect(within(dialog).queryByRole('button', { name: 'Cancel' })).toBeNull();
      await user.click(within(dialog).getByRole('combobox', { name: 'Money paid (paid bookings)' }));
      await user.click(await screen.findByRole('option', { name: 'Keep it as credit' }));
      await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));

      expect(
        await screen.findByText('1 booking cancelled. Freed places were offered to the waitlist.'),
      ).toBeTruthy();
      const call = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/dispatch/cancel'));
      expect(JSON.parse(String(call?.[1]?.body))).toEqual({ ids: [7], values: { refund: 'credit' } });
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    },
    SLOW,
  );
});
