import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

describe('event availability page', () => {
  it('leads back through breadcrumbs styled like every admin screen, not a bare blue link', async () => {
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/events/2/availability': () =>
        json({
          event: { id: 2, name: 'Holiday camp 2', start_date: '2030-01-07', end_date: '2030-01-08' },
          sessions: [],
          cells: [],
        }),
    });
    api.setToken('tok');
    renderApp('/admin/events/2/event-availability');

    await screen.findByRole('heading', { name: 'Availability' }, { timeout: 10_000 });
    const crumbs = screen.getByLabelText('Breadcrumbs');
    const links = within(crumbs).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Events', '/admin/events'],
      ['Holiday camp 2', '/admin/events/2'],
    ]);
    for (const link of links) expect(link.className).toContain('mantine-Anchor-root');
    expect(screen.getByRole('heading', { level: 1, name: 'Availability' })).toBeTruthy();
  }, 20_000);
});
