import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TimetableResponse } from '@tumble/contracts/timetable';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const item = (overrides: Partial<TimetableResponse['groups'][number]['items'][number]>) => ({
  kind: 'class' as const,
  id: 1,
  title: 'Kinder Gym Tuesday',
  detail: 'Kinder Gym',
  date: '2026-11-24',
  start_time: '09:00',
  end_time: '09:45',
  duration_minutes: 45,
  starts_at: '2026-11-23T22:00:00.000Z',
  colour: '#f08c00',
  room: 'Main floor',
  coach: 'Casey Coach',
  status: 'scheduled' as const,
  needs_cover: false,
  link: '/admin/roll/1',
  ...overrides,
});

const week = (start: string, by: 'room' | 'coach'): TimetableResponse => {
  const day = (n: number) =>
    new Date(Date.parse(`${start}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  return {
    by,
    week: { start, end: day(6), previous: day(-7), next: day(7) },
    today: '2026-11-24',
    days: [0, 1, 2, 3, 4, 5, 6].map(day),
    groups:
      start === '2026-11-23'
        ? [
            {
              key: '1',
              label: by === 'room' ? 'Main floor' : 'Casey Coach',
              items: [
                item({}),
                item({
                  id: 2,
                  title: 'Ninja Kids Thursday',
                  date: '2026-11-26',
                  needs_cover: true,
                  link: '/admin/roll/2',
                }),
              ],
            },
          ]
        : [],
  };
};

describe('timetable', () => {
  it('shows the week as a grid of rooms by days, navigates weeks and switches to coaches', async () => {
    const asked: string[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/timetable': (url) => {
        asked.push(url.search);
        const by = url.searchParams.get('by') === 'coach' ? 'coach' : 'room';
        return json(week(url.searchParams.get('week') === '2026-11-30' ? '2026-11-30' : '2026-11-23', by));
      },
    });
    api.setToken('tok');
    renderApp('/admin/timetable');

    const grid = await screen.findByRole('table', { name: 'Timetable' }, { timeout: 5000 });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Room',
      'Mon 23/11',
      'Tue 24/11',
      'Wed 25/11',
      'Thu 26/11',
      'Fri 27/11',
      'Sat 28/11',
      'Sun 29/11',
    ]);
    const row = within(grid).getByRole('row', { name: /Main floor/ });
    const cells = within(row).getAllByRole('cell');
    expect(
      within(cells[1]!)
        .getByRole('link', { name: /Kinder Gym Tuesday/ })
        .getAttribute('href'),
    ).toBe('/admin/roll/1');
    expect(within(cells[3]!).getByText('Needs cover')).toBeTruthy();
    expect(asked[0]).toBe('?by=room');

    await userEvent.click(screen.getByRole('button', { name: 'Next week' }));
    await screen.findByText('Nothing on the timetable this week.', {}, { timeout: 5000 });
    expect(asked.at(-1)).toBe('?week=2026-11-30&by=room');

    await userEvent.click(screen.getByRole('button', { name: 'This week' }));
    await userEvent.click(screen.getByText('By coach'));
    const byCoach = await screen.findByRole('table', { name: 'Timetable' }, { timeout: 5000 });
    await within(byCoach).findByRole('row', { name: /Casey Coach/ });
    expect(within(byCoach).getAllByRole('columnheader')[0]!.textContent).toBe('Coach');
    expect(asked.at(-1)).toBe('?by=coach');
  });

  it('on a phone lists each day with its blocks in time order, naming the room of each', async () => {
    const matchMedia = window.matchMedia;
    // Below 769px (useNarrowScreen): the day list instead of the grid.
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({ ...matchMedia(query), matches: true }));
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/timetable': () => json(week('2026-11-23', 'room')),
    });
    api.setToken('tok');
    renderApp('/admin/timetable');

    const tuesday = await screen.findByRole('region', { name: 'Tuesday 24 November' }, { timeout: 5000 });
    expect(screen.queryByRole('table', { name: 'Timetable' })).toBeNull();
    expect(within(tuesday).getByText('Tuesday 24 November · Today')).toBeTruthy();
    const link = within(tuesday).getByRole('link', { name: /Kinder Gym Tuesday/ });
    expect(link.getAttribute('href')).toBe('/admin/roll/1');
    expect(link.textContent).toContain('Main floor · Casey Coach');
    const thursday = screen.getByRole('region', { name: 'Thursday 26 November' });
    expect(within(thursday).getByText('Needs cover')).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Sunday 29 November' })).getByText('Nothing on.'),
    ).toBeTruthy();
    vi.restoreAllMocks();
  });
});
