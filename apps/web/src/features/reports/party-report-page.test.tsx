import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReportResponse } from '@tumble/contracts/reports';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

/** The party report as the server's report pattern answers it. */
function partyReport(year: number, revenue = 89000): ReportResponse {
  return {
    meta: {
      name: 'birthday-parties',
      title: 'Birthday party report',
      filters: [{ name: 'year', label: 'Year', type: 'year' }],
      tables: [
        {
          name: 'months',
          label: 'By month',
          columns: [
            { name: 'month', label: 'Month', type: 'text' },
            { name: 'parties', label: 'Parties', type: 'number' },
            { name: 'balances', label: 'Balances', type: 'money' },
            { name: 'revenue', label: 'Revenue', type: 'money' },
          ],
          chart: { x: 'month', y: 'revenue' },
        },
        {
          name: 'parties',
          label: 'Parties',
          columns: [
            { name: 'reference', label: 'Reference', type: 'text' },
            { name: 'date', label: 'Date', type: 'date' },
          ],
        },
      ],
    },
    filters: { year },
    data: {
      months: [{ month: `${year}-12`, parties: 2, balances: 69000, revenue }],
      parties: [{ reference: 'BP-7F3K2', date: `${year}-12-06` }],
    },
  };
}

describe('birthday party report', () => {
  it('shows the months of the year and downloads the server’s CSV with the session token', async () => {
    const year = new Date().getFullYear();
    const fetchMock = stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/reports/birthday-parties': (url) =>
        url.searchParams.get('format') === 'csv'
          ? new Response('Month,Parties\r\n', { headers: { 'content-type': 'text/csv; charset=utf-8' } })
          : json(partyReport(year)),
    });
    api.setToken('staff-token');
    const createObjectURL = vi.fn(() => 'blob:report');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    renderApp('/admin/reports/birthday-parties');
    const months = await screen.findByRole('table', { name: 'By month' }, { timeout: 5000 });
    expect(within(months).getByText(`${year}-12`)).toBeTruthy();
    expect(within(months).getByText('$690.00')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Parties' })).getByText(`06/12/${year}`)).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Revenue by month' })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Download CSV' }));
    const csvCall = fetchMock.mock.calls.find(([input]) => String(input).includes('format=csv'));
    expect(new Headers(csvCall?.[1]?.headers).get('Authorization')).toBe('Bearer staff-token');
    expect(new URL(String(csvCall?.[0]), 'http://localhost').searchParams.get('year')).toBe(String(year));
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    const print = vi.fn();
    vi.stubGlobal('print', print);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  }, 20_000);

  it('keeps its filters in the URL: a shared link opens the same year, and choosing one updates the URL', async () => {
    const fetchMock = stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/reports/birthday-parties': (url) =>
        json(partyReport(Number(url.searchParams.get('year') ?? 2030))),
    });
    api.setToken('staff-token');
    const { router } = renderApp('/admin/reports/birthday-parties?year=2030');
    const months = () => screen.getByRole('table', { name: 'By month' });
    await screen.findByRole('table', { name: 'By month' }, { timeout: 5000 });
    expect(within(months()).getByText('2030-12')).toBeTruthy();

    const thisYear = String(new Date().getFullYear());
    await userEvent.setup().selectOptions(screen.getByRole('combobox', { name: 'Year' }), thisYear);

    await waitFor(() => expect(router.state.location.search).toBe(`?year=${thisYear}`));
    await waitFor(() => expect(within(months()).getByText(`${thisYear}-12`)).toBeTruthy());
    const years = fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .filter((u) => u.pathname === '/api/v1/admin/reports/birthday-parties')
      .map((u) => u.searchParams.get('year'));
    expect(years).toEqual(['2030', thisYear]);
  }, 20_000);
});
