import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReportResponse } from '@tumble/contracts/reports';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

/** A report with a period (From and To), as the server's report pattern answers it. */
function trialReport(filters: Record<string, string>): ReportResponse {
  return {
    meta: {
      name: 'trial-conversions',
      title: 'Trial conversions',
      filters: [
        { name: 'from', label: 'From', type: 'date' },
        { name: 'to', label: 'To', type: 'date' },
      ],
      tables: [
        {
          name: 'types',
          label: 'By class type',
          columns: [
            { name: 'classType', label: 'Class type', type: 'text' },
            { name: 'trials', label: 'Trials', type: 'number' },
          ],
        },
      ],
    },
    filters: { from: filters.from ?? '2026-01-01', to: filters.to ?? '2026-12-31' },
    data: { types: [{ classType: 'Kinder Gym', trials: 3 }] },
  };
}

describe('a report’s filters', () => {
  it('keeps both dates of a period set one right after the other, before the page has drawn the first', async () => {
    const asked: URLSearchParams[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/reports/trial-conversions': (url) => {
        asked.push(url.searchParams);
        return json(trialReport(Object.fromEntries(url.searchParams)));
      },
    });
    api.setToken('staff-token');
    renderApp('/admin/reports/trial-conversions');
    const from = await screen.findByLabelText('From', {}, { timeout: 5000 });
    const to = screen.getByLabelText('To');
    act(() => {
      fireEvent.change(from, { target: { value: '2026-03-01' } });
      fireEvent.change(to, { target: { value: '2026-03-31' } });
    });
    await waitFor(() =>
      expect(asked.some((q) => q.get('from') === '2026-03-01' && q.get('to') === '2026-03-31')).toBe(true),
    );
    // The page shows both, as the server answered them.
    await waitFor(() => expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-03-01'));
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe('2026-03-31');
  });
});
