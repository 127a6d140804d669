import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

describe('birthday party report', () => {
  it('shows the months of the year and downloads the server’s CSV with the session token', async () => {
    const year = new Date().getFullYear();
    const fetchMock = stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/reports/birthday-parties': (url) =>
        url.searchParams.get('format') === 'csv'
          ? new Response('Month,Parties\r\n', { headers: { 'content-type': 'text/csv; charset=utf-8' } })
          : json({
              months: [
                {
                  month: `${year}-12`,
                  parties: 2,
                  guests: 24,
                  deposits: 20000,
                  balances: 69000,
                  revenue: 89000,
                },
              ],
              parties: [],
            }),
    });
    api.setToken('staff-token');
    const createObjectURL = vi.fn(() => 'blob:report');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    renderApp('/admin/reports/birthday-parties');
    expect(await screen.findByText(`${year}-12`)).toBeTruthy();
    expect(screen.getByText('$690.00')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Download CSV' }));
    const csvCall = fetchMock.mock.calls.find(([input]) => String(input).includes('format=csv'));
    expect(new Headers(csvCall?.[1]?.headers).get('Authorization')).toBe('Bearer staff-token');
    expect(createObjectURL).toHaveBeenCalledTimes(1);
  });
});
