import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const session = {
  session_id: 112,
  term_class_id: 12,
  class_name: 'Kinder Gym Saturday',
  date: '2026-11-28',
  start_time: '09:00',
  duration_minutes: 60,
  coach_id: 2,
  coach_name: 'Sam Rivera',
  leave_start: '2026-11-23',
  leave_end: '2026-11-29',
  leave_reason: 'Annual leave',
};

/** The substitute choice's text input (Mantine also labels its hidden value input and dropdown). */
const substituteInput = (list: HTMLElement) =>
  within(list)
    .getAllByLabelText(/Substitute for Kinder Gym Saturday/)
    .find((el) => el instanceof HTMLInputElement && el.type !== 'hidden')!;

describe('cover', () => {
  it('lists a session needing cover, shows why a substitute is refused, and drops the session once one is assigned', async () => {
    let covered = false;
    const posted: unknown[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/cover': () => json({ data: covered ? [] : [session] }),
      'GET /api/v1/admin/coaches/options': () =>
        json([
          { value: 1, label: 'Casey Coach' },
          { value: 2, label: 'Sam Rivera' },
          { value: 3, label: 'Eli Expired' },
        ]),
      'POST /api/v1/admin/cover/112': (_url, init) => {
        const body = JSON.parse(String(init.body)) as { coach_id: number };
        posted.push(body);
        if (body.coach_id === 3) {
          const message = "Eli Expired's Working With Children Check has expired.";
          return json({
            valid: false,
            error: { html_message: message, element: [{ name: 'coach_id', messages: [message] }] },
          });
        }
        covered = true;
        return json({
          valid: true,
          info: { title: 'Substitute assigned', message: 'Casey Coach now coaches this session.' },
        });
      },
    });
    api.setToken('tok');
    renderApp('/admin/cover');

    const list = await screen.findByRole('table', { name: 'Sessions needing cover' }, { timeout: 5000 });
    // The class opens the session's page (where it can also be moved or cancelled).
    expect(within(list).getByRole('link', { name: 'Kinder Gym Saturday' }).getAttribute('href')).toBe(
      '/admin/term-classes/12/class-sessions/112',
    );
    expect(within(list).getByText('Needs cover')).toBeTruthy();
    expect(within(list).getByText('On leave 23/11/2026–29/11/2026 (Annual leave)')).toBeTruthy();

    const choose = async (name: string) => {
      fireEvent.click(substituteInput(list));
      fireEvent.click(await screen.findByRole('option', { name }));
      fireEvent.click(within(list).getByRole('button', { name: 'Assign' }));
    };
    // The coach on leave is not offered as their own substitute.
    fireEvent.click(substituteInput(list));
    await screen.findByRole('option', { name: 'Casey Coach' });
    expect(screen.queryByRole('option', { name: 'Sam Rivera' })).toBeNull();

    await choose('Eli Expired');
    expect(await screen.findByText("Eli Expired's Working With Children Check has expired.")).toBeTruthy();
    await choose('Casey Coach');
    expect(await screen.findByText('No sessions need cover.')).toBeTruthy();
    await waitFor(() => expect(posted).toEqual([{ coach_id: 3 }, { coach_id: 1 }]));
  });
});
