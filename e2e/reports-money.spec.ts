import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, goViaSidebar, isoDate, setReportPeriod, signInAsStaff, topShot } from './support/admin.ts';
import { useCompany } from './support/company.ts';
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
 * The money reports on the spec's company (seed/money-reports-demo.ts: the Family
 * children on the camp's second day, Noah with daily cover and Ava with season cover, paid with
 * WELCOME10 and an NSW voucher): each opened from the sidebar, its period set, its chart drawn,
 * its CSV downloaded.
 */
describe.each(staffViewport)('money reports (%s)', (viewport) => {
  const fixture = usePage('reports-money', viewport, browser);

  it('insurance, coupon code usages, NSW vouchers and events over a period: chart, table, CSV', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    await signInAsStaff(page);
    const today = isoDate(new Date());
    const from = addDays(today, -30);
    const to = addDays(today, 365);

    await goViaSidebar(page, viewport, 'Insurance report', '/admin/reports/insurance');
    await setReportPeriod(page, from, to);
    const covered = page.getByRole('table', { name: 'Covered', exact: true });
    // The company's two children with cover, and no one else (the company is this spec's alone).
    const coverOf = (child: string) => covered.getByRole('row').filter({ hasText: `${child} Family` });
    await shows(coverOf('Ava').getByRole('cell', { name: 'Season cover' }), 'Ava’s season cover');
    await shows(coverOf('Noah').getByRole('cell', { name: 'Daily accident cover' }), 'Noah’s daily cover');
    await expect.poll(() => covered.getByRole('row').count(), { message: 'the header and two rows' }).toBe(3);
    await shows(page.getByRole('img', { name: 'Children by cover' }), 'the cover chart');
    await shot('insurance');
    const insurance = await downloadCsv(page, /^insurance-.*\.csv$/);
    expect(insurance).toContain('Cover,Children,Bookings,Days booked');
    expect(insurance).toMatch(/\r\nAva Family,.*,Full insurance,Season cover,/);

    await goViaSidebar(page, viewport, 'Coupon code usages', '/admin/reports/coupon-code-usages');
    await setReportPeriod(page, from, to);
    await page.getByLabel('Used on', { exact: true }).selectOption({ label: 'Events' });
    await expect.poll(() => new URL(page.url()).searchParams.get('kind')).toBe('event');
    await shows(
      page.getByRole('table', { name: 'By code', exact: true }).getByRole('cell', { name: 'WELCOME10' }),
      'the demo coupon’s uses',
    );
    await shows(page.getByRole('img', { name: 'Uses by code' }), 'the uses chart');
    await shot('coupon-code-usages');
    const usages = await downloadCsv(page, /^coupon-code-usages-.*\.csv$/);
    expect(usages).toContain('Code,Type,Uses,Discount given,Revenue');
    expect(usages).toMatch(/\r\nWELCOME10,Coupon,\d+,/);

    await goViaSidebar(page, viewport, 'NSW vouchers', '/admin/reports/vouchers');
    await setReportPeriod(page, from, to);
    await shows(
      page.getByRole('table', { name: 'Vouchers redeemed' }).getByRole('cell', { name: 'AK100200' }),
      'the demo voucher',
    );
    await shows(page.getByRole('img', { name: 'Amount by purchase' }), 'the voucher chart');
    await shot('vouchers');
    const vouchers = await downloadCsv(page, /^vouchers-.*\.csv$/);
    expect(vouchers).toMatch(/\r\nAK100200,"Ava Family, Noah Family",Event booking,BK-DREP1,50\.00,/);
    // Staff claim the voucher from Service NSW: the report's Claim column says so.
    await page.getByLabel('Voucher', { exact: true }).fill('AK100200');
    await page.getByRole('button', { name: 'Mark claimed' }).click();
    await shows(page.getByRole('status').getByText('AK100200 marked claimed.'), 'the claim confirmed');
    await shows(
      page
        .getByRole('table', { name: 'Vouchers redeemed' })
        .getByRole('cell', { name: 'Claimed', exact: true }),
      'the voucher claimed in the report',
    );
    await page.getByRole('button', { name: 'Mark claimed' }).scrollIntoViewIfNeeded();
    await f.shot('vouchers-claimed');

    await goViaSidebar(page, viewport, 'Events report', '/admin/reports/events');
    await setReportPeriod(page, from, to);
    await shows(page.getByRole('table', { name: 'By event', exact: true }), 'the events table');
    await shows(page.getByRole('img', { name: 'Revenue by event' }), 'the revenue chart');
    await shows(page.getByRole('table', { name: 'By day and session' }), 'each day and session');
    await shot('events');
    const eventsCsv = await downloadCsv(page, /^events-.*\.csv$/);
    expect(eventsCsv).toContain('Event,Starts,Bookings,Places,Revenue,Insurance taken,Waiting');
    expect(f.takeDialogs()).toEqual([]);
  }, 240_000);
});
