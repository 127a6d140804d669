import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type MyClassesResponse, makeupMessages } from '@tumble/contracts/makeups';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { studentAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const FIRST_LOAD = { timeout: 5000 };

const page: MyClassesResponse = {
  today: '2030-01-06',
  cutoff_hours: 2,
  children: [
    {
      id: 7,
      first_name: 'Mia',
      last_name: 'Lee',
      classes: [
        {
          enrolment_id: 1,
          class_name: 'Rec Gym Tuesday',
          class_type: 'Recreational Gymnastics',
          level: 'Beginner',
          weekday: 2,
          start_time: '16:00',
          end_time: '17:00',
          venue: 'Main Hall',
          coach: 'Sam Rivera',
          term: 'Term 1 2030',
          term_start: '2030-01-07',
          term_end: '2030-03-28',
        },
      ],
      sessions: [
        {
          session_id: 11,
          enrolment_id: 1,
          kind: 'enrolled',
          class_name: 'Rec Gym Tuesday',
          date: '2030-01-06',
          start_time: '16:00',
          end_time: '17:00',
          venue: 'Main Hall',
          state: 'coming',
          cancel_reason: null,
          changeable: false,
        },
        {
          session_id: 12,
          enrolment_id: 1,
          kind: 'enrolled',
          class_name: 'Rec Gym Tuesday',
          date: '2030-01-14',
          start_time: '16:00',
          end_time: '17:00',
          venue: 'Main Hall',
          state: 'coming',
          cancel_reason: null,
          changeable: true,
        },
        {
          session_id: 13,
          enrolment_id: 1,
          kind: 'enrolled',
          class_name: 'Rec Gym Tuesday',
          date: '2030-01-21',
          start_time: '16:00',
          end_time: '17:00',
          venue: 'Main Hall',
          state: 'cancelled',
          cancel_reason: 'Flooded hall',
          changeable: false,
        },
      ],
      credits: [
        {
          id: 3,
          reason: 'absence',
          class_type: 'Recreational Gymnastics',
          level: 'Beginner',
          missed_date: '2029-11-05',
          expires_on: '2029-12-05',
          expired: true,
        },
      ],
    },
  ],
};

describe('My Classes (parent)', () => {
  it('shows the classes, the session states and an expired credit, and marks an absence', async () => {
    const posted: unknown[] = [];
    stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/students/classes': () => json(page),
      'POST /api/v1/students/classes/sessions/12/absence': (_url, init) => {
        posted.push(JSON.parse(String(init.body)));
        return json({ valid: true, info: { title: 'Done', message: makeupMessages.absenceCredited } });
      },
    });
    api.setToken('parent-token');
    renderApp('/admin/students/classes');

    const card = await screen.findByRole('article', { name: 'Mia Lee' }, FIRST_LOAD);
    expect(within(card).getByText('Tuesdays 16:00–17:00 · Main Hall · Coach Sam Rivera')).toBeTruthy();
    // Today's session is past the cutoff; the cancelled one says so, with the gym's reason.
    expect(within(card).getByText('Changes closed')).toBeTruthy();
    expect(within(card).getByText('Cancelled by the gym')).toBeTruthy();
    expect(within(card).getByText('Flooded hall')).toBeTruthy();
    // The only credit has expired: shown, and nothing to book with.
    expect(within(card).getByText('Expired 05/12/2029')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Book a makeup for Mia' })).toHaveProperty(
      'disabled',
      true,
    );

    const buttons = within(card).getAllByRole('button', { name: /^Mark Mia absent on / });
    expect(buttons).toHaveLength(1);
    await userEvent.click(buttons[0]!);
    expect(await within(card).findByText(makeupMessages.absenceCredited)).toBeTruthy();
    expect(posted).toEqual([{ child_id: 7 }]);
  });

  it('withdraws a child after showing what the cancellation policy gives back', async () => {
    const posted: unknown[] = [];
    stubServer({
      'GET /rest/acl': () => json(studentAcl()),
      'GET /api/v1/students/classes': () => json(page),
      'GET /api/v1/students/cancellations/preview': (url) => {
        expect(Object.fromEntries(url.searchParams)).toEqual({ kind: 'enrolment', enrolment_id: '1' });
        return json({
          allowed: true,
          what: 'Mia in Rec Gym Tuesday, from 14/01/2030',
          paid: 8000,
          back: 6000,
          outcome: 'credit',
          message: '$60.00 will be kept as credit on your account, for a future booking or invoice.',
        });
      },
      'POST /api/v1/students/cancellations': (_url, init) => {
        posted.push(JSON.parse(String(init.body)));
        return json({
          message: 'Cancelled: Mia in Rec Gym Tuesday, from 14/01/2030. $60.00 will be kept as credit.',
        });
      },
    });
    api.setToken('parent-token');
    renderApp('/admin/students/classes');

    const card = await screen.findByRole('article', { name: 'Mia Lee' }, FIRST_LOAD);
    await userEvent.click(within(card).getByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw from this class?' });
    expect(
      await within(dialog).findByText(
        '$60.00 will be kept as credit on your account, for a future booking or invoice.',
      ),
    ).toBeTruthy();
    expect(posted).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(await within(dialog).findByText(/^Cancelled: Mia in Rec Gym Tuesday/)).toBeTruthy();
    expect(posted).toEqual([{ kind: 'enrolment', enrolment_id: 1 }]);
  });
});
