import { fireEvent, screen, within } from '@testing-library/react';
import type { MyReEnrolment } from '@tumble/contracts/rollover';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const holds: MyReEnrolment = {
  holds: [
    {
      token: 'tok-1',
      term: 'Term 2 2030',
      deadline: '2030-04-20T08:00:00.000Z',
      deadline_display: '20 Apr 2030, 6:00 pm',
      confirm_url: '/registration/accept/?token=tok-1&authhash=demo',
      places: [
        {
          enrolment_id: 9,
          child: 'Ava Test',
          class_name: 'Kinder Gym',
          weekday: 2,
          start_time: '16:00',
          starts_on: '2030-04-23',
        },
      ],
    },
  ],
};

describe('Re-enrolment (parent)', () => {
  it('shows the held places with the deadline, links Confirm to the accept page, and releases by token', async () => {
    const released: unknown[] = [];
    stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/students/re-enrol': () => json(holds),
      'POST /api/v1/students/re-enrol/release': (_url, init) => {
        released.push(JSON.parse(String(init.body)));
        return json({ holds: [] });
      },
    });
    api.setToken('tok');
    renderApp('/admin/students/re-enroll');

    const card = await screen.findByRole('article', { name: 'Places in Term 2 2030' }, { timeout: 10_000 });
    expect(card.textContent).toContain('Held for you until 20 Apr 2030, 6:00 pm');
    expect(card.textContent).toContain('Ava Test · Kinder Gym · Tuesdays 16:00 · from Tue 23/04/2030');
    expect(within(card).getByRole('link', { name: 'Confirm and pay' }).getAttribute('href')).toBe(
      '/registration/accept/?token=tok-1&authhash=demo',
    );
    fireEvent.click(within(card).getByRole('button', { name: 'Release' }));
    fireEvent.click(await within(card).findByRole('button', { name: 'Release' }));
    expect((await screen.findByRole('status')).textContent).toContain(
      'Your places in Term 2 2030 are released.',
    );
    expect(released).toEqual([{ token: 'tok-1' }]);
    expect(screen.getByText('No places are held for you at the moment.')).toBeTruthy();
  }, 20_000);
});
