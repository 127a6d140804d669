import { describe, expect, it } from 'vitest';
import { goViaSidebar, signInAsStaff, topShot } from './support/admin.ts';
import { useCompany } from './support/company.ts';
import { bothViewports, useBrowser, usePage } from './support/harness.ts';
import { shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

// A grid of rooms on a computer, no table on a phone: both widths.
describe.each(bothViewports)('timetable (%s)', (viewport) => {
  const fixture = usePage('timetable', viewport, browser);

  it("staff see this week's classes by room and by coach, with the session needing cover, and open a session", async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Timetable', '/admin/timetable');

    if (viewport === 'desktop') {
      const grid = page.getByRole('table', { name: 'Timetable' });
      await shows(grid.getByRole('rowheader', { name: 'Kinder room' }), 'the Kinder room row');
      await shows(grid.getByRole('rowheader', { name: 'Main floor' }), 'the Main floor row');
    } else {
      expect(await page.getByRole('table', { name: 'Timetable' }).count()).toBe(0);
      await shows(page.getByRole('region').first(), 'a day of the week');
    }
    await shot('by-room');

    await page.getByText('By coach').click();
    await shows(page.getByText('Needs cover').first(), "the session of Sam's leave that needs cover");
    await shot('by-coach');

    await page.getByRole('button', { name: 'Next week' }).click();
    await expect
      .poll(() => new URL(page.url()).searchParams.get('week') ?? '', { timeout: 10_000 })
      .toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await shot('next-week');
    // The company's holiday camp runs the week after next (seed/demo.ts): its days show beside the classes.
    await page.getByRole('button', { name: 'Next week' }).click();
    await shows(page.getByRole('link', { name: /Summer Gymnastics Holiday Camp / }).first(), 'the camp');
    await shot('with-events');

    // Back to this week; a class block opens the session's roll.
    await page.getByRole('button', { name: 'This week' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('week') ?? '').toBe('');
    // The page keeps showing the week it had until this week's answer arrives: wait for it.
    await page.waitForLoadState('networkidle');
    await shows(page.getByText('Needs cover').first(), 'this week again');
    const href = await page.locator('a[href^="/admin/roll/"]').first().getAttribute('href');
    // Click that very block, found again by the address read from it.
    await page.locator(`a[href="${href}"]`).first().click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toBe(href);
  });
});
