import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BillingProfileView, InvoiceDetail } from '@tumble/contracts/invoices';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const SLOW = 20_000;
type Handlers = Parameters<typeof stubServer>[0];

function signedIn(handlers: Handlers) {
  const fetchMock = stubServer({ 'GET /rest/acl': () => json(staffAcl()), ...handlers });
  api.setToken('tok');
  return fetchMock;
}

const calls = (fetchMock: ReturnType<typeof stubServer>, path: string, method = 'POST') =>
  fetchMock.mock.calls.filter(([input, init]) => String(input) === path && init?.method === method);

const profile: BillingProfileView = {
  legal_name: 'Bounce Gym Pty Ltd',
  abn: '51824753556',
  gst_registered: true,
  address: '',
  invoice_prefix: 'INV-',
  next_invoice_number: 12,
  days_until_due: 14,
  bank_account_name: '',
  bsb: '062000',
  bank_account_number: '12345678',
  late_fee_policy: '',
  logo: null,
  lowest_next_number: 12,
};

const invoice: InvoiceDetail = {
  id: 5,
  code: 'INV-000011',
  kind: 'one_off',
  status: 'part_paid',
  parent_id: 3,
  family: 'Pat Parent',
  email: 'pat@example.test',
  issued_on: '2030-02-01',
  due_on: '2030-02-15',
  total: 11_500,
  gst: 591,
  paid: 5_000,
  credited: 0,
  balance: 6_500,
  term_id: null,
  gst_registered: true,
  notes: '',
  void_reason: '',
  created_at: '2030-02-01T00:00:00.000Z',
  lines: [
    {
      description: 'Leotard',
      detail: 'Size 8',
      quantity: 1,
      unit_amount: 6500,
      amount: 6500,
      gst: 591,
      gst_free: false,
    },
    {
      description: 'First aid',
      detail: '',
      quantity: 2,
      unit_amount: 2500,
      amount: 5000,
      gst: 0,
      gst_free: true,
    },
  ],
  allocations: [{ date: '2030-02-03', description: 'Payment (Cash)', amount: 5_000 }],
  credit_notes: [],
  currency: 'AUD',
};

describe('/admin/billing-profile', () => {
  it(
    'shows the ABN and BSB as printed, and refuses a wrong ABN, or none while GST-registered, without posting',
    async () => {
      const fetchMock = signedIn({ 'GET /api/v1/admin/billing-profile': () => json(profile) });
      renderApp('/admin/billing-profile');
      const user = userEvent.setup();
      const abn = (await screen.findByRole(
        'textbox',
        { name: 'ABN' },
        { timeout: 5000 },
      )) as HTMLInputElement;
      expect(abn.value).toBe('51 824 753 556');
      expect((screen.getByRole('textbox', { name: 'BSB' }) as HTMLInputElement).value).toBe('062-000');
      await user.clear(abn);
      await user.type(abn, '51 824 753 557');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Please enter a valid 11-digit ABN.')).toBeTruthy();
      await user.clear(abn);
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(
        await screen.findByText(
          'Please enter the ABN: GST-registered businesses must show it on tax invoices.',
        ),
      ).toBeTruthy();
      expect(calls(fetchMock, '/api/v1/admin/billing-profile')).toHaveLength(0);
    },
    SLOW,
  );
});

describe('/admin/invoices/:id', () => {
  it(
    'shows the lines with GST and GST-free marked, the payment and the balance; a paid invoice cannot be voided',
    async () => {
      signedIn({ 'GET /api/v1/admin/invoices/5': () => json(invoice) });
      renderApp('/admin/invoices/5');
      expect(
        await screen.findByRole('heading', { name: 'Invoice INV-000011' }, { timeout: 5000 }),
      ).toBeTruthy();
      const lines = screen.getByRole('table', { name: 'Invoice lines' });
      expect(within(lines).getByText('First aid (GST-free)')).toBeTruthy();
      expect(within(lines).getAllByText('$5.91').length).toBeGreaterThan(0);
      expect(screen.getByText('Total price includes GST of')).toBeTruthy();
      expect(screen.getByText('Payment (Cash), 03/02/2030')).toBeTruthy();
      expect(screen.getByTestId('invoice-balance').textContent).toBe('$65.00');
      expect(screen.getByRole('link', { name: 'Record a payment' }).getAttribute('href')).toBe(
        '/admin/payments/record?invoice=5',
      );
      expect(screen.getByRole('button', { name: 'Issue a credit note' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Void' })).toBeNull();
    },
    SLOW,
  );

  it(
    'a credit note above what is left is refused on the form; a fitting one is posted in cents',
    async () => {
      const fetchMock = signedIn({
        'GET /api/v1/admin/invoices/5': () => json(invoice),
        'POST /api/v1/admin/invoices/5/credit-notes': () =>
          json({ id: 5, message: 'Credit note CN-000001 was issued.', credit_note_id: 1 }),
      });
      renderApp('/admin/invoices/5');
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Issue a credit note' }, { timeout: 5000 }));
      const dialog = await screen.findByRole('dialog');
      const amount = within(dialog).getByRole('textbox', { name: 'Amount' });
      await user.type(amount, '200');
      await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Sick week');
      await user.click(within(dialog).getByRole('button', { name: 'Issue credit note' }));
      expect(
        await within(dialog).findByText('A credit note cannot be more than what is left on the invoice.'),
      ).toBeTruthy();
      await user.clear(amount);
      await user.type(amount, '20.50');
      await user.click(within(dialog).getByRole('button', { name: 'Issue credit note' }));
      await waitFor(() => expect(calls(fetchMock, '/api/v1/admin/invoices/5/credit-notes')).toHaveLength(1));
      const [, init] = calls(fetchMock, '/api/v1/admin/invoices/5/credit-notes')[0]!;
      expect(JSON.parse(String(init?.body))).toEqual({ amount: 2050, reason: 'Sick week' });
    },
    SLOW,
  );
});
