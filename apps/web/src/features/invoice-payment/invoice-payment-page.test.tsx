import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const line = (key: string, label: string, description: string, value: number) => [
  key,
  { label, description, value, formatted: `$${(value / 100).toFixed(2)}` },
];

const invoice = {
  id: 12,
  code: 'INV-000012',
  status: 'issued',
  issued_on: '2026-11-24',
  due_on: '2027-01-10',
  total: 30000,
  paid: 0,
  balance: 30000,
  lines: [{ description: 'Squad term 1', detail: '10 sessions × $30.00', amount: 30000 }],
};

const page = {
  invoice,
  currency: 'AUD',
  plan: [],
  pending_payment: false,
  choices: [
    {
      key: 'full',
      label: 'Pay in full',
      amount_due: 30450,
      pricing_details: Object.fromEntries([
        line('subtotal', 'Invoice INV-000012', 'Balance', 30000),
        line('surcharge', 'Card surcharge', '1.5%', 450),
        line('amount_due', 'To pay now', 'Charged to your card', 30450),
      ]),
      instalments: [],
    },
    {
      key: 'plan_3',
      label: '3 instalments',
      amount_due: 10150,
      pricing_details: Object.fromEntries([
        line('subtotal', 'Instalment 1 of 3', 'Invoice INV-000012', 10000),
        line('surcharge', 'Card surcharge', '1.5%', 150),
        line('amount_due', 'To pay now', 'Charged to your card', 10150),
      ]),
      instalments: [
        { position: 1, due_on: '2026-11-24', amount: 10000, status: 'due' },
        { position: 2, due_on: '2026-12-08', amount: 10000, status: 'due' },
        { position: 3, due_on: '2026-12-22', amount: 10000, status: 'due' },
      ],
    },
  ],
};

describe('a parent pays an invoice (/admin/student/payment)', () => {
  it('chooses a plan of 3, sees its dates and the surcharge, and pays the first instalment by card', async () => {
    const posted: unknown[] = [];
    stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/students/invoice-payment': () => json(page),
      'POST /api/v1/students/invoice-payment/checkout': (_url, init) => {
        posted.push(JSON.parse(String(init.body)));
        return json({ valid: false, message: 'x' }, { status: 409 });
      },
    });
    api.setToken('tok');
    renderApp('/admin/student/payment?invoice=12');

    expect(
      await screen.findByRole('button', { name: 'Pay $304.50 by card' }, { timeout: 5000 }),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: '3 instalments' }));
    expect(await screen.findByText('22/12/2026')).toBeTruthy();
    expect(screen.getByText('Card surcharge')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pay $101.50 by card' }));
    await waitFor(() => expect(posted).toEqual([{ invoice_id: 12, choice: 'plan_3', amount: 10150 }]));
  });

  it('back from the card page: thanks for the instalment paid', async () => {
    stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/students/invoice-payment': () =>
        json({
          ...page,
          invoice: { ...invoice, status: 'part_paid', paid: 10000, balance: 20000 },
          plan: [
            { position: 1, due_on: '2026-11-24', amount: 10000, status: 'paid' },
            { position: 2, due_on: '2026-12-08', amount: 10000, status: 'due' },
            { position: 3, due_on: '2026-12-22', amount: 10000, status: 'due' },
          ],
          choices: [],
        }),
    });
    api.setToken('tok');
    renderApp('/admin/student/payment?invoice=12&status=true');
    expect(
      await screen.findByText('Thank you, instalment 1 of 3 paid.', undefined, { timeout: 5000 }),
    ).toBeTruthy();
  });
});
