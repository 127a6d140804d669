import { screen, within } from '@testing-library/react';
import type { FamilyPayments, FamilyStatement } from '@tumble/contracts/statement';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const emptyStatement: FamilyStatement = {
  family: { id: 7, name: 'Pat Parent', email: 'pat@example.test' },
  currency: 'AUD',
  today: '2026-11-26',
  owing: 0,
  overdue: 0,
  credit: 0,
  saved_card: null,
  invoices: [],
  from: null,
  to: null,
  opening_balance: 0,
  entries: [],
  closing_balance: 0,
};

/** Class and private lesson payments name what they bought at length (features/students/account.service.ts). */
const payments: FamilyPayments = [
  {
    id: 41,
    description:
      'Kinder Gym Tuesday 4:00pm for Mia, Leo; Ninja Saturday 9:00am (trial) for Mia (booking EN-7K2QX)',
    amount: 38570,
    status: 'paid',
    method: 'card',
    method_label: 'Test card',
    reference: null,
    provider: 'test',
    paid_at: '2026-11-24T00:21:57.612Z',
    paid_on: '2026-11-24',
    refunds: [],
    receipt_url: '/api/v1/students/payments/41/receipt',
  },
];

/** A payment staff took at the desk, and a card payment partly refunded to the card. */
const deskAndRefund: FamilyPayments = [
  {
    id: 52,
    description: 'Birthday party balance, 12/12/2026 (booking BP-4KX9Q)',
    amount: 15000,
    status: 'paid',
    method: 'cash',
    method_label: 'Cash',
    reference: 'Till 2',
    provider: 'cash',
    paid_at: '2026-11-25T01:00:00.000Z',
    paid_on: '2026-11-25',
    refunds: [],
    receipt_url: '/api/v1/students/payments/52/receipt',
  },
  {
    ...payments[0]!,
    description: 'Invoice INV-000007',
    refunds: [
      {
        id: 3,
        date: '2026-11-26',
        amount: 2000,
        destination: 'card',
        status: 'pending',
        reason: 'Missed class',
      },
    ],
  },
];

describe('/admin/students/payments with a long description', () => {
  it('keeps the whole status word beside it (the table squeezed the badge to "PA…")', async () => {
    stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/students/payments': () => json(payments),
    });
    api.setToken('parent-token');
    renderApp('/admin/students/payments');

    const row = within(await screen.findByRole('row', { name: /Kinder Gym Tuesday/ }, { timeout: 5000 }));
    const badge = row.getByText('Paid').closest<HTMLElement>('.mantine-Badge-root');
    expect(badge?.style.minWidth).toBe('max-content');
  });
});

describe('/admin/students/payments with desk payments, refunds and credit', () => {
  it('says how each was paid, shows the refund and the credit', async () => {
    stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/students/payments': () => json(deskAndRefund),
      'GET /api/v1/students/statement': () => json({ ...emptyStatement, credit: 4000 }),
    });
    api.setToken('parent-token');
    renderApp('/admin/students/payments');

    const desk = within(
      await screen.findByRole('row', { name: /Birthday party balance/ }, { timeout: 5000 }),
    );
    expect(desk.getByText('Cash')).toBeTruthy();
    expect(desk.getByText(/Till 2/)).toBeTruthy();
    const refunded = within(screen.getByRole('row', { name: /INV-000007/ }));
    expect(refunded.getByText(/\$20\.00 refunded to the card \(in progress\)/)).toBeTruthy();
    expect(await screen.findByText(/You have \$40\.00 credit/)).toBeTruthy();
  });
});
