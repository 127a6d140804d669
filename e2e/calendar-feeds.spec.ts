import { describe, expect, it } from 'vitest';
import { goViaSidebar, signInAsStaff, topShot } from './support/admin.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows, signInAsParent } from './support/ui.ts';

const browser = useBrowser();
useCompany();

describe.each(bothViewports)('calendar feeds (%s)', (viewport) => {
  const fixture = usePage('calendar-feeds', viewport, browser);

  it('staff make the company feed on the Google Calendar page, copy its URL and the URL serves the timetable', async () => {
    const f = fixture();
    const { page, context } = f;
    const shot = topShot(f);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Google Calendar', '/admin/integrations/google');
    await shows(page.getByRole('heading', { name: 'Company feed' }), 'the company feed card');
    await shows(
      page.getByText(company().coaches.casey.fullName, { exact: false }).first(),
      "the company's coach's row",
    );
    await shot('page');

    // Create the company feed (the phone run regenerates the one the desktop run made before it).
    const make = page.getByRole('button', { name: /^(Create feed URL|Regenerate URL): Company timetable$/ });
    await make.click();
    const url = page.getByTestId('feed-url');
    await shows(url, 'the new feed URL');
    const shown = (await url.textContent()) ?? '';
    expect(shown).toMatch(/\/feeds\/[A-Za-z0-9_-]{43}\.ics$/);
    const subscribe = page.getByRole('link', { name: 'Subscribe in Google Calendar' });
    expect(await subscribe.getAttribute('href')).toBe(
      `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(shown.replace(/^https?:\/\//, 'webcal://'))}`,
    );
    await page.getByRole('button', { name: 'Copy URL' }).click();
    await shows(page.getByRole('button', { name: 'Copied' }), 'the copied state');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);
    await expectFitsWidth(page);
    await shot('made');

    // The copied URL serves the calendar, with no sign-in.
    const feed = await page.request.get(copied);
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    const text = await feed.text();
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(text).toContain('X-WR-CALNAME:');
    expect(text.match(/BEGIN:VEVENT/g)?.length ?? 0).toBeGreaterThan(5);

    // Regenerating stops the old URL.
    await page.getByRole('button', { name: 'Regenerate URL: Company timetable' }).click();
    await expect.poll(async () => (await url.textContent()) ?? '', { timeout: 10_000 }).not.toBe(shown);
    expect((await page.request.get(copied)).status()).toBe(404);
    await shot('regenerated');
  });

  it('a parent gets the family feed on My Calendar', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    await signInAsParent(page);
    await goViaSidebar(page, viewport, 'My Calendar', '/admin/students/calendar');
    // The phone run makes a new URL: the desktop run got the family's first before it.
    await page.getByRole('button', { name: /^(Get my calendar URL|Make a new calendar URL)$/ }).click();
    const url = page.getByTestId('feed-url');
    await shows(url, 'the family feed URL');
    const feed = await page.request.get((await url.textContent()) ?? '');
    expect(feed.status()).toBe(200);
    expect(await feed.text()).toContain('BEGIN:VCALENDAR');
    await expectFitsWidth(page);
    await shot('family');
  });
});
