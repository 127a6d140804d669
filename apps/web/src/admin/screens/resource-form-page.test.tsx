import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { eventForm, eventRow, eventsMeta, sessionForm, sessionsMeta } from '../../test/admin-fixtures';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

type Handlers = Parameters<typeof stubServer>[0];

function eventsServer(extra: Handlers = {}) {
  return stubServer({
    'GET /rest/acl': () => json(staffAcl()),
    'GET /api/v1/admin/events/meta': () => json(eventsMeta()),
    'GET /api/v1/admin/events/add': () => json(eventForm()),
    'GET /api/v1/admin/events': () => json({ data: [], total: 0 }),
    'GET /api/v1/admin/venues/options': () => json([{ value: 3, label: 'Main gym' }]),
    ...extra,
  });
}

function postedBody(fetchMock: ReturnType<typeof stubServer>, path: string): Record<string, unknown> {
  const call = fetchMock.mock.calls.find(
    ([input, init]) => String(input) === path && init?.method === 'POST',
  );
  return JSON.parse(String(call?.[1]?.body));
}

async function open(path: string, heading: string) {
  api.setToken('tok');
  const view = renderApp(path);
  await screen.findByRole('heading', { name: heading }, { timeout: 5000 });
  return view;
}

const input = (label: RegExp | string) => screen.getByRole('textbox', { name: label }) as HTMLInputElement;

// Typing into date pickers and autosizing text areas is slow in jsdom.
const SLOW = 20_000;

describe('resource form', () => {
  it(
    'marks required fields and shows the stored values: money as dollars, dates as DD/MM/YYYY',
    async () => {
      eventsServer({
        'GET /api/v1/admin/events/1': () => json(eventRow(1)),
        'GET /api/v1/admin/events/1/edit': () =>
          json(
            eventForm({
              name: 'Holiday camp',
              venue_id: 3,
              start_date: '2025-12-24',
              end_date: '2026-01-09',
              booking_fee: 1250,
            }),
          ),
      });
      await open('/admin/events/1/edit', 'Edit Event');

      expect(input(/^Name/).value).toBe('Holiday camp');
      expect(input(/^Booking fee/).value).toBe('$12.50');
      expect(input(/^Start date/).value).toBe('24/12/2025');
      expect(input(/^End date/).value).toBe('09/01/2026');
      expect(screen.getByRole('combobox', { name: /^Venue/ })).toHaveProperty('value', 'Main gym');
      // Required fields carry the asterisk; optional ones do not.
      expect(screen.getByText('Name').closest('label')?.textContent).toContain('*');
      expect(screen.getByText('Start date').closest('label')?.textContent).toContain('*');
      expect(screen.getByText('Introduction').closest('label')?.textContent).not.toContain('*');
    },
    SLOW,
  );

  it(
    'posts money in cents and dates as YYYY-MM-DD, then shows info and follows redirect',
    async () => {
      const fetchMock = eventsServer({
        'POST /api/v1/admin/events': () =>
          json({
            valid: true,
            redirect: '/admin/events',
            info: { title: 'Saved', message: 'The event has been saved.' },
          }),
      });
      const { router } = await open('/admin/events/add', 'Add Event');
      const user = userEvent.setup();

      await user.type(input(/^Name/), 'Ninja week');
      await user.type(input(/^Start date/), '05/01/2026');
      await user.type(input(/^End date/), '9/1/2026');
      await user.clear(input(/^Booking fee/));
      await user.type(input(/^Booking fee/), '12.5');
      await user.click(screen.getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/events'));
      expect(await screen.findByText('The event has been saved.')).toBeTruthy();
      expect(postedBody(fetchMock, '/api/v1/admin/events')).toEqual({
        name: 'Ninja week',
        venue_id: null,
        start_date: '2026-01-05',
        end_date: '2026-01-09',
        intro: null,
        booking_fee: 1250,
        published: false,
      });
    },
    SLOW,
  );

  it(
    'shows error.html_message at the top and marks each field of error.element with its messages',
    async () => {
      eventsServer({
        'POST /api/v1/admin/events': () =>
          json({
            valid: false,
            error: {
              html_message: '<p>Please correct the errors below.</p>',
              element: [
                { name: 'name', messages: ['Name is required.'] },
                { name: 'end_date', messages: ['End date must be on or after the start date.'] },
              ],
            },
          }),
      });
      const { router } = await open('/admin/events/add', 'Add Event');
      const user = userEvent.setup();

      await user.click(screen.getByRole('button', { name: 'Save' }));

      const summary = await screen.findByTestId('form-summary');
      expect(summary.textContent).toBe('Please correct the errors below.');
      // The summary comes before the fields.
      expect(summary.compareDocumentPosition(input(/^Name/)) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      expect(input(/^Name/).getAttribute('aria-invalid')).toBe('true');
      expect(screen.getByText('Name is required.')).toBeTruthy();
      expect(input(/^End date/).getAttribute('aria-invalid')).toBe('true');
      expect(screen.getByText('End date must be on or after the start date.')).toBeTruthy();
      expect(input(/^Start date/).getAttribute('aria-invalid')).not.toBe('true');
      expect(router.state.location.pathname).toBe('/admin/events/add');

      // Correcting a field clears its mark.
      await user.type(input(/^Name/), 'Camp');
      expect(input(/^Name/).getAttribute('aria-invalid')).not.toBe('true');
    },
    SLOW,
  );

  it(
    'counts down the characters left in a text area',
    async () => {
      eventsServer();
      await open('/admin/events/add', 'Add Event');
      const user = userEvent.setup();

      expect(screen.getByText('600 characters left')).toBeTruthy();
      await user.type(screen.getByRole('textbox', { name: /^Introduction/ }), 'Fun days');
      expect(screen.getByText('592 characters left')).toBeTruthy();
      expect(screen.getByRole('textbox', { name: /^Introduction/ }).getAttribute('maxlength')).toBe('600');
    },
    SLOW,
  );

  it(
    'shows at most 3 names in a multi-select, then "+N more"',
    async () => {
      const fetchMock = stubServer({
        'GET /rest/acl': () => json(staffAcl()),
        'GET /api/v1/admin/events/meta': () => json(eventsMeta()),
        'GET /api/v1/admin/events/1': () => json(eventRow(1)),
        'GET /api/v1/admin/events/1/sessions/meta': () => json(sessionsMeta()),
        'GET /api/v1/admin/events/1/sessions/add': () =>
          json(sessionForm({ days_of_week: ['1', '2', '3', '4', '5'] })),
        'POST /api/v1/admin/events/1/sessions': () =>
          json({ valid: true, redirect: '/admin/events/1/sessions' }),
        'GET /api/v1/admin/events/1/sessions': () => json({ data: [], total: 0 }),
      });
      await open('/admin/events/1/sessions/add', 'Add Session');
      const user = userEvent.setup();

      const field = screen.getByText('Runs on').closest('.mantine-InputWrapper-root') as HTMLElement;
      expect(within(field).getByText('Monday')).toBeTruthy();
      expect(within(field).getByText('Tuesday')).toBeTruthy();
      expect(within(field).getByText('Wednesday')).toBeTruthy();
      expect(within(field).queryByText('Thursday')).toBeNull();
      expect(within(field).queryByText('Friday')).toBeNull();
      expect(within(field).getByText('+2 more')).toBeTruthy();

      await user.click(within(field).getByLabelText('Remove Monday'));
      expect(within(field).getByText('Thursday')).toBeTruthy();
      expect(within(field).getByText('+1 more')).toBeTruthy();

      await user.type(input(/^Name/), 'Morning');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await waitFor(() =>
        expect(postedBody(fetchMock, '/api/v1/admin/events/1/sessions').days_of_week).toEqual([
          '2',
          '3',
          '4',
          '5',
        ]),
      );
    },
    SLOW,
  );

  it(
    `says '${messages.formLoadFailed}' when the form definition cannot be loaded`,
    async () => {
      eventsServer({
        'GET /api/v1/admin/events/9': () => json({ message: 'Not found.' }, { status: 404 }),
        'GET /api/v1/admin/events/9/edit': () => json({ message: 'Not found.' }, { status: 404 }),
      });
      api.setToken('tok');
      renderApp('/admin/events/9/edit');

      expect(await screen.findByText(messages.formLoadFailed, {}, { timeout: 5000 })).toBeTruthy();
    },
    SLOW,
  );
});
