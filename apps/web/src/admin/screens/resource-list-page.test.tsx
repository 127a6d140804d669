import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { eventRow, eventsMeta } from '../../test/admin-fixtures';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

type Handlers = Parameters<typeof stubServer>[0];

function eventsServer(extra: Handlers = {}) {
  return stubServer({
    'GET /rest/acl': () => json(staffAcl()),
    'GET /api/v1/admin/events/meta': () => json(eventsMeta()),
    'GET /api/v1/admin/events': () =>
      json({ data: [eventRow(1), eventRow(2, { published: false, booking_fee: 0 })], total: 2 }),
    'GET /api/v1/admin/venues/options': () => json([{ value: 3, label: 'Main gym' }]),
    ...extra,
  });
}

function listCalls(fetchMock: ReturnType<typeof stubServer>): URL[] {
  return fetchMock.mock.calls
    .map(([input, init]) => ({
      url: new URL(String(input), 'http://localhost'),
      method: init?.method ?? 'GET',
    }))
    .filter((c) => c.method === 'GET' && c.url.pathname === '/api/v1/admin/events')
    .map((c) => c.url);
}

function dispatchCalls(fetchMock: ReturnType<typeof stubServer>) {
  return fetchMock.mock.calls.filter(([input]) => String(input).includes('/dispatch/'));
}

async function openEvents(path = '/admin/events') {
  api.setToken('tok');
  const view = renderApp(path);
  await screen.findByRole('table', { name: 'Events' }, { timeout: 5000 });
  return view;
}

// The first test loads the lazy admin screens; jsdom is slow with Mantine's comboboxes.
const SLOW = 20_000;

describe('resource list', () => {
  it(
    'shows one server page with money, dates, Yes/No and reference titles, and a 100px action column',
    async () => {
      const fetchMock = eventsServer();
      await openEvents();

      const table = screen.getByRole('table', { name: 'Events' });
      const first = within(table).getAllByRole('row')[1]!;
      expect(within(first).getByRole('link', { name: 'Holiday camp 1' }).getAttribute('href')).toBe(
        '/admin/events/1',
      );
      expect(within(first).getByText('24/12/2025')).toBeTruthy();
      expect(within(first).getByText('09/01/2026')).toBeTruthy();
      expect(within(first).getByText('$12.50')).toBeTruthy();
      expect(within(first).getByText('Main gym')).toBeTruthy();
      expect(within(first).getByText('Yes')).toBeTruthy();
      const second = within(table).getAllByRole('row')[2]!;
      expect(within(second).getByText('No')).toBeTruthy();
      expect(within(second).getByText('$0.00')).toBeTruthy();

      expect(
        within(first).getByRole('link', { name: 'View event Holiday camp 1' }).getAttribute('href'),
      ).toBe('/admin/events/1');
      expect(
        within(first).getByRole('link', { name: 'Edit event Holiday camp 1' }).getAttribute('href'),
      ).toBe('/admin/events/1/edit');
      const actionHeader = within(table).getByRole('columnheader', { name: 'Actions' });
      expect(actionHeader.style.width).toBe('100px');

      const [call] = listCalls(fetchMock);
      expect(Object.fromEntries(call!.searchParams)).toEqual({
        page: '1',
        perPage: '25',
        sort: 'start_date',
        order: 'desc',
      });
    },
    SLOW,
  );

  it(
    'keeps the search in the URL and sends it to the server',
    async () => {
      const fetchMock = eventsServer();
      const { router } = await openEvents();
      const user = userEvent.setup();

      await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'camp{Enter}');

      await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('q')).toBe('camp'));
      await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get('q')).toBe('camp'));
    },
    SLOW,
  );

  it(
    'keeps filters in the URL as a JSON object and sends them to the server',
    async () => {
      const fetchMock = eventsServer();
      const { router } = await openEvents();
      const user = userEvent.setup();

      await user.click(screen.getByRole('combobox', { name: 'Published' }));
      await user.click(await screen.findByRole('option', { name: 'Yes' }));

      await waitFor(() =>
        expect(new URLSearchParams(router.state.location.search).get('filter')).toBe('{"published":true}'),
      );
      await waitFor(() =>
        expect(listCalls(fetchMock).at(-1)?.searchParams.get('filter')).toBe('{"published":true}'),
      );

      await user.click(screen.getByRole('combobox', { name: 'Venue' }));
      await user.click(await screen.findByRole('option', { name: 'Main gym' }));
      await waitFor(() =>
        expect(JSON.parse(new URLSearchParams(router.state.location.search).get('filter') ?? '{}')).toEqual({
          published: true,
          venue_id: 3,
        }),
      );
    },
    SLOW,
  );

  it(
    'reads search, filter, sort and page from the URL it was opened with',
    async () => {
      const fetchMock = eventsServer({
        'GET /api/v1/admin/events': () => json({ data: [eventRow(1)], total: 60 }),
      });
      await openEvents(
        '/admin/events?q=ninja&page=2&sort=name&order=asc&filter=%7B%22published%22%3Afalse%7D',
      );

      expect((screen.getByRole('searchbox', { name: 'Search' }) as HTMLInputElement).value).toBe('ninja');
      expect((screen.getByRole('combobox', { name: 'Published' }) as HTMLInputElement).value).toBe('No');
      expect(Object.fromEntries(listCalls(fetchMock)[0]!.searchParams)).toEqual({
        page: '2',
        perPage: '25',
        sort: 'name',
        order: 'asc',
        q: 'ninja',
        filter: '{"published":false}',
      });
      expect(screen.getByText('26–50 of 60')).toBeTruthy();
      expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending');
    },
    SLOW,
  );

  it(
    'sorts by a column and pages through the server',
    async () => {
      eventsServer({ 'GET /api/v1/admin/events': () => json({ data: [eventRow(1)], total: 60 }) });
      const { router } = await openEvents();
      const user = userEvent.setup();

      await user.click(screen.getByRole('button', { name: /^Name/ }));
      await waitFor(() => expect(router.state.location.search).toContain('sort=name'));
      expect(new URLSearchParams(router.state.location.search).get('order')).toBe('asc');

      await user.click(screen.getByRole('button', { name: 'Next page' }));
      await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('page')).toBe('2'));
    },
    SLOW,
  );

  it(
    "refuses a 'many' action without a selection with 'Please select at least one record.'",
    async () => {
      const fetchMock = eventsServer();
      await openEvents();
      const user = userEvent.setup();

      await user.click(screen.getByRole('button', { name: 'Publish' }));

      expect(screen.getByRole('alert').textContent).toBe(messages.selectAtLeastOne);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(dispatchCalls(fetchMock)).toHaveLength(0);
    },
    SLOW,
  );

  it(
    "refuses a 'one' action without a selection, and with two",
    async () => {
      const fetchMock = eventsServer();
      await openEvents();
      const user = userEvent.setup();

      await user.click(screen.getByRole('button', { name: 'Availability' }));
      expect(screen.getByRole('alert').textContent).toBe('Please select one record.');

      await user.click(screen.getByRole('checkbox', { name: 'Select Holiday camp 1' }));
      await user.click(screen.getByRole('checkbox', { name: 'Select Holiday camp 2' }));
      await user.click(screen.getByRole('button', { name: 'Availability' }));
      expect(screen.getByRole('alert').textContent).toBe('You can perform this action on only one record.');
      expect(dispatchCalls(fetchMock)).toHaveLength(0);
    },
    SLOW,
  );

  it(
    'opens the custom screen of a screen action for the one selected row',
    async () => {
      eventsServer({
        'GET /api/v1/admin/events/2/availability': () =>
          json({
            event: { id: 2, name: 'Holiday camp 2', start_date: '2030-01-07', end_date: '2030-01-08' },
            sessions: [{ id: 5, name: 'Morning', start_time: '09:00', end_time: '12:00', capacity: 10 }],
            cells: [
              {
                session_id: 5,
                date: '2030-01-07',
                status: 'bookable',
                capacity: 10,
                booked: 4,
                held: 1,
                invited: 0,
                waiting: 0,
              },
              {
                session_id: 5,
                date: '2030-01-08',
                status: 'full',
                capacity: 10,
                booked: 10,
                held: 0,
                invited: 0,
                waiting: 3,
              },
            ],
          }),
      });
      const { router } = await openEvents();
      const user = userEvent.setup();

      await user.click(screen.getByRole('checkbox', { name: 'Select Holiday camp 2' }));
      await user.click(screen.getByRole('button', { name: 'Availability' }));

      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/events/2/event-availability'));
      expect(await screen.findByRole('heading', { name: 'Availability' })).toBeTruthy();
      // Sessions × days, with booked/capacity, held and waiting.
      expect(
        screen.getByLabelText('4 booked, 1 held, 0 invited, 0 waiting, capacity 10').textContent,
      ).toContain('4/10');
      expect(
        screen.getByLabelText('10 booked, 0 held, 0 invited, 3 waiting, capacity 10').textContent,
      ).toContain('3 waiting');
      expect(screen.getByText('Tue 08/01/2030')).toBeTruthy();
    },
    SLOW,
  );

  it(
    'asks the bulk question, dispatches the selected ids and shows the answer',
    async () => {
      const fetchMock = eventsServer({
        'POST /api/v1/admin/events/dispatch/publish': () =>
          json({ success: true, message: '2 events published.' }),
      });
      await openEvents();
      const user = userEvent.setup();

      await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
      expect(screen.getByText('2 selected')).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'Publish' }));

      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByText('Are you sure you want to perform the selected action?')).toBeTruthy();
      expect(dispatchCalls(fetchMock)).toHaveLength(0);
      await user.click(within(dialog).getByRole('button', { name: 'Publish' }));

      expect(await screen.findByText('2 events published.')).toBeTruthy();
      const [call] = dispatchCalls(fetchMock);
      expect(JSON.parse(String(call?.[1]?.body))).toEqual({ ids: [1, 2], values: {} });
      // Done: the selection is cleared.
      await waitFor(() => expect(screen.getByText('No rows selected')).toBeTruthy());
    },
    SLOW,
  );

  it(
    'does nothing when the confirmation is cancelled',
    async () => {
      const fetchMock = eventsServer();
      await openEvents();
      const user = userEvent.setup();

      await user.click(screen.getByRole('checkbox', { name: 'Select Holiday camp 1' }));
      await user.click(screen.getByRole('button', { name: 'Archive' }));
      await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(dispatchCalls(fetchMock)).toHaveLength(0);
    },
    SLOW,
  );

  it(
    "asks 'Are you sure to delete?' for a row's delete icon and shows the server's refusal",
    async () => {
      const fetchMock = stubServer({
        'GET /rest/acl': () => json(staffAcl()),
        'GET /api/v1/admin/events/meta': () =>
          json(
            eventsMeta({
              deleteMode: 'delete',
              actions: [{ name: 'delete', label: 'Delete', selection: 'many', confirm: 'delete' }],
            }),
          ),
        'GET /api/v1/admin/events': () => json({ data: [eventRow(1)], total: 1 }),
        'POST /api/v1/admin/events/dispatch/delete': () =>
          json({ message: 'This event is in use and cannot be deleted.' }, { status: 409 }),
      });
      await openEvents();
      const user = userEvent.setup();

      await user.click(screen.getByRole('button', { name: 'Delete event Holiday camp 1' }));
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByText('Are you sure to delete?')).toBeTruthy();
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

      expect(await screen.findByText('This event is in use and cannot be deleted.')).toBeTruthy();
      expect(JSON.parse(String(dispatchCalls(fetchMock)[0]?.[1]?.body))).toEqual({ ids: [1], values: {} });
    },
    SLOW,
  );

  it(
    'hides Add, edit and delete from a role that may only read',
    async () => {
      eventsServer({
        'GET /api/v1/admin/events/meta': () =>
          json(
            eventsMeta({ canWrite: false, canCreate: false, canEdit: false, canDelete: false, actions: [] }),
          ),
      });
      await openEvents();

      expect(screen.queryByRole('link', { name: /Add event/ })).toBeNull();
      expect(screen.queryByRole('link', { name: /^Edit event/ })).toBeNull();
      expect(screen.queryByRole('button', { name: /^Archive event/ })).toBeNull();
      expect(screen.getAllByRole('link', { name: /^View event/ })).toHaveLength(2);
    },
    SLOW,
  );

  it(
    'asks for an action’s own values in its dialog and sends them with the ids',
    async () => {
      const move = {
        name: 'swap-session',
        label: 'Swap session',
        selection: 'one' as const,
        confirm: 'swap the session',
        fields: [
          { name: 'to_date', type: 'text' as const, label: 'To day', required: true, readOnly: false },
        ],
      };
      const fetchMock = eventsServer({
        'GET /api/v1/admin/events/meta': () => json(eventsMeta({ actions: [move] })),
        'POST /api/v1/admin/events/dispatch/swap-session': () => json({ success: true, message: 'Moved.' }),
      });
      await openEvents();
      const user = userEvent.setup();
      await user.click(screen.getByRole('checkbox', { name: 'Select Holiday camp 1' }));
      await user.click(screen.getByRole('button', { name: 'Swap session' }));
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByText(messages.confirmSelectedAction)).toBeTruthy();
      await user.type(within(dialog).getByLabelText(/To day/), '2030-01-09');
      await user.click(within(dialog).getByRole('button', { name: 'Swap session' }));
      await waitFor(() => expect(dispatchCalls(fetchMock)).toHaveLength(1));
      expect(JSON.parse(String(dispatchCalls(fetchMock)[0]?.[1]?.body))).toEqual({
        ids: [1],
        values: { to_date: '2030-01-09' },
      });
      expect(await screen.findByText('Moved.')).toBeTruthy();
    },
    SLOW,
  );
});
