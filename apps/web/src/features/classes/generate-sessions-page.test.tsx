import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SessionGeneration } from '@tumble/contracts/class-sessions';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const session = (id: number | null, date: string, start_time = '16:00') => ({
  id,
  date,
  start_time,
  duration_minutes: 45,
  starts_at: `${date}T05:00:00.000Z`,
  room: 'Room 1',
  coach: 'Casey Coach',
});

const preview: SessionGeneration = {
  term_class: { id: 4, name: 'Monday Kinder Gym' },
  add: [session(null, '2027-04-05')],
  update: [session(11, '2027-03-22')],
  remove: [session(12, '2027-03-29')],
  unchanged: [session(13, '2027-03-15')],
  kept: [{ ...session(10, '2027-03-01', '17:00'), why: 'edited' }],
  problems: [],
};

describe('generate sessions of a class', () => {
  it('shows what is added, changed, removed and kept, then applies it', async () => {
    let applied = 0;
    let current = preview;
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/term-classes/4/generate': () => json(current),
      'POST /api/v1/admin/term-classes/4/generate': () => {
        applied++;
        const done = current;
        current = {
          ...preview,
          add: [],
          update: [],
          remove: [],
          unchanged: [...preview.add, ...preview.update],
        };
        return json(done);
      },
    });
    api.setToken('tok');
    const user = userEvent.setup();
    renderApp('/admin/term-classes/4/generate-sessions');

    const card = await screen.findByLabelText('Monday Kinder Gym', {}, { timeout: 10_000 });
    expect(within(card).getByText('To add (1)')).toBeTruthy();
    expect(within(card).getByText('Mon 05/04/2027')).toBeTruthy();
    expect(within(card).getByText('To remove (1)')).toBeTruthy();
    expect(within(card).getByText('Mon 29/03/2027')).toBeTruthy();
    // A session moved by hand keeps its own time, and says why it is kept.
    expect(within(card).getByText('Mon 01/03/2027 17:00 · changed by hand')).toBeTruthy();
    expect(screen.getByText('1 class: 1 to add, 1 to change, 1 to remove')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Apply 3 changes' }));
    expect(await screen.findByText('Sessions generated: 1 added, 1 changed, 1 removed.')).toBeTruthy();
    expect(applied).toBe(1);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Nothing to generate' })).toBeTruthy());
  }, 30_000);

  it('shows the clashes and does not offer to apply', async () => {
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/term-classes/4/generate': () =>
        json({
          ...preview,
          problems: ['Room 1 is already booked for Ninja Kids on 05/04/2027 16:00–17:00.'],
        }),
    });
    api.setToken('tok');
    renderApp('/admin/term-classes/4/generate-sessions');
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toContain('Room 1 is already booked for Ninja Kids on 05/04/2027 16:00–17:00.');
    expect(screen.getByRole('button', { name: 'Apply 3 changes' }).hasAttribute('disabled')).toBe(true);
  }, 30_000);
});
