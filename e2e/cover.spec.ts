import { describe, expect, it } from 'vitest';
import {
  addDays,
  apiCreateRecord,
  apiSearch,
  goViaSidebar,
  isoDate,
  notified,
  signInAsStaff,
  topShot,
  uniqueTag,
} from './support/admin.ts';
import { apiInviteStaff, apiSignIn, uniqueEmail } from './support/api.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, useBrowser, usePage } from './support/harness.ts';
import { shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/**
 * A week of Casey's leave that starts inside the company's running term: next week (Sam's leave,
 * this week, stays as the seed made it), else from tomorrow or today when the term ends sooner.
 */
async function leaveWeek(token: string): Promise<{ start: string; end: string }> {
  const today = isoDate(new Date());
  const term = (await apiSearch(token, 'terms', '')).find(
    (t) => t.status === 'open' && String(t.end_date) >= today,
  );
  expect(term, 'an open term running today or ahead').toBeDefined();
  const [termStart, termEnd] = [String(term!.start_date), String(term!.end_date)];
  const start = [7, 1, 0]
    .map((days) => [addDays(today, days), termStart].sort().at(-1)!)
    .find((day) => day <= termEnd)!;
  return { start, end: addDays(start, 6) };
}

// The Cover page is a table on a computer and a list on a phone: both widths.
describe.each(bothViewports)('cover (%s)', (viewport) => {
  const fixture = usePage('cover', viewport, browser);

  it("staff see Casey's leave on the dashboard and cover one of Casey's sessions with a new coach", async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);

    // A new coach with a cleared, current check; Casey on leave for a week of the term.
    const token = await apiSignIn(company().admin.email, company().admin.password);
    const substitute = `Sub ${uniqueTag(viewport)}`;
    await apiInviteStaff(token, {
      full_name: substitute,
      email: uniqueEmail('substitute', viewport),
      role: 'companycoach',
    });
    const [user] = await apiSearch(token, 'staff', substitute);
    await apiCreateRecord(token, 'coaches', {
      user_id: user!.id,
      wwcc_number: 'WWC0246810E',
      wwcc_outcome: 'cleared',
      wwcc_verified_on: addDays(isoDate(new Date()), -30),
      wwcc_expires_on: addDays(isoDate(new Date()), 900),
    });
    const [casey] = await apiSearch(token, 'coaches', company().coaches.casey.fullName);
    const leave = await leaveWeek(token);
    await apiCreateRecord(token, `coaches/${casey!.id}/leaves`, {
      reason: 'Conference',
      start_date: leave.start,
      end_date: leave.end,
    });

    await signInAsStaff(page);
    await shows(page.getByText(/class sessions? needs? cover\./), 'the cover count on the dashboard');
    await shows(page.getByText('Working With Children Checks'), 'the checks card on the dashboard');
    await shot('dashboard');

    await goViaSidebar(page, viewport, 'Cover', '/admin/cover');
    const sessions =
      viewport === 'desktop'
        ? page.getByRole('table', { name: 'Sessions needing cover' }).getByRole('row')
        : page.getByRole('list', { name: 'Sessions needing cover' }).getByRole('listitem');
    const caseys = sessions.filter({ hasText: 'Casey Coach' }).filter({ hasText: 'Conference' });
    await shows(caseys.first(), "a session of Casey's leave");
    const before = await caseys.count();
    await shot('cover');

    const session = caseys.first();
    await session
      .getByLabel(/^Substitute for /)
      .first()
      .click();
    await page.getByRole('option', { name: substitute }).click();
    await session.getByRole('button', { name: 'Assign' }).click();
    await notified(page, `${substitute} now coaches this session.`);
    await expect.poll(() => caseys.count(), { timeout: 15_000 }).toBe(before - 1);
    await shot('covered');
  });
});
