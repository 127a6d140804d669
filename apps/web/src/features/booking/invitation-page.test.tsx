import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it } from 'vitest';
import { json, stubServer } from '../../test/render';
import { E, renderBooking } from './booking-test-kit';

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
