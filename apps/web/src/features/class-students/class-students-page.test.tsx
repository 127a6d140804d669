import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClassStudentsResponse } from '@tumble/contracts/class-students';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const list = (): ClassStudentsResponse => ({
  term_class: { id: 12, name: 'Ninja Kids Tuesday', term_id: 3, term_name: 'Term 4 2026', capacity: 10 },
  today: '2026-11-24',
  next_session: '2026-12-01',
  places_left: 0,
  students: [
    {
      enrolment_id: 70,
      waitlist_id: null,
      child_id: 7,
      child_name: 'Ava Nguyen',
      age: { years: 4, months: 7 },
      parent_name: 'Lee Nguyen',
      phone: '0400 000 001',
      email: 'lee@example.test',
      status: 'active',
      held_for: null,
      hold_expires_at: null,
      starts_on: '2026-10-13',
      withdrawn_from: null,
      tier: null,
      waitlist_status: null,
    },
    {
      enrolment_id: null,
      waitlist_id: 5,
      child_id: 8,
      child_name: 'Ben Smith',
      age: { years: 5, months: 0 },
      parent_name: 'Jo Smith',
      phone: null,
      email: 'jo@example.test',
      status: 'waitlisted',
      held_for: null,
      hold_expires_at: null,
      starts_on: null,
      withdrawn_from: null,
      tier: 3,
      waitlist_status: 'waiting',
    },
  ],
});

describe('a class’s students', () => {
  it('lists each child with status, age and family, withdraws from the next session and offers a place', async () => {
    const posted: { url: string; body: unknown }[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/term-classes/12/class-students': () => json(list()),
      'POST /api/v1/admin/term-classes/12/class-students/withdraw': (url, init) => {
        posted.push({ url: url.pathname, body: JSON.parse(String(init.body)) });
        return json({ message: 'Ava Nguyen is withdrawn from 01/12/2026. $50.00 credited to the family.' });
      },
      'POST /api/v1/admin/term-classes/12/class-students/offer': () =>
        json({ message: 'This class has no free place to offer.' }, { status: 409 }),
    });
    api.setToken('tok');
    renderApp('/admin/term-classes/12/class-students');

    const ava = (await screen.findByText('Ava Nguyen', {}, { timeout: 5000 })).closest('tr')!;
    expect(within(ava).getByText('4 yrs 7 mths')).toBeTruthy();
    expect(within(ava).getByText('Active')).toBeTruthy();
    expect(within(ava).getByText('Lee Nguyen')).toBeTruthy();
    const ben = screen.getByText('Ben Smith').closest('tr')!;
    expect(within(ben).getByText('Waitlisted')).toBeTruthy();
    expect(within(ben).getByText('sibling')).toBeTruthy();
    expect(screen.getByText(/places left/).textContent).toBe('0 of 10 places left');
    // A full class cannot take an enrolment from its next session.
    expect(screen.getByRole('button', { name: 'Enrol' }).hasAttribute('disabled')).toBe(true);

    const user = userEvent.setup();
    await user.click(within(ava).getByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw Ava Nguyen' });
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() =>
      expect(posted).toEqual([
        {
          url: '/api/v1/admin/term-classes/12/class-students/withdraw',
          body: { enrolment_id: 70, from: '2026-12-01' },
        },
      ]),
    );
    expect(await screen.findByText(/\$50.00 credited to the family/)).toBeTruthy();

    await user.click(within(ben).getByRole('button', { name: 'Offer a place' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toContain('This class has no free place to offer.');
  });
});
