import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { eventRow, eventsMeta } from '../../test/admin-fixtures';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

describe('resource table', () => {
  it('wraps a long unbroken name inside its own column (issue 21 point 19)', async () => {
    const long = 'Supercalifragilisticexpialidocious'.repeat(4);
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/events/meta': () => json(eventsMeta()),
      'GET /api/v1/admin/events': () => json({ data: [eventRow(1, { name: long, intro: long })], total: 1 }),
    });
    api.setToken('tok');
    renderApp('/admin/events');

    const table = await screen.findByRole('table', { name: 'Events' }, { timeout: 10_000 });
    const row = within(table).getAllByRole('row')[1]!;
    const cells = within(row).getAllByRole('cell');
    // Columns: name, start date, end date, venue, booking fee, published. Names and references may
    // break anywhere; dates, amounts and yes/no stay whole (a day is never split "Wednesd|ay").
    const [name, start, end, venue, fee, published] = cells.slice(1, -1);
    for (const cell of [name!, venue!]) expect(cell.style.overflowWrap).toBe('anywhere');
    for (const cell of [start!, end!, fee!, published!]) {
      expect(cell.style.whiteSpace).toBe('nowrap');
      expect(cell.style.overflowWrap).toBe('');
    }
    for (const cell of cells.slice(1, -1)) expect(cell.style.maxWidth).toBe('320px');
    expect(within(name!).getByRole('link').textContent).toBe(long);
  }, 20_000);

  it('shows a title that is a date as DD/MM/YYYY, like every other date', async () => {
    const meta = eventsMeta();
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/events/meta': () => json({ ...meta, titleField: 'start_date' }),
      'GET /api/v1/admin/events': () => json({ data: [eventRow(1, { start_date: '2027-02-01' })], total: 1 }),
    });
    api.setToken('tok');
    renderApp('/admin/events');

    const table = await screen.findByRole('table', { name: 'Events' }, { timeout: 10_000 });
    expect(within(table).getByRole('link', { name: '01/02/2027' })).toBeTruthy();
    expect(within(table).queryByText('2027-02-01')).toBeNull();
  }, 20_000);
});
