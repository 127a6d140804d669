import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type AccountingStatus, accountingDefaults } from '@tumble/contracts/accounting';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const path = '/api/v1/admin/integrations/accounting';
const connected: AccountingStatus = {
  settings: { ...accountingDefaults, sync_from: '2030-01-01' },
  connection: {
    state: 'connected',
    organisation: 'Bounce Gym Pty Ltd',
    connected_at: '2030-01-01T00:00:00.000Z',
    available: true,
  },
  last_sync_at: '2030-02-01T01:00:00.000Z',
  last_error: '1 record could not be sent to Xero: see below.',
  synced: 12,
  failed: [
    {
      kind: 'invoice',
      label: 'INV-000042',
      error: "Account code '999' is not a valid code for this document.",
      updated_at: '2030-02-01T01:00:00.000Z',
    },
  ],
};

describe('Accounting page', () => {
  it("shows the connection, the last sync's trouble in plain words and the refused record; Sync now; saves the codes it checked", async () => {
    const bodies: unknown[] = [];
    let syncs = 0;
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      [`GET ${path}`]: () => json(connected),
      [`POST ${path}/sync`]: () => {
        syncs++;
        return json({ sent: 3, failed: 0, message: 'Sent 3 records to Xero.' });
      },
      [`POST ${path}`]: (_url, init) => {
        bodies.push(JSON.parse(String(init.body)));
        return json(connected);
      },
    });
    api.setToken('tok');
    renderApp('/admin/integrations/accounting');

    await screen.findByRole('heading', { level: 1, name: 'Accounting' }, { timeout: 10_000 });
    expect(await screen.findByText('Connected', { selector: '.mantine-Badge-label' })).toBeTruthy();
    expect(screen.getByText('Bounce Gym Pty Ltd')).toBeTruthy();
    expect(screen.getByText('1 record could not be sent to Xero: see below.')).toBeTruthy();
    const refused = screen.getByRole('table', { name: 'Not sent to Xero' });
    expect(within(refused).getByText('Invoice INV-000042')).toBeTruthy();
    expect(
      within(refused).getByText("Account code '999' is not a valid code for this document."),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    await screen.findByText('Sent 3 records to Xero.');
    expect(syncs).toBe(1);

    // A code Xero would not take is refused here first, with its message; nothing is sent.
    const sales = screen.getByRole('textbox', { name: 'Sales account' });
    fireEvent.change(sales, { target: { value: '2 0 0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(/Please enter an account code as it appears in Xero/);
    expect(bodies).toEqual([]);
    fireEvent.change(sales, { target: { value: '4000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ ...accountingDefaults, sales_account_code: '4000', sync_from: '2030-01-01' });
  }, 20_000);
});
