import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const nswTerm1 = {
  region: 'NSW',
  region_name: 'New South Wales',
  year: 2027,
  term: 1,
  name: 'Term 1 2027',
  start_date: '2027-01-28',
  end_date: '2027-04-09',
  confirmed: false,
  closures: [
    { start_date: '2027-03-26', end_date: '2027-03-26', reason: 'Good Friday' },
    { start_date: '2027-03-29', end_date: '2027-03-29', reason: 'Easter Monday' },
  ],
};

/** Picks `option` in the select labelled `label` (Mantine's combobox). */
async function pick(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(await screen.findByRole('combobox', { name: label }, { timeout: 5000 }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('terms from the school calendar', () => {
  it('previews the chosen term with its closures, creates it and opens its closures', async () => {
    const posted: unknown[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/term-calendar': () =>
        json({ terms: [nswTerm1, { ...nswTerm1, region: 'VIC', region_name: 'Victoria', closures: [] }] }),
      'POST /api/v1/admin/term-calendar/create': (_url, init) => {
        posted.push(JSON.parse(String(init.body)));
        return json({
          valid: true,
          redirect: '/admin/terms/7/closures',
          info: { title: 'Term created', message: 'x' },
        });
      },
      'GET /api/v1/admin/terms/meta': () => json({ message: 'Not found.' }, { status: 404 }),
    });
    api.setToken('tok');
    const user = userEvent.setup();
    const { router } = renderApp('/admin/terms/term-calendar');

    await screen.findByRole('heading', { level: 1, name: 'From the school calendar' }, { timeout: 10_000 });
    await pick(user, 'State or territory', 'New South Wales');
    await pick(user, 'Year', '2027');
    await pick(user, 'Term', 'Term 1');

    const preview = screen.getByLabelText('Preview');
    expect(within(preview).getByText('Thu 28/01/2027 – Fri 09/04/2027')).toBeTruthy();
    expect(within(preview).getByText('Check these dates')).toBeTruthy();
    const rows = within(within(preview).getByRole('table', { name: 'Closures' })).getAllByRole('row');
    expect(rows.slice(1).map((r) => r.textContent)).toEqual([
      'Fri 26/03/2027Good Friday',
      'Mon 29/03/2027Easter Monday',
    ]);

    await user.click(within(preview).getByRole('button', { name: 'Create Term 1 2027' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/terms/7/closures'));
    expect(posted).toEqual([{ region: 'NSW', year: 2027, term: 1 }]);
  }, 30_000);

  it('shows the server’s refusal of a duplicate on the term', async () => {
    const refusal = 'Another term named “Term 1 2027” overlaps these dates.';
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/term-calendar': () => json({ terms: [nswTerm1] }),
      'POST /api/v1/admin/term-calendar/create': () =>
        json({
          valid: false,
          error: { html_message: refusal, element: [{ name: 'term', messages: [refusal] }] },
        }),
    });
    api.setToken('tok');
    const user = userEvent.setup();
    renderApp('/admin/terms/term-calendar');
    await screen.findByRole('heading', { level: 1, name: 'From the school calendar' }, { timeout: 10_000 });
    await pick(user, 'State or territory', 'New South Wales');
    await pick(user, 'Year', '2027');
    await pick(user, 'Term', 'Term 1');
    await user.click(screen.getByRole('button', { name: 'Create Term 1 2027' }));
    expect((await screen.findByRole('alert')).textContent).toBe(refusal);
    expect(screen.getAllByText(refusal).length).toBe(2);
  }, 30_000);
});
