import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReminderRulesResponse, reminderInfo, reminderKinds } from '@tumble/contracts/reminders';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

const FIRST_LOAD = { timeout: 5000 };

const page: ReminderRulesResponse = {
  rules: reminderKinds.map((kind) => {
    const info = reminderInfo[kind];
    return {
      kind,
      title: info.title,
      sends: info.sends,
      enabled: kind === 'wwcc',
      amount: info.defaultAmount,
      unit: info.unit,
      direction: info.direction,
      max_amount: info.maxAmount,
      subject: kind === 'class' ? 'Reminder: {{class}} at {{time}}' : 'Subject',
      body: 'Hello {{name}},',
      customised: false,
      default_subject: 'Reminder: {{class}} on {{date}} at {{time}}',
      default_body: 'Hello {{name}},\n\nDefault words.',
      placeholders: Object.entries(info.placeholders).map(([name, meaning]) => ({ name, meaning })),
    };
  }),
  sent: [
    {
      id: 1,
      kind: 'class',
      title: 'Class reminder',
      to: 'walker@demo.test',
      occasion: 'Kinder Gym on 18/11/2026 at 16:00',
      sent_at: '2026-11-18T05:00:00.000Z',
    },
  ],
};

describe('Reminder emails page', () => {
  it('lists every rule and the reminders sent, and saves a rule with exactly what staff set', async () => {
    const posted: unknown[] = [];
    stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/reminder-emails': () => json(page),
      'POST /api/v1/admin/reminder-emails': (_url, init) => {
        posted.push(JSON.parse(String(init.body)));
        return json({ valid: true, info: { title: 'Saved', message: 'Class reminder is on.' } });
      },
    });
    api.setToken('tok');
    renderApp('/admin/reminder-emails');
    const rule = await screen.findByRole('region', { name: 'Class reminder' }, FIRST_LOAD);
    for (const kind of reminderKinds)
      expect(screen.getByRole('region', { name: reminderInfo[kind].title })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Last reminders sent' }).textContent).toContain(
      'walker@demo.test',
    );
    expect(within(rule).getByText('Subject: Reminder: {{class}} at {{time}}')).toBeTruthy();

    const user = userEvent.setup();
    await user.click(within(rule).getByRole('switch', { name: 'Class reminder on' }));
    const hours = within(rule).getByRole('textbox', { name: 'Hours before' });
    await user.clear(hours);
    await user.type(hours, '12');
    await user.click(within(rule).getByRole('button', { name: 'Edit the wording' }));
    // An unknown placeholder is refused before anything is sent.
    const subject = within(rule).getByRole('textbox', { name: 'Subject' });
    await user.clear(subject);
    await user.type(subject, 'Hi {{{{nmae}}');
    await user.click(within(rule).getByRole('button', { name: 'Save' }));
    expect(await within(rule).findByText(/This email has no placeholder \{\{nmae\}\}/)).toBeTruthy();
    expect(posted).toEqual([]);
    // The default wording is one click away.
    await user.click(within(rule).getByRole('button', { name: 'Use the default wording' }));
    await user.click(within(rule).getByRole('button', { name: 'Save' }));
    expect(await within(rule).findByText('Class reminder is on.')).toBeTruthy();
    expect(posted).toEqual([
      {
        kind: 'class',
        enabled: true,
        amount: 12,
        subject: 'Reminder: {{class}} on {{date}} at {{time}}',
        body: 'Hello {{name}},\n\nDefault words.',
      },
    ]);
  }, 30_000);
});
