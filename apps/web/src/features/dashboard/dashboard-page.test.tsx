import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

describe('dashboard', () => {
  it('says only what the product does for this role: no classes or terms that do not exist yet', async () => {
    const acl = staffAcl();
    acl.navigation.side = [
      { label: 'Dashboard', path: '/admin/dashboard' },
      { label: 'Events', path: '/admin/events', group: 'Events' },
      { label: 'Party bookings', path: '/admin/party-bookings', group: 'Parties' },
      { label: 'Parents', path: '/admin/parents', group: 'Families' },
    ];
    stubServer({ 'GET /rest/acl': () => json(acl) });
    api.setToken('tok');
    renderApp('/admin/dashboard');

    const text = await screen.findByText(/Use the menu/, {}, { timeout: 5000 });
    expect(text.textContent).toBe(
      'Welcome to Bounce Gym. Use the menu to work with events and their bookings, birthday parties and parents.',
    );
    expect(text.textContent).not.toMatch(/class|term|student/i);
  });
});
