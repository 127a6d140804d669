import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type MailingStatus, mailingMessages } from '@tumble/contracts/integrations';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const path = '/api/v1/admin/integrations/mailing';
const notConnected: MailingStatus = {
  state: 'not_connected',
  method: null,
  account: null,
  connected_at: null,
  audience: null,
  oauth_available: false,
  last_sync_at: null,
  last_error: null,
  subscribed: 0,
  unsubscribed: 0,
  failed: [],
};
const connected: MailingStatus = {
  ...notConnected,
  state: 'connected',
  method: 'api_key',
  account: 'Bounce Gym',
  connected_at: '2030-01-01T00:00:00.000Z',
  audience: { id: 'abc', name: 'Families' },
  last_sync_at: '2030-02-01T01:00:00.000Z',
  last_error: '1 family could not be sent to Mailchimp: see below.',
  subscribed: 41,
  unsubscribed: 2,
  failed: [{ family: 'Dee Bad', email: 'dee@bad.invalid', error: 'dee@bad.invalid looks fake or invalid.' }],
};

describe('Mailing page', () => {
  it('checks the key before sending it, then shows the connection, its trouble and the refused family', async () => {
    const bodies: unknown[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      [`GET ${path}`]: () => json(bodies.length ? connected : notConnected),
      [`GET ${path}/audiences`]: () => json({ audiences: [{ id: 'abc', name: 'Families', members: 41 }] }),
      [`POST ${path}/connect`]: (_url, init) => {
        bodies.push(JSON.parse(String(init.body)));
        return json(connected);
      },
    });
    api.setToken('tok');
    renderApp('/admin/integrations/mailing');

    await screen.findByRole('heading', { level: 1, name: 'Mailing' }, { timeout: 10_000 });
    const key = await screen.findByLabelText('API key');
    fireEvent.change(key, { target: { value: 'not a key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByText(/it ends with your data centre/);
    expect(bodies).toEqual([]);
    // No Mailchimp app on the installation: no login button.
    expect(screen.queryByRole('button', { name: 'Connect with Mailchimp login' })).toBeNull();

    fireEvent.change(key, { target: { value: '0123456789abcdef0123456789abcdef-us6' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(bodies).toEqual([{ api_key: '0123456789abcdef0123456789abcdef-us6' }]));
    await screen.findAllByText(mailingMessages.connected);
    expect(await screen.findByText('Bounce Gym', { selector: 'strong' })).toBeTruthy();
    expect(screen.getByText('1 family could not be sent to Mailchimp: see below.')).toBeTruthy();
    const refused = screen.getByRole('table', { name: 'Not sent to Mailchimp' });
    expect(within(refused).getByText('Dee Bad')).toBeTruthy();
    expect(within(refused).getByText('dee@bad.invalid looks fake or invalid.')).toBeTruthy();
    expect(screen.getByText(/41 subscribed · 2\s+unsubscribed/)).toBeTruthy();
  }, 20_000);
});
