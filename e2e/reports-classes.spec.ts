import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, goViaSidebar, isoDate, signInAsStaff, topShot } from './support/admin.ts';
import { bothViewports, useBrowser, usePage } from './support/harness.ts';
import { shows } from './support/ui.ts';

const browser = useBrowser();

/** Downloads the report's CSV and answers its text. */
async function downloadCsv(page: Page, filename: RegExp): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(filename);
  return readFile((await download.path())!, 'utf8');
}

/**
 * The class reports of issue 17 on the demo (seed/reports-demo.ts: last term with two trials a class,
 * one converted): each opened from the sidebar, filtered, its chart drawn, its CSV downloaded.
 */
describe.each(bothViewports)('class reports (%s)', (viewport) => {
  const fixture = usePage('reports-classes', viewport, browser);

  it('trial conversions over a period and the enrolment comparison of last term: chart, table, CSV', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    await signInAsStaff(page);

    await goViaSidebar(page, viewport, 'Trial conversions', '/admin/reports/trial-conversions');
    // From 200 days ago: last term's trials (the demo's next trial is still to come).
    const from = addDays(isoDate(new Date()), -200);
    await page.getByLabel('From', { exact: true }).fill(from);
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe(from);
    const byType = page.getByRole('table', { name: 'By class type' });
    await shows(byType.getByRole('cell', { name: 'Kinder Gym' }), 'last term’s Kinder Gym trials');
    await shows(page.getByRole('img', { name: 'Conversion rate (%) by class type' }), 'the conversion chart');
    await shows(page.getByRole('table', { name: 'By coach' }), 'the trials by coach');
    await shows(page.getByRole('cell', { name: 'Not recorded' }).first(), 'the lead source until the CRM');
    await shot('trial-conversions');
    const trials = await downloadCsv(page, new RegExp(`^trial-conversions-${from}\\.csv$`));
    expect(trials).toContain('Class type,Trials,Enrolled within 8 weeks,Conversion rate (%)');
    // Every class type's trials and conversions (half or more of the demo's trials enrolled).
    expect(trials).toMatch(/\r\nKinder Gym,\d+,\d+,[5-9]\d(\.\d)?\r\n/);

    await goViaSidebar(page, viewport, 'Enrolment comparison', '/admin/reports/enrollment-comparison');
    await page.getByLabel('Term', { exact: true }).selectOption({ label: 'Last term' });
    await expect.poll(() => new URL(page.url()).searchParams.get('term')).toMatch(/^\d+$/);
    const compared = page.getByRole('table', { name: 'Terms compared' });
    await shows(compared.getByRole('cell', { name: 'Last term' }), 'last term as this term');
    await shows(page.getByRole('img', { name: 'This term by class type' }).first(), 'the enrolments chart');
    await shows(page.getByRole('table', { name: 'Enrolments by class type' }), 'the enrolments table');
    await shot('enrollment-comparison');
    await page.getByRole('table', { name: /Class fill rate/ }).scrollIntoViewIfNeeded();
    await f.shot('enrollment-comparison-fill');
    const comparison = await downloadCsv(page, /^enrollment-comparison-\d+\.csv$/);
    expect(comparison).toContain('Class type,This term,Previous term,Same term last year');
    expect(f.takeDialogs()).toEqual([]);
  }, 180_000);
});
