import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { studentAcl } from '../../test/fixtures';
import { json, stubServer } from '../../test/render';
import { guestDefinition, renderParty } from './party-test-kit';
import { LOAD_FAILURE_REDIRECT_MS } from './update-guest-page';

const PAGE = '/birthday-party/update-guest/?id=REF123&authhash=H1';
const GUEST_API = '/api/v1/birthday-party/update-guest';

type Handler = Parameters<typeof stubServer>[0][string];

function stubGuests(handlers: Record<string, Handler> = {}) {
  return stubServer({
    'GET /rest/acl': () => json(studentAcl()),
    [`GET ${GUEST_API}`]: () => json(guestDefinition()),
    ...handlers,
  });
}

const calls = (fetchMock: ReturnType<typeof stubServer>, method: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) =>
      new URL(String(url), 'http://x').pathname === GUEST_API && (init?.method ?? 'GET') === method,
  );

beforeEach(() => {
  api.setToken('tok');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('UpdateGuestPage', () => {
  it('sends a signed-out visitor to student login with a redirect back', async () => {
    api.clearSession();
    stubGuests();
    const { router } = renderParty(PAGE);

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/students/login'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      authhash: 'H1',
      redirect: PAGE,
    });
  });

  it('loads the form definition of the booking and shows 10 guest rows with saved values', async () => {
    const fetchMock = stubGuests();
    renderParty(PAGE);

    expect(await screen.findByRole('heading', { name: 'Guests for 07/03/2026 (up to 12)' })).toBeTruthy();
    expect(calls(fetchMock, 'GET')[0]?.[0]).toBe(`${GUEST_API}?id=REF123&count=10&authhash=H1`);
    expect(screen.getAllByTestId('guest-row')).toHaveLength(10);
    expect((screen.getByLabelText('Guest 1: Child’s name') as HTMLInputElement).value).toBe('Ollie');
    expect((screen.getByLabelText('Guest 1: Parent’s email') as HTMLInputElement).type).toBe('email');
    expect((screen.getByLabelText('Guest 10: Parent’s phone') as HTMLInputElement).type).toBe('tel');
    // jsdom matches no media query: the phone layout, one card per guest with its own labels.
    const guest2 = within(screen.getByRole('region', { name: 'Guest 2' }));
    expect(guest2.getByText('Parent’s name')).toBeTruthy();
  });

  it('from 769px shows the guests as one table row each under one header', async () => {
    const matchMedia = window.matchMedia;
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({ ...matchMedia(query), matches: true }));
    stubGuests();
    renderParty(PAGE);

    const table = within(await screen.findByTestId('guest-table'));
    expect(table.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Guest',
      'Child’s name',
      'Parent’s name',
      'Parent’s email',
      'Parent’s phone',
    ]);
    expect(table.getAllByTestId('guest-row')).toHaveLength(10);
    expect((table.getByLabelText('Guest 1: Parent’s name') as HTMLInputElement).value).toBe('Sam');
  });

  it('saves the guests and shows the confirmation', async () => {
    const fetchMock = stubGuests({
      [`POST ${GUEST_API}`]: () =>
        json({ valid: true, info: { title: 'Guests saved', message: '1 invitation was sent.' } }),
    });
    renderParty(PAGE);
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText('Guest 2: Child’s name'), 'Isla');
    await user.type(screen.getByLabelText('Guest 2: Parent’s email'), 'kim@example.test');
    await user.click(screen.getByRole('button', { name: 'Save guests' }));

    const status = await screen.findByRole('status');
    expect(within(status).getByText('Guests saved')).toBeTruthy();
    expect(within(status).getByText('1 invitation was sent.')).toBeTruthy();
    const [url, init] = calls(fetchMock, 'POST')[0] ?? [];
    expect(url).toBe(`${GUEST_API}?id=REF123&authhash=H1`);
    const body = JSON.parse(String(init?.body));
    expect(Object.keys(body)).toHaveLength(40);
    expect(body).toMatchObject({
      guest_1_child_name: 'Ollie',
      guest_1_parent_email: 'sam@example.test',
      guest_2_child_name: 'Isla',
      guest_2_parent_email: 'kim@example.test',
      guest_3_child_name: '',
    });
  });

  it('shows html_message at the top and marks each field in error.element', async () => {
    stubGuests({
      [`POST ${GUEST_API}`]: () =>
        json({
          valid: false,
          error: {
            html_message: 'Please enter the child’s name.',
            element: [
              { name: 'guest_2_child_name', messages: ['Please enter the child’s name.'] },
              { name: 'guest_2_parent_email', messages: ['Please enter a valid email address.'] },
            ],
          },
        }),
    });
    renderParty(PAGE);
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText('Guest 2: Parent’s email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Save guests' }));

    expect((await screen.findByTestId('form-summary')).textContent).toBe('Please enter the child’s name.');
    const guest2 = within(screen.getByRole('region', { name: 'Guest 2' }));
    expect(guest2.getByLabelText('Guest 2: Child’s name').getAttribute('aria-invalid')).toBe('true');
    expect(guest2.getByText('Please enter a valid email address.')).toBeTruthy();
    expect(screen.getByLabelText('Guest 1: Child’s name').getAttribute('aria-invalid')).not.toBe('true');
  });

  it.each([
    [
      'the server message',
      () => json({ message: 'This party booking could not be found.' }, { status: 404 }),
      'This party booking could not be found.',
    ],
    ['the load failure message', () => json({}, { status: 500 }), messages.updateGuestLoadFailed],
  ])(
    'shows %s when the form cannot load, then goes to /admin',
    async (_, answer, text) => {
      stubGuests({ [`GET ${GUEST_API}`]: answer });
      const { router } = renderParty(PAGE);

      expect((await screen.findByRole('alert')).textContent).toBe(text);
      expect(router.state.location.pathname).toBe('/birthday-party/update-guest/');

      // A short delay, so the parent can read why.
      await new Promise((resolve) => setTimeout(resolve, LOAD_FAILURE_REDIRECT_MS / 2));
      expect(router.state.location.pathname).toBe('/birthday-party/update-guest/');
      await waitFor(() => expect(router.state.location.pathname).toBe('/admin'), {
        timeout: LOAD_FAILURE_REDIRECT_MS,
      });
    },
    15_000,
  );
});
