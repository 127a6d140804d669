import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RollResponse } from '@tumble/contracts/roll';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const session: RollResponse['session'] = {
  id: 41,
  class_name: 'Kinder Gym Tuesday',
  date: '2026-11-24',
  start_time: '16:00',
  end_time: '16:45',
  room: 'Main floor',
  coach: 'Casey Coach',
  status: 'scheduled',
  cancel_reason: null,
  expected: 2,
  marked: 0,
};

const roll = (): RollResponse => ({
  session,
  children: [
    {
      id: 7,
      first_name: 'Ava',
      last_name: 'Nguyen',
      age: { years: 4, months: 7 },
      photo_consent: false,
      medical_notes: 'Asthma, has a puffer',
      kind: 'enrolled',
      mark: null,
      payment_overdue: false,
      flags: [{ name: 'Anaphylaxis', colour: '#e03131', note: 'EpiPen in the front pocket' }],
    },
    {
      id: 8,
      first_name: 'Ben',
      last_name: 'Smith',
      age: { years: 5, months: 0 },
      photo_consent: true,
      medical_notes: null,
      kind: 'trial',
      mark: null,
      // The family's autopay failed for good: a discreet dot, no words on the card itself.
      payment_overdue: true,
      flags: [],
    },
  ],
});

describe('the roll of a session', () => {
  it('shows flags, saves each tap at once (before the server answers) and the note with the mark', async () => {
    const posted: { child_id: number; status: 'late'; note?: string }[] = [];
    let answer: (() => void) | null = null;
    // The server's roll: each accepted tap shows in the next read.
    const saved = roll();
    stubServer({
      'GET /rest/acl': () => json(staffAcl({ role: 'companycoach' })),
      'GET /api/v1/admin/roll/41': () => json(saved),
      'POST /api/v1/admin/roll/41/marks': (_url, init) => {
        const tap = JSON.parse(String(init.body));
        posted.push(tap);
        const child = saved.children.find((c) => c.id === tap.child_id)!;
        child.mark = { status: tap.status, note: tap.note ?? child.mark?.note ?? null, marked_at: '' };
        // The first tap's answer waits, so the screen must show it before the server has said yes.
        if (posted.length === 1)
          return new Promise((resolve) => (answer = () => resolve(json({ valid: true }))));
        return json({ valid: true });
      },
    });
    api.setToken('tok');
    renderApp('/admin/roll/41');

    const ava = await screen.findByRole('region', { name: 'Ava Nguyen' }, { timeout: 5000 });
    expect(within(ava).getByText('4 yrs 7 mths')).toBeTruthy();
    expect(within(ava).getByText('No photos')).toBeTruthy();
    expect(within(ava).getByText('Asthma, has a puffer')).toBeTruthy();
    const avaFlags = within(ava).getByRole('list', { name: 'Flags for Ava Nguyen' });
    expect(within(avaFlags).getByRole('listitem').textContent).toBe('Anaphylaxis');
    const ben = screen.getByRole('region', { name: 'Ben Smith' });
    expect(within(ben).queryByRole('list', { name: 'Flags for Ben Smith' })).toBeNull();
    expect(within(ben).getByText('Trial')).toBeTruthy();
    expect(within(ben).queryByText('No photos')).toBeNull();
    expect(within(ben).getByRole('img', { name: 'Payment overdue' })).toBeTruthy();
    expect(within(ava).queryByRole('img', { name: 'Payment overdue' })).toBeNull();

    const user = userEvent.setup();
    await user.click(within(ava).getByRole('button', { name: 'Late' }));
    await waitFor(() => expect(posted).toEqual([{ child_id: 7, status: 'late' }]));
    expect(within(ava).getByRole('button', { name: 'Late' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/1 of 2 marked/)).toBeTruthy();
    answer!();

    await user.click(within(ava).getByRole('button', { name: 'Add note' }));
    await user.type(within(ava).getByRole('textbox', { name: 'Note for Ava Nguyen' }), 'Traffic{Enter}');
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]).toEqual({ child_id: 7, status: 'late', note: 'Traffic' });
  });

  it('undoes a tap the server refuses and says why', async () => {
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/roll/41': () => json(roll()),
      'POST /api/v1/admin/roll/41/marks': () =>
        json({
          valid: false,
          error: {
            html_message: 'This session was cancelled, so its roll cannot be marked.',
            element: [
              { name: '_form', messages: ['This session was cancelled, so its roll cannot be marked.'] },
            ],
          },
        }),
    });
    api.setToken('tok');
    renderApp('/admin/roll/41');
    const ben = await screen.findByRole('region', { name: 'Ben Smith' }, { timeout: 5000 });
    await userEvent.setup().click(within(ben).getByRole('button', { name: 'Present' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This session was cancelled');
    expect(within(ben).getByRole('button', { name: 'Present' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('lists the day with each session marked so far, and moves to the next day', async () => {
    const asked: string[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl({ role: 'companycoach' })),
      'GET /api/v1/admin/roll': (url) => {
        asked.push(url.search);
        const date = url.searchParams.get('date') ?? '2026-11-24';
        return json({ date, sessions: date === '2026-11-24' ? [{ ...session, marked: 1 }] : [] });
      },
    });
    api.setToken('tok');
    renderApp('/admin/roll');
    const card = await screen.findByRole(
      'link',
      { name: /^16:00–\S+ Kinder Gym Tuesday/ },
      { timeout: 5000 },
    );
    expect(card.getAttribute('href')).toBe('/admin/roll/41');
    expect(within(card).getByText('1/2 marked')).toBeTruthy();
    expect(screen.getByText('Tuesday 24 November 2026')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Next day' }));
    expect(await screen.findByText('No class sessions on this day.')).toBeTruthy();
    expect(asked).toEqual(['', '?date=2026-11-25']);
  });

  it('a coach signing in lands on the roll; other staff on the dashboard', async () => {
    stubServer({
      'GET /rest/acl': () => json(staffAcl({ role: 'companycoach' })),
      'GET /api/v1/admin/roll': () => json({ date: '2026-11-24', sessions: [] }),
    });
    api.setToken('tok');
    api.setUserMeta({ role: 'companycoach', companyId: 7 });
    const coach = renderApp('/admin');
    await waitFor(() => expect(coach.router.state.location.pathname).toBe('/admin/roll'));
    coach.unmount();
    api.setUserMeta({ role: 'companystaff', companyId: 7 });
    const staff = renderApp('/admin');
    await waitFor(() => expect(staff.router.state.location.pathname).toBe('/admin/dashboard'));
  });
});
