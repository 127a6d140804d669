import { screen, within } from '@testing-library/react';
import type { DashboardResponse } from '@tumble/contracts/dashboard';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const session = {
  date: '2030-01-08',
  end_time: '17:00',
  room: 'Main floor',
  status: 'scheduled' as const,
  cancel_reason: null,
};

/** A coach's answer: today's own sessions and tasks, no company cards. */
const coachView: DashboardResponse = {
  today: '2030-01-08',
  sessions: [
    {
      ...session,
      id: 11,
      class_name: 'Kinder Gym',
      start_time: '16:00',
      coach: 'Casey Coach',
      expected: 3,
      marked: 1,
    },
    {
      ...session,
      id: 12,
      class_name: 'Ninja Kids',
      start_time: '17:00',
      coach: 'Casey Coach',
      expected: 2,
      marked: 2,
    },
  ],
  my_tasks: [
    {
      id: 5,
      title: 'Check the foam pit',
      notes: null,
      due_date: '2030-01-07',
      status: 'open',
      overdue: true,
      assignee: 'Casey Coach',
      for_family: false,
      about: null,
      done_at: null,
    },
  ],
  cover: null,
  checks: null,
  overdue_invoices: null,
  this_week: null,
  waitlist_offers: null,
  open_anomalies: null,
  fill_rate: null,
};

const adminView: DashboardResponse = {
  ...coachView,
  my_tasks: [],
  cover: {
    count: 1,
    next: [
      {
        session_id: 12,
        class_name: 'Ninja Kids',
        date: '2030-01-09',
        start_time: '17:00',
        coach_name: 'Bo Coach',
      },
    ],
  },
  checks: [
    { coach_id: 3, name: 'Alex Coach', wwcc_number: 'WWC1', expires_on: '2030-01-20', expired: false },
  ],
  overdue_invoices: { count: 2, amount: 15000 },
  this_week: { since: '2030-01-07', enrolments: 4, trials: 1 },
  waitlist_offers: { classes: 1, events: 2 },
  open_anomalies: 2,
  fill_rate: { term_id: 9, term_name: 'Term 1 2030', places: 45, capacity: 60 },
};

function show(body: DashboardResponse, role: 'companyadmin' | 'companycoach') {
  stubServer({
    'GET /rest/acl': () => json(staffAcl({ role })),
    'GET /api/v1/admin/dashboard': () => json(body),
  });
  api.setToken('tok');
  renderApp('/admin/dashboard');
}

describe('dashboard', () => {
  it('shows staff every card, each linking to where the work is done', async () => {
    show(adminView, 'companyadmin');
    const today = await screen.findByRole('region', { name: "Today's sessions" }, { timeout: 5000 });
    expect(within(today).getByText(/1 roll not yet taken/)).toBeTruthy();
    expect(within(today).getByRole('link', { name: '16:00 Kinder Gym' }).getAttribute('href')).toBe(
      '/admin/roll/11',
    );
    expect(within(today).getByText('1/3 marked')).toBeTruthy();
    expect(within(today).getByText('Roll taken')).toBeTruthy();

    const overdue = screen.getByRole('region', { name: 'Overdue invoices' });
    expect(overdue.textContent).toContain('invoices are overdue: $150.00 to collect.');
    expect(within(overdue).getByRole('link', { name: 'Invoices' }).getAttribute('href')).toBe(
      '/admin/invoices?status=overdue',
    );
    expect(screen.getByText('1 class session needs cover.')).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Working With Children Checks' })).getByText('Alex Coach'),
    ).toBeTruthy();
    expect(screen.getByText('2 registrations need a decision.')).toBeTruthy();
    const fill = screen.getByRole('region', { name: 'Fill rate this term' });
    expect(fill.textContent).toContain('75%');
    expect(fill.textContent).toContain('45 of 60 places taken');
    expect(within(fill).getByRole('link', { name: 'Term 1 2030' }).getAttribute('href')).toBe(
      '/admin/terms/9',
    );
    expect(screen.getByRole('region', { name: 'This week' }).textContent).toContain('4new enrolments');
    expect(screen.getByRole('region', { name: 'Waitlist offers' }).textContent).toContain(
      '2event invitations open',
    );
    expect(screen.getByRole('region', { name: 'My tasks' }).textContent).toContain('No open tasks.');
  });

  it("shows a coach today's sessions and their tasks only", async () => {
    show(coachView, 'companycoach');
    await screen.findByRole('region', { name: "Today's sessions" }, { timeout: 5000 });
    const tasks = screen.getByRole('region', { name: 'My tasks' });
    expect(tasks.textContent).toContain('Check the foam pit');
    expect(tasks.textContent).toContain('Overdue 07/01/2030');
    for (const card of ['Cover', 'Overdue invoices', 'This week', 'Fill rate this term', 'Registrations'])
      expect(screen.queryByRole('region', { name: card })).toBeNull();
  });
});
