import { type MyClassesResponse, makeupMessages } from '@tumble/contracts/makeups';
import { beforeAll, describe, expect, it } from 'vitest';
import { goViaSidebar, topShot } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { baseUrl } from './support/browser.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, useBrowser, usePage } from './support/harness.ts';
import { expectFitsWidth, shows, signInAsParent } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/**
 * The parent's Mia is enrolled in Recreational Gymnastics on Monday, Wednesday and Saturday
 * (seed/classes-demo.ts), a class type with makeups (30 days, two per term); its Tuesday and
 * Thursday classes have free places for a makeup. Each width marks one absence, within the cap.
 */
const child = 'Mia Parent';

beforeAll(async () => {
  const token = await apiSignIn(company().parent.email, company().parent.password, company().authhash);
  const response = await fetch(`${baseUrl()}/api/v1/students/classes`, {
    headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as MyClassesResponse;
  const mia = body.children.find((c) => `${c.first_name} ${c.last_name}` === child);
  expect(mia?.classes.length, 'Mia is enrolled in classes').toBeGreaterThan(0);
  // Two sessions at least that can still be marked absent: one per width.
  expect(mia!.sessions.filter((s) => s.changeable && s.state === 'coming').length).toBeGreaterThan(1);
});

describe.each(bothViewports)('absences and makeups (%s)', (viewport) => {
  const fixture = usePage('makeups', viewport, browser);

  it('a parent marks an absence, gets a makeup credit and books a makeup in another class', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    await signInAsParent(page);
    await goViaSidebar(page, viewport, 'My Classes', '/admin/students/classes');
    const card = page.getByRole('article', { name: child, exact: true });
    await shows(card.getByRole('region', { name: 'Classes' }), "Mia's classes");
    await expectFitsWidth(page);
    await shot('classes');

    // The first session still open to changes.
    const markAbsent = card.getByRole('button', { name: /^Mark Mia absent on / }).first();
    const label = (await markAbsent.getAttribute('aria-label'))!;
    const when = label.replace('Mark Mia absent on ', '');
    await markAbsent.click();
    await shows(
      card.getByRole('status').filter({ hasText: makeupMessages.absenceCredited }),
      'the absence saved',
    );
    await shows(card.getByRole('button', { name: `Undo the absence of Mia on ${when}` }), 'Undo absence');
    const credits = card.getByRole('region', { name: 'Makeup credits' });
    await shows(credits.getByText(/^Use by \d\d\/\d\d\/\d{4}$/).first(), 'the new credit');
    await f.shot('absent', { fullPage: true });

    await card.getByRole('button', { name: 'Book a makeup for Mia' }).click();
    const dialog = page.getByRole('dialog', { name: 'Book a makeup for Mia' });
    // Not a session today: one starting within the absence cutoff is booked but can no longer be
    // cancelled, and this journey cancels it (the company's Tuesday class runs at 16:30 Sydney time).
    const today = new Intl.DateTimeFormat('en-AU', {
      timeZone: 'Australia/Sydney',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    }).format(new Date());
    const book = dialog
      .getByRole('button', { name: /^Book Recreational Gymnastics (Tuesday|Thursday) on / })
      .and(dialog.locator(`:not([aria-label*="${today}"])`))
      .first();
    await shows(book, 'a makeup session of the same class type and level');
    const bookLabel = (await book.getAttribute('aria-label'))!;
    await shot('choose-makeup');
    await book.click();
    await shows(
      card.getByRole('status').filter({ hasText: makeupMessages.makeupBooked }),
      'the makeup booked',
    );
    expect(await dialog.count()).toBe(0);
    // The makeup is among the child's sessions, cancellable before its cutoff.
    const bookedWhen = bookLabel.replace(/^Book Recreational Gymnastics (Tuesday|Thursday) on /, '');
    await shows(
      card.getByRole('button', { name: `Cancel the makeup of Mia on ${bookedWhen}` }),
      'the makeup listed',
    );
    await expectFitsWidth(page);
    await f.shot('makeup-booked', { fullPage: true });
  });
});
