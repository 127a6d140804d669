import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AclResponse } from '@tumble/contracts/auth';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

/** A sidebar as the server sends a company administrator: Dashboard, then groups. */
function groupedAcl(): AclResponse {
  const acl = staffAcl();
  acl.navigation.side = [
    { label: 'Dashboard', path: '/admin/dashboard', icon: 'home' },
    { label: 'Events', path: '/admin/events', group: 'Events' },
    { label: 'Party bookings', path: '/admin/party-bookings', group: 'Parties' },
    { label: 'Party slots', path: '/admin/slots', group: 'Parties' },
    { label: 'Parents', path: '/admin/parents', group: 'Families' },
    { label: 'Payments', path: '/admin/payments', group: 'Money' },
    { label: 'Coupons', path: '/admin/coupons', group: 'Money' },
    { label: 'Surcharges', path: '/admin/surcharges', group: 'Money' },
    { label: 'Party report', path: '/admin/reports/birthday-parties', group: 'Reports' },
    { label: 'Venues', path: '/admin/venues', group: 'Settings' },
  ];
  return acl;
}

function open(path: string) {
  stubServer({
    'GET /rest/acl': () => json(groupedAcl()),
    'GET /api/v1/admin/coupons/meta': () => json({ message: 'Not found.' }, { status: 404 }),
  });
  api.setToken('tok');
  return renderApp(path);
}

describe('sidebar', () => {
  it('groups entries by what staff do, with the current page’s group open', async () => {
    open('/admin/coupons');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' }, { timeout: 5000 });

    for (const group of ['Events', 'Parties', 'Families', 'Money', 'Reports', 'Settings'])
      expect(within(nav).getByRole('button', { name: group })).toBeTruthy();
    // Money holds the current page: open, its entries shown; the others closed.
    expect(within(nav).getByRole('link', { name: 'Coupons' }).getAttribute('href')).toBe('/admin/coupons');
    expect(within(nav).getByRole('button', { name: 'Money' }).getAttribute('aria-expanded')).toBe('true');
    expect(within(nav).getByRole('button', { name: 'Parties' }).getAttribute('aria-expanded')).toBe('false');

    await userEvent.setup().click(within(nav).getByRole('button', { name: 'Parties' }));
    expect(within(nav).getByRole('button', { name: 'Parties' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('opens every group on a page of no group (the dashboard)', async () => {
    open('/admin/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' }, { timeout: 5000 });
    for (const group of ['Events', 'Parties', 'Money', 'Settings'])
      expect(within(nav).getByRole('button', { name: group }).getAttribute('aria-expanded')).toBe('true');
  });

  it('jumps to any screen from the keyboard: "/" focuses the search, arrows pick, Enter opens', async () => {
    const { router } = open('/admin/dashboard');
    await screen.findByRole('navigation', { name: 'Main navigation' }, { timeout: 5000 });
    const user = userEvent.setup();

    await user.keyboard('/');
    const search = screen.getByRole('textbox', { name: 'Go to a screen' });
    expect(document.activeElement).toBe(search);
    await user.keyboard('party');
    const found = screen.getByRole('navigation', { name: 'Screens found' });
    expect(
      within(found)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Party bookingsParties', 'Party slotsParties', 'Party reportReports']);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/reports/birthday-parties'));
    expect((search as HTMLInputElement).value).toBe('');
  });
});
