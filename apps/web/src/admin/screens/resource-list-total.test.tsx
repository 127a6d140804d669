import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { eventRow, eventsMeta } from '../../test/admin-fixtures';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

/** `rows` events as one page of a list whose server stopped counting at 10,000 (issue 19). */
function bigList(rows: number) {
  stubServer({
    'GET /rest/acl': () => json(staffAcl()),
    'GET /api/v1/admin/events/meta': () => json(eventsMeta()),
    'GET /api/v1/admin/events': () =>
      json({
        data: Array.from({ length: rows }, (_, i) => eventRow(i + 1)),
        total: 10_000,
        totalIsEstimate: true,
      }),
    'GET /api/v1/admin/venues/options': () => json([{ value: 3, label: 'Main gym' }]),
  });
}

async function open(path: string) {
  api.setToken('tok');
  const view = renderApp(path);
  await screen.findByRole('table', { name: 'Events' }, { timeout: 5000 });
  return view;
}

// The first test loads the lazy admin screens; jsdom is slow with Mantine's comboboxes.
const SLOW = 20_000;

describe('a list past 10,000 rows', () => {
  it(
    'says "10,000+" and still pages forward past the count while pages are full',
    async () => {
      bigList(25);
      const { router } = await open('/admin/events?page=400');
      const user = userEvent.setup();

      expect(screen.getByText('9,976–10,000 of 10,000+')).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'Next page' }));
      await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('page')).toBe('401'));
      expect(await screen.findByText('10,001–10,025 of 10,000+', {}, { timeout: 5000 })).toBeTruthy();
    },
    SLOW,
  );

  it(
    'stops at a page that is not full',
    async () => {
      bigList(3);
      await open('/admin/events?page=402');

      expect(screen.getByText('10,026–10,028 of 10,000+')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Next page' }).hasAttribute('disabled')).toBe(true);
    },
    SLOW,
  );
});
