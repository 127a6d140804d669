import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  apiSearch,
  goViaSidebar,
  isoDate,
  setReportPeriod,
  signInAsStaff,
  topShot,
} from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { company, useCompany } from './support/company.ts';
import { staffViewport, useBrowser, usePage } from './support/harness.ts';
import { shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

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
 * The class reports on the spec's company (seed/reports-demo.ts: last term with two
 * trials a class, one converted): each opened from the sidebar, filtered, its chart drawn, its CSV
 * downloaded.
 */
describe.each(staffViewport)('class reports (%s)', (viewport) => {
  const fixture = usePage('reports-classes', viewport, browser);

  it('trial conversions over a period and the enrolment comparison of last term: chart, table, CSV', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    await signInAsStaff(page);

    // From 200 days ago to the end of last term: last term's trials only, whatever the day and hour.
    // The current term's trial (seed/classes-demo.ts: Olivia's, in the first Kinder Gym class's next
    // session, today on a Monday) is not one of them.
    const token = await apiSignIn(company().admin.email, company().admin.password);
    const lastTerm = (await apiSearch(token, 'terms', 'Last term')).find((t) => t.name === 'Last term');
    const to = String(lastTerm?.end_date ?? '');
    expect(to, 'last term’s end').toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const from = addDays(isoDate(new Date()), -200);
    expect(from < to, 'the period holds last term').toBe(true);

    await goViaSidebar(page, viewport, 'Trial conversions', '/admin/reports/trial-conversions');
    await setReportPeriod(page, from, to);
    await shows(
      page.getByRole('table', { name: 'All trials' }).getByRole('cell', { name: `${from} to ${to}` }),
      'the period',
    );
    const byType = page.getByRole('table', { name: 'By class type' });
    await shows(byType.getByRole('cell', { name: 'Kinder Gym' }), 'last term’s Kinder Gym trials');
    await shows(page.getByRole('img', { name: 'Conversion rate (%) by class type' }), 'the conversion chart');
    await shows(page.getByRole('table', { name: 'By coach' }), 'the trials by coach');
    await shows(page.getByRole('cell', { name: 'Not recorded' }).first(), 'the lead source until the CRM');
    await shot('trial-conversions');
    const trials = await downloadCsv(page, new RegExp(`^trial-conversions-${from}-${to}\\.csv$`));
    expect(trials).toContain('Class type,Trials,Enrolled within 8 weeks,Conversion rate (%)');
    // Every class type's trials and conversions: half or more of last term's trials enrolled (more in
    // the holidays before a term, when a trier's place in the new term is within 8 weeks of the trial).
    const kinder = /\r\nKinder Gym,(\d+),(\d+),(\d+(?:\.\d)?)\r\n/.exec(trials);
    expect(kinder, 'the Kinder Gym row').not.toBeNull();
    const [held, enrolled, rate] = kinder!.slice(1).map(Number) as [number, number, number];
    expect(held, 'Kinder Gym trials').toBeGreaterThan(0);
    expect(enrolled * 2, 'half or more enrolled').toBeGreaterThanOrEqual(held);
    expect(enrolled, 'no more enrolled than tried').toBeLessThanOrEqual(held);
    expect(rate, 'the rate of those trials').toBe(Math.round((enrolled / held) * 1000) / 10);

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
