import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { goViaSidebar, signInAsStaff, topShot } from './support/admin.ts';
import { screenshot, type ViewportName } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import { expectAt, useBrowser, usePage } from './support/harness.ts';
import { shows, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/** Moves day by day (at most two weeks) until the list shows a session that is not cancelled. */
async function firstDayWithSessions(page: Page) {
  const sessions = page.getByRole('link').filter({ hasText: /\d+\/\d+ marked/ });
  // The day's answer first (sessions or none), so today is not skipped while it loads.
  await sessions.first().or(page.getByText('No class sessions on this day.')).waitFor();
  for (let i = 0; i < 14 && (await sessions.count()) === 0; i++) {
    const before = await page.getByRole('heading', { level: 1 }).locator('xpath=..').textContent();
    await page.getByRole('button', { name: 'Next day' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).locator('xpath=..').textContent())
      .not.toBe(before);
    await page.waitForLoadState('networkidle');
  }
  return sessions;
}

/** The harness knows desktop and phone; a tablet (768×1024, how coaches often take the roll) is a resized desktop. */
const widths: [label: string, viewport: ViewportName][] = [
  ['phone', 'phone'],
  ['tablet', 'desktop'],
  ['desktop', 'desktop'],
];

describe.each(widths)('daily roll (%s)', (label, viewport) => {
  const fixture = usePage(label === 'tablet' ? 'roll-tablet' : 'roll', viewport, browser);

  it('a coach signs in on the roll, sees only their sessions and marks a child with one tap that stays', async () => {
    const f = fixture();
    const { page } = f;
    const top = topShot(f);
    const shot = async (step: string) => {
      if (label !== 'tablet') return top(step);
      await page.evaluate(() => window.scrollTo({ top: 0, left: 0, behavior: 'instant' }));
      await screenshot(page, `roll-${step}-tablet`);
    };
    if (label === 'tablet') await page.setViewportSize({ width: 768, height: 1024 });
    // The company's first coach (seed/classes-demo.ts).
    const casey = company().coaches.casey;
    await page.goto('/admin/login');
    await submitSignIn(page, casey.email, casey.password);
    await expectAt(page, '/admin/roll');
    await shows(page.getByRole('heading', { level: 1, name: 'Roll' }), 'the roll');

    const sessions = await firstDayWithSessions(page);
    expect(await sessions.count()).toBeGreaterThan(0);
    for (const text of await sessions.allTextContents()) expect(text).toContain(casey.fullName);
    await shot('day');

    await sessions.first().click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/admin\/roll\/\d+$/);
    const child = page.getByRole('region').first();
    await shows(child.getByRole('button', { name: 'Present' }), 'the marks of a child');
    const name = await child.getAttribute('aria-label');
    // Whatever this file's run at another width left (the same child), a new tap replaces it.
    const late = child.getByRole('button', { name: 'Late' });
    const target = (await late.getAttribute('aria-pressed')) === 'true' ? 'Present' : 'Late';
    await child.getByRole('button', { name: target }).click();
    await expect
      .poll(() => child.getByRole('button', { name: target }).getAttribute('aria-pressed'))
      .toBe('true');
    await page.waitForLoadState('networkidle');
    await shot('marked');

    // Saved at once: a fresh load (another device) shows the same mark.
    await page.reload();
    const again = page.getByRole('region', { name: name! });
    await expect
      .poll(() => again.getByRole('button', { name: target }).getAttribute('aria-pressed'))
      .toBe('true');

    await again.getByRole('button', { name: /^(Add|Edit) note$/ }).click();
    const note = again.getByRole('textbox', { name: `Note for ${name}` });
    await note.fill(`Checked on ${label}`);
    await note.press('Enter');
    await shows(again.getByText(`Note: Checked on ${label}`), 'the saved note');
    await shot('note');
  });

  if (label === 'desktop')
    it('staff print the daily roll of a day (table, CSV and PDF)', async () => {
      const f = fixture();
      const { page } = f;
      await signInAsStaff(page);
      await goViaSidebar(page, viewport, 'Daily roll', '/admin/reports/daily-roll');
      await shows(page.getByRole('table', { name: 'Sessions' }), 'the sessions of the day');
      await shows(page.getByRole('button', { name: 'Download PDF' }), 'the PDF download');
      await topShot(f)('report');
    });
});
