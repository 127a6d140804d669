import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { encodeCell } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it } from 'vitest';
import { json, stubServer } from '../../test/render';
import { bookingPageData, chargesData, E, renderBooking, sessionsData } from './booking-test-kit';

const INVITATION = `/events/invitation/confirm/?authhash=H1&w=tok123&e=${E}&b=42`;
const CLOSED = 'This invitation is no longer open.';

function stubInvitation(answers: {
  check: () => Response;
  accept?: () => Response;
  decline?: () => Response;
}) {
  return stubServer({
    'GET /rest/acl': () => json({}, { status: 404 }),
    'GET /api/v1/events/wait-list/invitation/check': answers.check,
    'GET /api/v1/events/wait-list/invitation/accept': answers.accept ?? (() => json({ valid: false })),
    'GET /api/v1/events/wait-list/invitation/decline': answers.decline ?? (() => json({ valid: true })),
  });
}

describe('InvitationPage', () => {
  it('offers Accept and Decline for a valid invitation; Accept goes on to /booking with e and b', async () => {
    const fetchMock = stubInvitation({
      check: () => json({ valid: true }),
      accept: () => json({ valid: true, redirect: `/booking?e=${E}&b=42&authhash=H1` }),
    });
    const { router } = renderBooking(INVITATION);
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Accept' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/booking'));
    expect(router.state.location.search).toBe(`?e=${E}&b=42&authhash=H1`);
    const accept = fetchMock.mock.calls.find(([url]) => String(url).includes('/invitation/accept'));
    expect(String(accept?.[0])).toBe(
      `/api/v1/events/wait-list/invitation/accept?authhash=H1&w=tok123&e=${E}&b=42`,
    );
  });

  it('names the event, session and day; after Accept the booking page has that day chosen (issue 21 point 4)', async () => {
    const cell = encodeCell(1, 11, '2026-01-08');
    stubServer({
      'GET /rest/acl': () => json({}, { status: 404 }),
      'GET /api/v1/events/wait-list/invitation/check': () =>
        json({
          valid: true,
          place: {
            event_name: 'Summer Gymnastics Holiday Camp',
            session_name: 'Morning camp',
            date: '2026-01-08',
            places: 2,
            cell,
          },
        }),
      'GET /api/v1/events/wait-list/invitation/accept': () => json({ valid: true }),
      'GET /api/v1/booking': () => json(bookingPageData()),
      'GET /api/v1/booking/sessions': () => json(sessionsData()),
      'GET /api/v1/calculate-charges-summary': () => json(chargesData()),
    });
    const { router } = renderBooking(INVITATION);
    const user = userEvent.setup();

    const place = within(await screen.findByTestId('invitation-place'));
    expect(place.getByText('Summer Gymnastics Holiday Camp')).toBeTruthy();
    expect(place.getByText('Morning camp · Thu 08/01/2026')).toBeTruthy();
    expect(place.getByText('2 places')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/booking'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      e: E,
      b: '42',
      day: cell,
      quantity: '2',
      authhash: 'H1',
    });
    // Straight to the sessions, two children, the held day chosen.
    await screen.findByTestId('session-calendar');
    expect((screen.getByRole('combobox', { name: 'Number of children' }) as HTMLSelectElement).value).toBe(
      '2',
    );
    const held = screen.getByRole('checkbox', { name: /^Thursday 08\/01\/2026, Morning camp/ });
    expect(held.getAttribute('aria-checked')).toBe('true');
  });

  it("declines, checks again and then shows 'Invitation Confirmed!'", async () => {
    let checks = 0;
    const fetchMock = stubInvitation({
      check: () => json(++checks === 1 ? { valid: true } : { valid: false, message: CLOSED }),
      decline: () => json({ valid: true }),
    });
    renderBooking(INVITATION);
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Decline' }));

    expect(await screen.findByRole('heading', { name: messages.invitationConfirmed })).toBeTruthy();
    expect(screen.getByText(CLOSED)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    const paths = fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://x').pathname);
    expect(paths.filter((p) => p.includes('/invitation/'))).toEqual([
      '/api/v1/events/wait-list/invitation/check',
      '/api/v1/events/wait-list/invitation/decline',
      '/api/v1/events/wait-list/invitation/check',
    ]);
  });

  it("shows 'Invitation Confirmed!' for an invalid invitation, without buttons", async () => {
    stubInvitation({ check: () => json({ valid: false }) });
    renderBooking(INVITATION);

    expect(await screen.findByRole('heading', { name: messages.invitationConfirmed })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Decline' })).toBeNull();
  });

  it("shows 'Invitation Confirmed!' and the server's reason when accepting is no longer possible", async () => {
    stubInvitation({
      check: () => json({ valid: true }),
      accept: () => json({ valid: false, message: CLOSED }),
    });
    const { router } = renderBooking(INVITATION);
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Accept' }));

    expect(await screen.findByRole('heading', { name: messages.invitationConfirmed })).toBeTruthy();
    expect(screen.getByText(CLOSED)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/events/invitation/confirm/');
  });
});
