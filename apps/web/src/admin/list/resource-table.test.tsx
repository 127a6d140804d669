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
    // The title and every other data column may break anywhere, and none grows past 320px.
    for (const cell of cells.slice(1, -1)) {
      expect(cell.style.overflowWrap).toBe('anywhere');
      expect(cell.style.maxWidth).toBe('320px');
    }
  }, 20_000);
});
