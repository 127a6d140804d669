import { screen, within } from '@testing-library/react';
import type { IntegrationsResponse } from '@tumble/contracts/integrations';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const integrations: IntegrationsResponse = {
  integrations: [
    {
      kind: 'accounting',
      name: 'Accounting',
      description: 'Invoices sent to Xero.',
      state: 'error',
      detail: 'Xero: Bounce Gym Pty Ltd',
      last_sync_at: '2030-02-01T01:00:00.000Z',
      last_error: 'Xero no longer accepts the connection: connect again.',
      page: '/admin/integrations/accounting',
    },
    {
      kind: 'mailing',
      name: 'Mailing',
      description: 'Families in a Mailchimp audience.',
      state: 'not_connected',
      detail: null,
      last_sync_at: null,
      last_error: null,
      page: '/admin/integrations/mailing',
    },
    {
      kind: 'google',
      name: 'Google calendar',
      description: 'Calendar feeds.',
      state: 'connected',
      detail: '3 calendar feeds',
      last_sync_at: null,
      last_error: null,
      page: '/admin/integrations/google',
    },
    {
      kind: 'payments',
      name: 'Payments',
      description: 'The card payment provider.',
      state: 'not_configured',
      detail: 'Stripe is not set up on this installation.',
      last_sync_at: null,
      last_error: null,
      page: '/admin/payment-methods',
    },
  ],
};

describe('Integrations page', () => {
  it("shows each connection's state, the last error in plain words and a link to its own page", async () => {
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/integrations': () => json(integrations),
    });
    api.setToken('tok');
    renderApp('/admin/integrations');

    await screen.findByRole('heading', { level: 1, name: 'Integrations' }, { timeout: 10_000 });
    const accounting = await screen.findByRole('region', { name: 'Accounting' });
    expect(within(accounting).getByText('Needs attention')).toBeTruthy();
    expect(
      within(accounting).getByText('Xero no longer accepts the connection: connect again.'),
    ).toBeTruthy();
    expect(within(accounting).getByRole('link', { name: 'Manage Xero' }).getAttribute('href')).toBe(
      '/admin/integrations/accounting',
    );
    const mailing = screen.getByRole('region', { name: 'Mailing' });
    expect(within(mailing).getByText('Not connected')).toBeTruthy();
    expect(within(mailing).getByRole('link', { name: 'Connect Mailchimp' }).getAttribute('href')).toBe(
      '/admin/integrations/mailing',
    );
    const google = screen.getByRole('region', { name: 'Google calendar' });
    expect(within(google).getByText('3 calendar feeds')).toBeTruthy();
    expect(within(google).getByRole('link', { name: 'Manage calendar feeds' })).toBeTruthy();
    const payments = screen.getByRole('region', { name: 'Payments' });
    expect(within(payments).getByText('Not set up')).toBeTruthy();
    expect(within(payments).getByRole('link', { name: 'Set up payments' })).toBeTruthy();
  }, 20_000);
});
