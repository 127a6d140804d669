import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@tumble/contracts/messages';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../api/client';
import { staffAcl } from '../test/fixtures';
import { json, renderApp, stubServer } from '../test/render';

/**
 * A signed-in staff member who opens a parent's checkout link (issue 21 point 13): the page says it
 * is for parents and offers a parent sign-in, instead of ending the session as "expired".
 */
describe('ParentsOnly with a staff session', () => {
  it('says the page is for parents, keeps the session, and signs in as a parent on request', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const fetchMock = stubServer({
      'GET /rest/acl': () => json(staffAcl({ role: 'companystaff' })),
      'POST /rest/logout': () => new Response(null, { status: 204 }),
    });
    api.setToken('staff-token');
    const { router } = renderApp('/birthday-party/booking/checkout?authhash=H13');

    expect(
      await screen.findByRole('heading', { name: 'This page is for parents' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByText(/signed in with a staff account \(Staff\)/)).toBeTruthy();
    expect(screen.queryByText(messages.sessionExpired)).toBeNull();
    expect(alert).not.toHaveBeenCalled();
    expect(api.getToken()).toBe('staff-token');
    // No parent-only call was made with the staff session: only the user's meta and the company's
    // public branding (the public layout asks whether the company is closed).
    expect(
      new Set(fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://x').pathname)),
    ).toEqual(new Set(['/rest/acl']));

    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in as a parent' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/students/login'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('authhash')).toBe('H13');
    expect(params.get('redirect')).toBe('/birthday-party/booking/checkout?authhash=H13');
    expect(api.getToken()).toBeNull();
  }, 20_000);
});
