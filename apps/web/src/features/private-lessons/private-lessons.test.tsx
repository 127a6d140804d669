import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl, studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const lesson = {
  id: 41,
  code: 'PL-7F3K2',
  date: '2026-12-02',
  time: '07:00',
  duration_minutes: 45,
  coach_id: 5,
  coach_name: 'Sam Rivera',
  children: ['Mia Parent'],
  status: 'confirmed' as const,
  amount_paid: 6090,
  refund_choice: null,
  cancelled_at: null,
};

describe('private lessons', () => {
  it('staff see a coach’s leave after booking as a clash and cancel with the refund choice', async () => {
    const asked: string[] = [];
    const posted: unknown[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/private-lessons': (url) => {
        asked.push(url.search);
        return json({
          coaches: [{ id: 5, name: 'Sam Rivera' }],
          lessons: [
            { ...lesson, parent_name: 'Pat Parent', parent_email: 'parent@demo.test', coach_on_leave: true },
          ],
        });
      },
      'POST /api/v1/admin/private-lessons/41/cancel': (_url, init) => {
        posted.push(JSON.parse(String(init.body)));
        return json({ valid: true, message: 'Lesson PL-7F3K2 cancelled (refund).' });
      },
    });
    api.setToken('tok');
    // From the coach's view: the list opens filtered to that coach.
    renderApp('/admin/coaches/5/private-lessons');

    const table = await screen.findByRole('table', { name: 'Private lessons' }, { timeout: 5000 });
    expect(asked[0]).toContain('coach_id=5');
    expect(within(table).getByText('Coach on leave')).toBeTruthy();
    expect(screen.getByText(/1 lesson is with a coach who is on leave that day/)).toBeTruthy();

    fireEvent.click(within(table).getByRole('button', { name: 'Cancel lesson PL-7F3K2' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Refund' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel lesson' }));
    await waitFor(() => expect(posted).toEqual([{ refund_choice: 'refund' }]));
    expect(await screen.findByText('Lesson PL-7F3K2 cancelled (refund).')).toBeTruthy();
  });

  it('the parent may cancel a lesson while the policy allows, and is told to contact the company after', async () => {
    stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/students/private-lessons': () =>
        json({
          upcoming: [
            {
              ...lesson,
              can_cancel: false,
              cancel_note: 'This lesson can no longer be cancelled online. Please contact us.',
            },
            {
              ...lesson,
              id: 42,
              code: 'PL-9QX2M',
              date: '2026-12-09',
              can_cancel: true,
              cancel_note:
                'You can cancel until 24 hours before the lesson; the amount paid becomes a credit.',
            },
          ],
          past: [],
        }),
      'GET /api/v1/students/private-lessons/available': () => json({ coaches: [], lessons: [] }),
    });
    api.setToken('tok');
    renderApp('/admin/students/private-classes');

    const soon = await screen.findByRole('article', { name: 'Private lesson PL-7F3K2' }, { timeout: 5000 });
    expect(
      within(soon).getByText('This lesson can no longer be cancelled online. Please contact us.'),
    ).toBeTruthy();
    expect(within(soon).queryByRole('button', { name: 'Cancel lesson' })).toBeNull();
    const later = screen.getByRole('article', { name: 'Private lesson PL-9QX2M' });
    expect(within(later).getByRole('button', { name: 'Cancel lesson' })).toBeTruthy();
    expect(screen.getByText('No private lessons are free in the next eight weeks.')).toBeTruthy();
  });
});
