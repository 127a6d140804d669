import { screen, within } from '@testing-library/react';
import type { MyPayments } from '@tumble/contracts/students';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

/** Class and private lesson payments name what they bought at length (features/students/account.service.ts). */
const payments: MyPayments = [
  {
    id: 41,
    description:
      'Kinder Gym Tuesday 4:00pm for Mia, Leo; Ninja Saturday 9:00am (trial) for Mia (booking EN-7K2QX)',
    amount: 38570,
    status: 'paid',
    provider: 'test',
    paid_at: '2026-11-24T00:21:57.612Z',
    paid_on: '2026-11-24',
    receipt_url: '/api/v1/students/payments/41/receipt',
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
