import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RolloverPlan, RolloverRun, TermRollovers } from '@tumble/contracts/rollover';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const term = { id: 7, name: 'Term 1 2030' };
const next = { id: 8, name: 'Term 2 2030' };
const kinder = (id: number, name: string) => ({ id, name, weekday: 2, start_time: '16:00' });

const overview: TermRollovers = {
  term,
  next_terms: [{ ...next, start_date: '2030-04-22' }],
  runs: [],
};
const plan: RolloverPlan = {
  from: term,
  to: next,
  deadline: '2030-04-20T08:00:00.000Z',
  deadline_display: '20 Apr 2030, 6:00 pm',
  items: [
    {
      enrolment_id: 1,
      child: { id: 1, name: 'Ava Test' },
      from_class: kinder(11, 'Kinder A'),
      to_class: kinder(21, 'Kinder B'),
      outcome: 'hold',
    },
    {
      enrolment_id: 2,
      child: { id: 2, name: 'Ben Test' },
      from_class: kinder(11, 'Kinder A'),
      to_class: kinder(21, 'Kinder B'),
      outcome: 'full',
    },
  ],
  totals: { enrolments: 2, hold: 1, already_held: 0, conflicts: 1 },
};
const run = (status: RolloverRun['status'], done: number): RolloverRun => ({
  id: 5,
  from: term,
  to: next,
  deadline: plan.deadline,
  deadline_display: plan.deadline_display,
  status,
  total: 1,
  done,
  created_at: '2030-04-01T00:00:00.000Z',
  undone_at: null,
  can_undo: status === 'done',
  counts: { held: done, confirmed: 0, released: 0, undone: 0 },
  items:
    done === 0
      ? []
      : [{ id: 1, child: { id: 1, name: 'Ava Test' }, to_class: kinder(21, 'Kinder B'), state: 'held' }],
});

describe('Roll over screen', () => {
  it('sends the chosen term and deadline, highlights conflicts, commits and follows the run to done', async () => {
    const bodies: unknown[] = [];
    let polls = 0;
    let undone = 0;
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/terms/7/rollovers': () => json(overview),
      'POST /api/v1/admin/terms/7/rollovers/preview': (_url, init) => {
        bodies.push(JSON.parse(String(init.body)));
        return json(plan);
      },
      'POST /api/v1/admin/terms/7/rollovers': (_url, init) => {
        bodies.push(JSON.parse(String(init.body)));
        return json(run('running', 0));
      },
      'GET /api/v1/admin/rollovers/5': () =>
        json(
          undone
            ? { ...run('undone', 1), can_undo: false }
            : ++polls < 2
              ? run('running', 0)
              : run('done', 1),
        ),
      'POST /api/v1/admin/rollovers/5/undo': () => {
        undone++;
        return json({ ...run('undone', 1), can_undo: false });
      },
    });
    api.setToken('tok');
    renderApp('/admin/terms/7/rollover');

    await screen.findByRole('heading', { level: 1, name: 'Roll over Term 1 2030' }, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('combobox', { name: 'Roll into' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Term 2 2030 (from 22/04/2030)' }));
    const deadline = screen.getByRole('textbox', { name: 'Deadline' });
    fireEvent.change(deadline, { target: { value: '20/04/2030' } });
    fireEvent.blur(deadline);
    const dryRun = screen.getByRole('button', { name: 'Dry run' });
    await waitFor(() => expect(dryRun.hasAttribute('disabled')).toBe(false));
    fireEvent.click(dryRun);

    const table = await screen.findByRole('table', { name: 'Dry run' });
    const ben = within(table).getByText('Ben Test').closest('tr')!;
    expect(within(ben).getByText('Class full')).toBeTruthy();
    expect(ben.getAttribute('style') ?? '').toContain('background');
    const ava = within(table).getByText('Ava Test').closest('tr')!;
    expect(ava.getAttribute('style') ?? '').not.toContain('background');
    expect(bodies[0]).toEqual({ to_term_id: 8, deadline_date: '2030-04-20', deadline_time: '18:00' });

    fireEvent.click(screen.getByRole('button', { name: 'Commit: hold 1 place' }));
    await screen.findByLabelText('Progress');
    expect(bodies[1]).toEqual(bodies[0]);
    const held = await screen.findByRole('table', { name: 'Held places' }, { timeout: 5_000 });
    expect(within(held).getByText('Ava Test')).toBeTruthy();
    expect(within(held).getByText('Held')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo rollover' }));
    await screen.findByText('Undone', { selector: '.mantine-Badge-label' });
    expect(undone).toBe(1);
  }, 20_000);
});
