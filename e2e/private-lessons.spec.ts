import { describe, expect, it } from 'vitest';
import { apiCreateRecord, apiSearch, fillDate, goViaSidebar, signInAsStaff } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import {
  apiOk,
  displayDate,
  expectCardPage,
  money,
  payWith,
  testCards,
  waitForMailWith,
} from './support/booking.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, expectAt, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { shows, signInAsParent } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/** The lesson each viewport booked and cancelled, for the staff test. */
const booked: Partial<Record<string, { date: string; time: string }>> = {};

/** The lesson's price in the demo: $60 plus the test provider's 1.5 % card surcharge. */
const PRICE = 6000;
const DUE = 6090;

interface StaffLesson {
  id: number;
  date: string;
  time: string;
  status: string;
  refund_choice: string | null;
  children: string[];
}

describe.each(bothViewports)('private lessons (%s)', (viewport) => {
  const fixture = usePage('private-lessons', viewport, browser);

  it('a parent books a private lesson for a child, pays with the test card, then cancels it for credit', async () => {
    const { page, shot } = fixture();
    // Staff give Casey a Wednesday private slot, at a time of its own for each viewport.
    const admin = await apiSignIn(company().admin.email, company().admin.password);
    const [casey] = await apiSearch(admin, 'coaches', 'Casey');
    expect(casey, 'the demo coach Casey').toBeDefined();
    const time = viewport === 'desktop' ? '07:00' : '07:30';
    await apiCreateRecord(admin, `coaches/${casey!.id}/private-sessions`, {
      weekday: '3',
      start_time: time,
      duration_minutes: 45,
      max_children: 2,
      price: PRICE,
    });

    await signInAsParent(page);
    await goViaSidebar(page, viewport, 'Private Classes', '/admin/students/private-classes');
    await page.getByRole('combobox', { name: 'Coach' }).selectOption({ label: 'Casey Coach' });
    // The second Wednesday offered: always more than the policy's 24 hours ahead, so it can be cancelled.
    const lesson = page.getByRole('link', { name: new RegExp(`^${time} · Casey Coach`) }).nth(1);
    await shows(lesson, `a ${time} lesson with Casey`);
    await shot('1-lessons');

    await lesson.click();
    await shows(
      page.getByRole('heading', { level: 1, name: 'Book a private lesson' }),
      'the lesson checkout',
    );
    const date = new URL(page.url()).searchParams.get('date') ?? '';
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await page.getByRole('checkbox', { name: 'Mia Parent' }).check();
    await page.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
    const summary = page.getByRole('region', { name: 'Lesson summary' });
    await expect
      .poll(() => summary.getByTestId('price-amount_due').textContent(), {
        timeout: UI_TIMEOUT,
        interval: 100,
      })
      .toBe(money(DUE));
    expect(await summary.textContent()).toContain(`Casey Coach · 45 minutes`);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await shot('2-checkout');

    await page.getByRole('button', { name: 'Confirm Payment' }).click();
    await expectCardPage(page, money(DUE));
    // While the card page is open the lesson is held: no longer offered.
    const parent = await apiSignIn(company().parent.email, company().parent.password, company().authhash);
    const offered = await apiOk<{ lessons: { date: string; time: string }[] }>(
      'GET',
      `/api/v1/students/private-lessons/available?coach_id=${casey!.id}`,
      { token: parent },
    );
    expect(offered.lessons.some((l) => l.date === date && l.time === time)).toBe(false);
    await payWith(page, testCards.pays);
    await expectAt(page, '/admin/students/private-classes?status=true');
    await shows(
      page.getByText('Your payment was received and your private lesson is booked'),
      'the booked notice',
    );
    const card = page.getByRole('article').filter({ hasText: `${displayDate(date)} · ${time}` });
    await shows(card, 'the booked lesson among the upcoming ones');
    expect(await card.textContent()).toContain('Mia Parent');
    await shot('3-booked');

    await waitForMailWith(
      company().parent.email,
      `Private lesson booked for ${displayDate(date)} at ${time}`,
      [
        `with Casey Coach for Mia is booked: ${displayDate(date)} at ${time}, 45 minutes`,
        `Paid: ${money(DUE)}`,
      ],
    );

    // Cancel (more than 24 hours ahead): the amount paid becomes credit, the lesson is free again.
    await card.getByRole('button', { name: 'Cancel lesson' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this lesson?' });
    await shows(dialog, 'the cancel question');
    await shot('4-cancel');
    await dialog.getByRole('button', { name: 'Cancel lesson' }).click();
    await shows(
      page.getByRole('status').filter({ hasText: 'is cancelled; the amount paid becomes a credit' }),
      'the cancelled notice',
    );
    const cancelled = page.getByRole('article').filter({ hasText: `${displayDate(date)} · ${time}` });
    await shows(cancelled.getByText('Cancelled', { exact: true }), 'the lesson shown cancelled');
    await shot('5-cancelled');

    const staff = await apiOk<{ lessons: StaffLesson[] }>(
      'GET',
      `/api/v1/admin/private-lessons?${new URLSearchParams({ coach_id: String(casey!.id), from: date, to: date })}`,
      { token: admin },
    );
    expect(staff.lessons.find((l) => l.time === time)).toMatchObject({
      status: 'cancelled',
      refund_choice: 'credit',
      children: ['Mia Parent'],
    });
    const again = await apiOk<{ lessons: { date: string; time: string }[] }>(
      'GET',
      `/api/v1/students/private-lessons/available?coach_id=${casey!.id}`,
      { token: parent },
    );
    expect(again.lessons.some((l) => l.date === date && l.time === time)).toBe(true);
    booked[viewport] = { date, time };
  }, 180_000);

  it('staff see the lesson in the private lessons list (Classes), filtered by coach and date', async () => {
    const { page, shot } = fixture();
    const lesson = booked[viewport];
    expect(lesson, 'the lesson the first test booked').toBeDefined();
    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Private lessons', '/admin/private-lessons');
    await page.getByRole('combobox', { name: 'Coach' }).selectOption({ label: 'Casey Coach' });
    await fillDate(page, 'From', lesson!.date);
    await fillDate(page, 'To', lesson!.date);
    // Desktop: a table row per lesson; phone: a card per lesson.
    const row = page.getByRole(viewport === 'desktop' ? 'row' : 'article').filter({ hasText: lesson!.time });
    await shows(row, 'the cancelled lesson');
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('Mia Parent');
    expect(await row.textContent()).toContain('Credit');
    await shot('6-staff');

    // From a coach's page: the same list, for that coach.
    const admin = await apiSignIn(company().admin.email, company().admin.password);
    const [casey] = await apiSearch(admin, 'coaches', 'Casey');
    await page.goto(`/admin/coaches/${casey!.id}`);
    await page.getByRole('button', { name: 'Private lessons', exact: true }).click();
    await expectAt(page, `/admin/coaches/${casey!.id}/private-lessons`);
    await shows(
      page.getByRole('heading', { level: 1, name: 'Private lessons' }),
      'the coach’s private lessons',
    );
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Coach' }).inputValue(), {
        timeout: UI_TIMEOUT,
        interval: 100,
      })
      .toBe(String(casey!.id));
  }, 120_000);
});
