import { screen, within } from '@testing-library/react';
import type { FamilyStatement } from '@tumble/contracts/statement';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl, studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

/** A family owing $60 on one invoice, paid off another, with $10 credit and a saved card. */
const statement: FamilyStatement = {
  family: { id: 7, name: 'Pat Parent', email: 'pat@example.test' },
  currency: 'AUD',
  today: '2026-11-26',
  owing: 6000,
  overdue: 0,
  credit: 1000,
  saved_card: { brand: 'Visa', last4: '4242', exp_month: 4, exp_year: 2030, autopay: true },
  invoices: [
    {
      id: 12,
      code: 'INV-000012',
      status: 'part_paid',
      issued_on: '2026-11-20',
      due_on: '2026-12-04',
      total: 20000,
      paid: 14000,
      credited: 0,
      balance: 6000,
    },
    {
      id: 11,
      code: 'INV-000011',
      status: 'paid',
      issued_on: '2026-11-01',
      due_on: '2026-11-15',
      total: 3000,
      paid: 3000,
      credited: 0,
      balance: 0,
    },
  ],
  from: null,
  to: null,
  opening_balance: 0,
  entries: [
    {
      date: '2026-11-20',
      kind: 'invoice',
      description: 'Invoice INV-000012, due 04/12/2026',
      reference: 'INV-000012',
      method: null,
      amount: 20000,
      credit: 0,
      balance: 20000,
      status: null,
    },
    {
      date: '2026-11-21',
      kind: 'payment',
      description: 'Payment by Cash: Invoice INV-000012',
      reference: 'Desk 1',
      method: 'cash',
      amount: -15000,
      credit: 1000,
      balance: 5000,
      status: null,
    },
    {
      date: '2026-11-22',
      kind: 'refund',
      description: 'Refund to the card: Missed class',
      reference: 'Receipt no. 3',
      method: 'card',
      amount: 1000,
      credit: 0,
      balance: 6000,
      status: 'pending',
    },
  ],
  closing_balance: 5000,
};

describe('/admin/students/invoices', () => {
  it('says what the parent owes and their credit, with a PDF and a Pay button for the owing invoice only', async () => {
    stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/students/statement': () => json(statement),
    });
    api.setToken('parent-token');
    renderApp('/admin/students/invoices');

    expect(await screen.findByText('You owe $60.00', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('You have $10.00 credit')).toBeTruthy();
    const pay = screen.getByRole('link', { name: 'Pay invoice INV-000012' });
    expect(pay.getAttribute('href')).toBe('/admin/student/payment?invoice=12');
    expect(screen.queryByRole('link', { name: 'Pay invoice INV-000011' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download PDF of invoice INV-000011' })).toBeTruthy();
    const lines = within(screen.getByRole('table', { name: 'Statement' }));
    expect(lines.getByText('Refund to the card: Missed class')).toBeTruthy();
    expect(lines.getByText('In progress')).toBeTruthy();
  });
});

describe('/admin/parents/:id/family-account', () => {
  it("shows staff the family's balance, credit, card and autopay, with what to do next", async () => {
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/parents/7/statement': () => json(statement),
    });
    api.setToken('staff-token');
    renderApp('/admin/parents/7/family-account');

    expect(await screen.findByText('Pat Parent: account', {}, { timeout: 5000 })).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Balance owing' })).getByText('$60.00')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Credit' })).getByText('$10.00')).toBeTruthy();
    expect(screen.getByText('Visa •••• 4242')).toBeTruthy();
    expect(screen.getByText(/Autopay on/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Record a payment' }).getAttribute('href')).toBe(
      '/admin/payments/record?family=7',
    );
    expect(screen.getByRole('link', { name: 'New invoice' }).getAttribute('href')).toBe(
      '/admin/invoices/new?family=7',
    );
    expect(screen.getByRole('button', { name: 'Download statement (PDF)' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'INV-000012' }).getAttribute('href')).toBe('/admin/invoices/12');
  });

  it('says so when the family is not the company’s', async () => {
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/parents/8/statement': () => json({ message: 'Not found' }, { status: 404 }),
    });
    api.setToken('staff-token');
    renderApp('/admin/parents/8/family-account');
    expect(
      await screen.findByText(
        'This family does not exist, or it is not available to your account.',
        {},
        { timeout: 5000 },
      ),
    ).toBeTruthy();
  });
});
