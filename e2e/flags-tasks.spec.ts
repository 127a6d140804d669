import { describe, expect, it } from 'vitest';
import { addDays, confirmDialog, listFeedback, signInAsStaff } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk } from './support/booking.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, expectAt, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows, signInAsParent } from './support/ui.ts';

/**
 * Flags and tasks (issue 17): staff flag a child and see it on the roll; a task list creates its
 * tasks for a family in one action; the company's parent completes a family task. The spec's
 * company (a copy of the demo): seed/flags-tasks-demo.ts (the flags, the "New family" list, Pat
 * Parent's family task).
 */

const browser = useBrowser();
useCompany();

describe.each(bothViewports)('flags and tasks (%s)', (viewport) => {
  const fixture = usePage('flags-tasks', viewport, browser);
  // A flag of this run's own, so the two viewports do not see each other's.
  const flagName = viewport === 'phone' ? 'Hearing aid' : 'Wears glasses';

  it('staff flag a child, and the flag shows next to the child on the roll with its note', async () => {
    const { page, shot } = fixture();
    const token = await apiSignIn(company().admin.email, company().admin.password);
    await apiOk('POST', '/api/v1/admin/flags', {
      token,
      body: { name: flagName, kind: 'medical', colour: '#2f9e44', show_on_roll: true },
    });

    await signInAsStaff(page);
    await page.goto('/admin/flagged');
    await shows(page.getByRole('heading', { name: 'Flagged children and families' }), 'the flags page');
    // The seeded flags: Ruby's Anaphylaxis and the Walker family's Late pick-up.
    await shows(page.getByRole('region', { name: 'Anaphylaxis on Ruby Walker' }), 'Ruby’s seeded flag');
    await page.getByRole('combobox', { name: 'Flag' }).click();
    await page.getByRole('option', { name: flagName, exact: true }).click();
    await page.getByRole('combobox', { name: 'Child' }).click();
    await page.getByRole('option', { name: 'Jack Walker', exact: true }).click();
    await page.getByRole('textbox', { name: 'Note' }).fill('Left ear; take it off for the trampoline.');
    await shot('1-apply');
    await page.getByRole('button', { name: 'Apply flag' }).click();
    await shows(page.getByText(`${flagName} applied.`), 'the applied message');
    await shows(page.getByRole('region', { name: `${flagName} on Jack Walker` }), 'the new flag in the list');
    await expectFitsWidth(page);
    await shot('2-applied');

    // The Kinder Gym session Ruby and Jack's roll is in (the next one, within two weeks).
    type Day = { date: string; sessions: { id: number; class_name: string; status: string }[] };
    type Roll = { children: { first_name: string; last_name: string }[] };
    let day = await apiOk<Day>('GET', '/api/v1/admin/roll', { token });
    let sessionId: number | undefined;
    for (let i = 0; i <= 14 && !sessionId; i++) {
      if (i > 0) day = await apiOk<Day>('GET', `/api/v1/admin/roll?date=${addDays(day.date, 1)}`, { token });
      for (const session of day.sessions.filter((s) => s.status === 'scheduled')) {
        const roll = await apiOk<Roll>('GET', `/api/v1/admin/roll/${session.id}`, { token });
        if (roll.children.some((c) => c.first_name === 'Jack' && c.last_name === 'Walker')) {
          sessionId = session.id;
          break;
        }
      }
    }
    expect(sessionId, 'a session with Jack Walker in the next two weeks').toBeTruthy();
    await page.goto(`/admin/roll/${sessionId}`);
    const jack = page.getByRole('region', { name: 'Jack Walker' });
    await shows(jack, 'Jack’s roll entry');
    const flags = jack.getByRole('list', { name: 'Flags for Jack Walker' });
    await shows(flags.getByRole('listitem').filter({ hasText: flagName }), 'the new flag on the roll');
    // The family's Late pick-up shows on Jack too.
    await shows(flags.getByRole('listitem').filter({ hasText: 'Late pick-up' }), 'the family flag');
    await flags.getByRole('listitem').filter({ hasText: flagName }).hover();
    await shows(page.getByRole('tooltip', { name: 'Left ear; take it off for the trampoline.' }), 'the note');
    await expectFitsWidth(page);
    await jack.scrollIntoViewIfNeeded();
    await shot('3-roll');
  });

  it('a task list creates its tasks for a family in one action; staff see them under all', async () => {
    const { page, shot } = fixture();
    const token = await apiSignIn(company().admin.email, company().admin.password);
    type List = { data: { id: number; name: string }[] };
    const lists = await apiOk<List>('GET', '/api/v1/admin/task-lists', { token });
    const newFamily = lists.data.find((r) => r.name === 'New family');
    expect(newFamily, 'the seeded New family list').toBeTruthy();

    await signInAsStaff(page);
    await page.goto(`/admin/task-lists/${newFamily!.id}`);
    await shows(page.getByRole('button', { name: 'Create tasks', exact: true }), 'the Create tasks action');
    await shot('4-task-list');
    await page.getByRole('button', { name: 'Create tasks', exact: true }).click();
    const dialog = confirmDialog(page);
    await shows(dialog, 'the Create tasks dialog');
    await dialog.getByRole('combobox', { name: 'Family' }).click();
    await page.getByRole('option', { name: company().parent.fullName }).first().click();
    await shot('5-create-tasks');
    await dialog.getByRole('button', { name: 'Create tasks', exact: true }).click();
    await shows(
      listFeedback(page, `4 tasks created for ${company().parent.fullName}.`),
      'the action’s message',
    );

    await page.goto('/admin/tasks?filter=all');
    await shows(page.getByRole('heading', { name: 'Tasks' }), 'the tasks page');
    await shows(page.getByRole('region', { name: 'Send the welcome pack' }).first(), 'a task from the list');
    await expectFitsWidth(page);
    await shot('6-tasks');
  });

  it('the parent completes a family task in their account', async () => {
    const { page, shot } = fixture();
    await signInAsParent(page);
    await page.goto('/admin/students/tasks');
    await expectAt(page, '/admin/students/tasks');
    const title = 'Upload your child’s medical plan';
    const task = page.getByRole('region', { name: title }).first();
    await shows(task, 'the family task from the task list');
    const before = await page.getByText('Done', { exact: true }).count();
    await expectFitsWidth(page);
    await shot('7-family-tasks');
    await page
      .getByRole('button', { name: `Mark done: ${title}` })
      .first()
      .click();
    await expect
      .poll(() => page.getByText('Done', { exact: true }).count(), { timeout: 15_000 })
      .toBe(before + 1);
    await shot('8-done');
  });
});
