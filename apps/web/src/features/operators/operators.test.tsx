import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { companySignInMessages } from '@tumble/contracts/auth';
import type { CustomerDetail } from '@tumble/contracts/operators';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

/** Pages load lazily: on a busy machine the first render takes seconds (as other page tests allow). */
const LOAD = { timeout: 10_000 };
const SLOW = 30_000;

const operatorAcl = () => ({
  ...staffAcl({ role: 'operator', company_name: 'Tumble installation', company_id: 1 }),
  name: 'Olive Operator',
  navigation: { side: [{ label: 'Customers', path: '/admin/customers' }], top: [] },
});

const pending: CustomerDetail = {
  id: 9,
  name: 'Flip Out',
  status: 'pending',
  status_reason: null,
  plan: null,
  subscription_status: null,
  trial_ends_at: null,
  currency: 'AUD',
  authhash: 'flip',
  usage: {
    children: 12,
    staff: 3,
    bookings_this_month: 4,
    revenue_this_month: 18000,
    storage_bytes: 2_500_000,
  },
  contact: { name: 'Fay Flip', email: 'fay@flip.test', phone: null },
  created_at: '2026-11-20T01:00:00.000Z',
  history: [],
};

describe('operator pages', () => {
  it(
    'lands an operator from /admin on Customers with each company’s status, plan and usage',
    async () => {
      stubServer({
        'GET /rest/acl': () => json(operatorAcl()),
        'GET /api/v1/operators/customers': () => json({ customers: [pending] }),
      });
      api.setToken('tok');
      // As after sign-in (or a reload): the stored user meta says who is signed in.
      api.setUserMeta({ role: 'operator', companyId: 1 });
      const { router } = renderApp('/admin');

      expect(await screen.findByRole('heading', { name: 'Customers' }, LOAD)).toBeTruthy();
      expect(router.state.location.pathname).toBe('/admin/customers');
      expect(screen.getByText('1 company is waiting for approval.')).toBeTruthy();
      const row = screen.getAllByText('Flip Out')[0]!.closest('tr')!;
      expect(within(row).getByText('Pending')).toBeTruthy();
      expect(within(row).getAllByText('—')).toHaveLength(2);
      expect(within(row).getByText('$180.00')).toBeTruthy();
      expect(within(row).getByText('2.4 MB')).toBeTruthy();
    },
    SLOW,
  );

  it(
    'approves a pending company, and asks a reason before opening it as support',
    async () => {
      let supportBody: unknown = null;
      const fetchMock = stubServer({
        'GET /rest/acl': () => json(operatorAcl()),
        'GET /api/v1/operators/customers/9': () => json(pending),
        'POST /api/v1/operators/customers/9/approve': () =>
          json({
            ...pending,
            status: 'active',
            history: [
              {
                at: '2026-11-24T00:00:00.000Z',
                actor: 'Olive Operator (operator)',
                action: 'approve',
                summary: 'status: pending → active',
              },
            ],
          }),
        'POST /api/v1/operators/customers/9/support': (_url, init) => {
          supportBody = JSON.parse(String(init.body));
          return json({ company_name: 'Flip Out', until: '2026-11-24T02:00:00.000Z' });
        },
      });
      api.setToken('tok');
      renderApp('/admin/customers/9');
      const user = userEvent.setup();

      await user.click(await screen.findByRole('button', { name: 'Approve' }, LOAD));
      expect(await screen.findByRole('button', { name: 'Suspend' })).toBeTruthy();
      expect(screen.getByText('Active')).toBeTruthy();

      await user.click(screen.getByRole('button', { name: 'Open as support' }));
      const dialog = await screen.findByRole('dialog');
      await user.click(within(dialog).getByRole('button', { name: 'Open as support' }));
      expect(
        await within(dialog).findByText('A reason is required to open a company as support.'),
      ).toBeTruthy();
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/support'))).toBe(false);

      await user.type(within(dialog).getByLabelText(/reason/i), 'Ticket 42');
      await user.click(within(dialog).getByRole('button', { name: 'Open as support' }));
      await waitFor(() => expect(supportBody).toEqual({ reason: 'Ticket 42' }));
    },
    SLOW,
  );

  it(
    'shows the support banner with End while an operator is inside a company',
    async () => {
      let ended = false;
      stubServer({
        'GET /rest/acl': () =>
          json(
            ended
              ? operatorAcl()
              : staffAcl({
                  support: {
                    company_name: 'Bounce Gym',
                    reason: 'Ticket 42',
                    until: '2026-11-24T02:00:00.000Z',
                  },
                }),
          ),
        'POST /api/v1/operators/support/end': () => {
          ended = true;
          return new Response(null, { status: 204 });
        },
        'GET /api/v1/operators/customers/7': () =>
          json({ ...pending, id: 7, name: 'Bounce Gym', status: 'active' }),
      });
      api.setToken('tok');
      const { router } = renderApp('/admin/dashboard');
      const banner = await screen.findByRole('status', { name: 'Support access' }, LOAD);
      expect(banner.textContent).toContain('Support access to Bounce Gym — Ticket 42');
      await userEvent.setup().click(within(banner).getByRole('button', { name: 'End' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/customers/7'));
      await waitFor(() => expect(screen.queryByRole('status', { name: 'Support access' })).toBeNull());
    },
    SLOW,
  );

  it(
    'shows "Bookings are closed" on a suspended company’s public booking page',
    async () => {
      stubServer({
        'GET /rest/acl': () =>
          json(
            { message: 'Bookings with Flip Out are closed at the moment.', reason: 'company_closed' },
            { status: 410 },
          ),
        'GET /api/v1/booking': () =>
          json(
            { message: 'Bookings with Flip Out are closed at the moment.', reason: 'company_closed' },
            { status: 410 },
          ),
      });
      renderApp('/booking?e=abc&authhash=flip');
      expect(await screen.findByRole('heading', { name: 'Bookings are closed' }, LOAD)).toBeTruthy();
      expect(screen.getByText('Bookings with Flip Out are closed at the moment.')).toBeTruthy();
    },
    SLOW,
  );

  it(
    'shows "Bookings are closed" instead of a suspended company’s parent sign-in and sign-up',
    async () => {
      const closed = () =>
        json(
          { message: 'Bookings with Flip Out are closed at the moment.', reason: 'company_closed' },
          { status: 410 },
        );
      stubServer({ 'GET /rest/acl': closed });
      for (const path of ['/admin/students/login?authhash=flip', '/admin/students/signup?authhash=flip']) {
        const view = renderApp(path);
        expect(await screen.findByRole('heading', { name: 'Bookings are closed' }, LOAD), path).toBeTruthy();
        expect(screen.queryByRole('button', { name: 'Sign In' })).toBeNull();
        view.unmount();
      }
    },
    SLOW,
  );

  it(
    'tells the staff of a company waiting for approval why they cannot sign in',
    async () => {
      stubServer({ 'POST /rest': () => json({ message: companySignInMessages.pending }, { status: 401 }) });
      renderApp('/admin/login');
      const user = userEvent.setup();
      await user.type(await screen.findByLabelText(/email address/i, undefined, LOAD), 'nora@newgym.test');
      await user.type(screen.getByLabelText(/^password/i), 'a long company passphrase');
      await user.click(screen.getByRole('button', { name: 'Sign In' }));
      await waitFor(() =>
        expect(
          screen.getAllByRole('alert').some((a) => a.textContent?.includes(companySignInMessages.pending)),
        ).toBe(true),
      );
    },
    SLOW,
  );
});
