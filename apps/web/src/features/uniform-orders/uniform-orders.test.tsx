import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl, studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const types = [
  {
    id: 1,
    name: 'Club leotard',
    price: 6500,
    invoice_allowed: false,
    sizes: [
      { id: 11, name: 'Child 8', stock: 3 },
      { id: 12, name: 'Child 12', stock: 0 },
    ],
  },
  {
    id: 2,
    name: 'Club shirt',
    price: 3000,
    invoice_allowed: true,
    sizes: [{ id: 21, name: 'Child M', stock: 12 }],
  },
];
const order = {
  id: 7,
  code: 'UO-7F3K2',
  child_id: 3,
  child_name: 'Mia Parent',
  parent_id: 2,
  parent_name: 'Pat Parent',
  items: 'Club leotard, Child 8 × 1',
  status: 'paid' as const,
  paid_how: 'card' as const,
  amount: 6598,
  invoice_id: null,
  created_at: '2026-11-24T01:00:00.000Z',
  collected_at: null,
};

describe('uniform orders', () => {
  it('the parent sees stock by size (out of stock cannot be chosen) and an invoice only where allowed', async () => {
    stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/students/uniform-orders': () =>
        json({ children: [{ id: 3, name: 'Mia Parent' }], types, orders: [order] }),
      'GET /api/v1/students/private-lessons/payment-terms': () => json({ payment_terms: '<p>Terms</p>' }),
    });
    api.setToken('tok');
    renderApp('/admin/students/uniforms');

    const mine = await screen.findByRole('article', { name: 'Uniform order UO-7F3K2' }, { timeout: 5000 });
    expect(within(mine).getByText('Paid')).toBeTruthy();
    fireEvent.change(screen.getByRole('combobox', { name: 'Uniform' }), { target: { value: '1' } });
    const sizes = screen.getByRole('combobox', { name: 'Size' });
    expect(within(sizes).getByRole('option', { name: 'Child 8 (3 in stock)' })).toBeTruthy();
    expect(
      (within(sizes).getByRole('option', { name: 'Child 12 (out of stock)' }) as HTMLOptionElement).disabled,
    ).toBe(true);
    expect(screen.queryByRole('radio', { name: 'Add to my next invoice' })).toBeNull();
    fireEvent.change(screen.getByRole('combobox', { name: 'Uniform' }), { target: { value: '2' } });
    expect(screen.getByRole('radio', { name: 'Add to my next invoice' })).toBeTruthy();
  });

  it('staff mark an order collected', async () => {
    const posted: string[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/uniform-orders': () =>
        json({
          orders: [order],
          types,
          families: [{ id: 2, name: 'Pat Parent', children: [{ id: 3, name: 'Mia Parent' }] }],
        }),
      'POST /api/v1/admin/uniform-orders/7/collect': (url) => {
        posted.push(url.pathname);
        return json({ message: 'Order marked collected.' });
      },
    });
    api.setToken('tok');
    renderApp('/admin/uniform-orders');

    const button = await screen.findByRole('button', { name: 'Mark collected' }, { timeout: 5000 });
    fireEvent.click(button);
    await waitFor(() => expect(posted).toEqual(['/api/v1/admin/uniform-orders/7/collect']));
    expect(await screen.findByText('Order marked collected.')).toBeTruthy();
  });
});
