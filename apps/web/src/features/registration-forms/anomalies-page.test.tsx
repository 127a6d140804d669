import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AnomalyRow } from '@tumble/contracts/registration-forms';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const row = (over: Partial<AnomalyRow>): AnomalyRow => ({
  id: 1,
  kind: 'age_outside_range',
  kind_label: 'Age outside the class range',
  status: 'open',
  family: 'Pat Parent',
  child: 'Ava Tester',
  class_name: 'Tuesday 4pm Kinder Gym',
  detail: 'Ava is 7 years 2 months; the class takes 3 to 5 years.',
  created_at: '2026-11-20T01:00:00.000Z',
  action: { name: 'accept', label: 'Accept' },
  resolution: null,
  resolved_by: null,
  resolved_at: null,
  ...over,
});

describe('registration anomalies', () => {
  it('lists open anomalies with one action each and resolves one', async () => {
    const asked: string[] = [];
    let resolved = false;
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/registration-anomalies': (url) => {
        asked.push(new URL(url, 'http://x').search);
        const data = resolved
          ? [
              row({
                id: 2,
                kind: 'possible_duplicate_child',
                kind_label: 'Possible duplicate child',
                detail: 'Ava Tester looks like Ava Tester (born 09/04/2018).',
                action: { name: 'not_same_child', label: 'Not the same child' },
              }),
            ]
          : [
              row({}),
              row({
                id: 2,
                kind: 'possible_duplicate_child',
                kind_label: 'Possible duplicate child',
                detail: 'Ava Tester looks like Ava Tester (born 09/04/2018).',
                action: { name: 'not_same_child', label: 'Not the same child' },
              }),
            ];
        return json({ data, total: data.length, open: data.length });
      },
      'POST /api/v1/admin/registration-anomalies/1/resolve': () => {
        resolved = true;
        return json({ success: true, message: 'Accepted: the enrolment stays.' });
      },
    });
    api.setToken('tok');
    renderApp('/admin/registration-anomalies');

    const table = await screen.findByRole('table', { name: 'Anomalies' }, { timeout: 5000 });
    const first = within(table)
      .getByText('Ava is 7 years 2 months; the class takes 3 to 5 years.')
      .closest('tr')!;
    expect(within(first).getByText('Pat Parent')).toBeTruthy();
    expect(within(first).getByText('Tuesday 4pm Kinder Gym')).toBeTruthy();
    // One action per anomaly, named for its kind.
    expect(
      within(first)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Accept']);
    expect(within(table).getByRole('button', { name: /^Not the same child/ })).toBeTruthy();
    expect(within(table).getByText(/Merging the two records is not available yet/)).toBeTruthy();
    expect(asked[0]).toBe('?status=open&page=1&perPage=25');

    fireEvent.click(within(first).getByRole('button', { name: /^Accept/ }));
    expect(await screen.findByText('Accepted: the enrolment stays.')).toBeTruthy();
    await waitFor(() => expect(within(table).queryByText(/Ava is 7 years/)).toBeNull());
  });
});
