import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const options = {
  today: '2026-11-24',
  currency: 'AUD',
  family: { id: 40, name: 'Pat Parent', email: 'parent@demo.test' },
  credit_balance: 0,
  invoices: [
    {
      id: 7,
      code: 'INV-000007',
      issued_on: '2026-11-01',
      due_on: '2026-11-15',
      total: 3000,
      balance: 3000,
      status: 'overdue',
    },
    {
      id: 9,
      code: 'INV-000009',
      issued_on: '2026-11-10',
      due_on: '2026-12-01',
      total: 5000,
      balance: 5000,
      status: 'issued',
    },
  ],
  parties: [],
  selected: { invoice_id: null, party_booking_id: null },
};

describe('record a payment (/admin/payments/record)', () => {
  it('says what the payment pays and what is kept as credit before saving, then shows the field messages the server sends', async () => {
    const posted: unknown[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/payments/record/options': () => json(options),
      'GET /api/v1/admin/parents/options': () => json([{ value: 40, label: 'Pat Parent' }]),
      'POST /api/v1/admin/payments/record': (_url, init) => {
        posted.push(JSON.parse(String(init.body)));
        const message = 'Please enter the bank transfer’s reference.';
        return json(
          { message, valid: false, error: { element: [{ name: 'reference', messages: [message] }] } },
          { status: 400 },
        );
      },
    });
    api.setToken('tok');
    renderApp('/admin/payments/record?family=40');

    expect(await screen.findByText('INV-000007', undefined, { timeout: 5000 })).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Amount' }), { target: { value: '100' } });
    // Both open invoices are ticked: $30 and $50 paid oldest first, $20 kept as credit.
    expect(await screen.findByText('$20.00 will be kept as credit')).toBeTruthy();
    expect(screen.getByText('$30.00 on INV-000007')).toBeTruthy();
    expect(screen.getByText('$50.00 on INV-000009')).toBeTruthy();

    // The client schema asks for the transfer's reference before anything is sent.
    fireEvent.click(screen.getByRole('combobox', { name: /Method/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Bank transfer' }));
    fireEvent.click(screen.getByRole('button', { name: 'Record payment' }));
    expect(await screen.findByText('Please enter the bank transfer’s reference.')).toBeTruthy();
    expect(posted).toEqual([]);

    // The server's 400 lands on its field too.
    fireEvent.change(screen.getByRole('textbox', { name: /Reference/ }), { target: { value: ' x ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Record payment' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({
      parent_id: 40,
      method: 'bank_transfer',
      amount: 10000,
      invoice_ids: [7, 9],
    });
    expect(await screen.findByText('Please enter the bank transfer’s reference.')).toBeTruthy();
  });
});
