import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ContactsResponse } from '@tumble/contracts/crm';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const contact = (
  over: Partial<ContactsResponse['contacts'][number]>,
): ContactsResponse['contacts'][number] => ({
  id: 1,
  full_name: 'Olivia Chen',
  email: 'olivia@example.test',
  phone: null,
  children: [{ name: 'Mei', age: 4, dob: null }],
  interest: 'Term classes',
  source: 'Enquiry form',
  stage: 'New',
  stage_kind: 'open',
  follow_up_on: '2026-11-24',
  follow_up_due: true,
  parent_id: null,
  family_name: null,
  converted_at: null,
  created_at: '2026-11-23T01:00:00.000Z',
  ...over,
});

describe('contacts', () => {
  it('shows the leads with their stage and due follow-up, and sends the filters it shows', async () => {
    const queries: string[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/contacts': (url) => {
        queries.push(url.search);
        const due = url.searchParams.get('due') === 'true';
        return json({
          today: '2026-11-24',
          due_count: 1,
          contacts: due
            ? [contact({})]
            : [
                contact({}),
                contact({
                  id: 2,
                  full_name: 'Tom Nguyen',
                  children: [],
                  source: 'Website',
                  stage: 'Lost',
                  stage_kind: 'lost',
                  follow_up_on: null,
                  follow_up_due: false,
                }),
              ],
          sources: ['Walk-in', 'Website', 'Enquiry form'],
          stages: [
            { name: 'New', kind: 'open' },
            { name: 'Won', kind: 'won' },
            { name: 'Lost', kind: 'lost' },
          ],
        } satisfies ContactsResponse);
      },
    });
    api.setToken('tok');
    renderApp('/admin/contacts?source=Website');

    const table = await screen.findByRole('table', {}, { timeout: 5000 });
    expect(within(table).getByRole('link', { name: 'Olivia Chen' }).getAttribute('href')).toBe(
      '/admin/contacts/1',
    );
    expect(within(table).getByText('Mei (4)')).toBeTruthy();
    expect(within(table).getByText('24/11/2026 · due')).toBeTruthy();
    expect(within(table).getByText('Lost')).toBeTruthy();
    expect(queries[0]).toBe('?source=Website');

    fireEvent.click(screen.getByText('Follow-up due (1)'));
    await waitFor(() => expect(queries.at(-1)).toBe('?source=Website&due=true'));
    await waitFor(() => expect(within(screen.getByRole('table')).queryByText('Tom Nguyen')).toBeNull());
  });
});
