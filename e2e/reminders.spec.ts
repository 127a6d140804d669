import { describe, expect, it } from 'vitest';
import { goViaSidebar, signInAsStaff } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk } from './support/booking.ts';
import { company, person, useCompany } from './support/company.ts';
import { bothViewports, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows } from './support/ui.ts';

/**
 * Reminder emails (issue 16): staff switch the class reminder on, change its hours and its wording
 * (an unknown placeholder is refused first), and the page keeps them. The spec's company (a copy
 * of the demo): seed/reminders-demo.ts (three rules on, the class reminder off, two reminders sent
 * last week).
 */

const browser = useBrowser();
useCompany();

type Rules = { rules: { kind: string; enabled: boolean; amount: number; subject: string; body: string }[] };

describe.each(bothViewports)('reminder emails (%s)', (viewport) => {
  const fixture = usePage('reminders', viewport, browser);
  // Each run its own hours and wording, so the two viewports' saves are told apart.
  const hours = viewport === 'phone' ? '20' : '36';
  const subject = `See you at {{class}} on {{date}} (${viewport})`;

  it('switches the class reminder on and edits its hours and wording', async () => {
    const { page, shot } = fixture();
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Reminder emails', '/admin/reminder-emails');
    const rule = page.getByRole('region', { name: 'Class reminder' });
    await shows(rule, 'the class reminder rule');
    await shows(
      page.getByRole('region', { name: 'Working With Children Check expiring' }),
      'the coach check rule',
    );
    // Last week's seeded reminders.
    await shows(page.getByText(person('walker')).first(), 'the class reminder sent to the Walkers');
    await expectFitsWidth(page);
    await shot('1-rules', { fullPage: true });

    // Off as seeded for the first run; the second finds it as the first left it (on).
    const on = rule.getByRole('switch', { name: 'Class reminder on' });
    if (!(await on.isChecked())) await on.click({ force: true });
    await expect.poll(() => on.isChecked(), { timeout: UI_TIMEOUT }).toBe(true);
    await rule.getByRole('textbox', { name: 'Hours before' }).fill(hours);
    await rule.getByRole('button', { name: 'Edit the wording' }).click();
    const subjectBox = rule.getByRole('textbox', { name: 'Subject' });
    await subjectBox.fill('Reminder for {{clas}}');
    await rule.getByRole('button', { name: 'Save' }).click();
    await shows(
      rule.getByText('This email has no placeholder {{clas}}.', { exact: false }),
      'the unknown placeholder refused',
    );
    await rule.scrollIntoViewIfNeeded();
    await shot('2-unknown-placeholder');

    await subjectBox.fill(subject);
    await rule
      .getByRole('textbox', { name: 'Message' })
      .fill('Hello {{name}},\n\n{{children}} has {{class}} at {{time}}. Bring a drink bottle!');
    await rule.getByRole('button', { name: 'Save' }).click();
    await shows(rule.getByRole('status').filter({ hasText: 'Class reminder is on.' }), 'the saved message');
    await shows(rule.getByText('On', { exact: true }), 'the On badge');
    await expectFitsWidth(page);
    await shot('3-saved');

    // The page shows what was stored after a reload, and the API agrees.
    await page.reload();
    const again = page.getByRole('region', { name: 'Class reminder' });
    await shows(again, 'the class reminder after a reload');
    const hoursBox = again.getByRole('textbox', { name: 'Hours before' });
    await expect.poll(() => hoursBox.inputValue(), { timeout: UI_TIMEOUT }).toBe(hours);
    await shows(again.getByText(`Subject: ${subject}`), 'the saved subject');
    await again.getByRole('button', { name: 'Edit the wording' }).click();
    expect(await again.getByRole('textbox', { name: 'Subject' }).inputValue()).toBe(subject);
    expect(await again.getByRole('switch', { name: 'Class reminder on' }).isChecked()).toBe(true);
    const token = await apiSignIn(company().admin.email, company().admin.password);
    const stored = await apiOk<Rules>('GET', '/api/v1/admin/reminder-emails', { token });
    expect(stored.rules.find((r) => r.kind === 'class')).toMatchObject({
      enabled: true,
      amount: Number(hours),
      subject,
      body: 'Hello {{name}},\n\n{{children}} has {{class}} at {{time}}. Bring a drink bottle!',
    });
  });
});
