import { describe, expect, it } from 'vitest';
import {
  confirmDialog,
  displayDate,
  goViaSidebar,
  idFromUrl,
  input,
  listFeedback,
  notified,
  save,
  signInAsStaff,
  toolbar,
  topShot,
  uniqueTag,
} from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import {
  apiTermNamed,
  badgesOf,
  type CalendarChoice,
  closeNotifications,
  fillDialogDate,
  fillDialogTime,
  generationCard,
  pick,
  sessionBadge,
} from './support/classes.ts';
import { company, useCompany } from './support/company.ts';
import { expectAt, staffViewport, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/**
 * The term staff make from the school calendar: VIC Term 4 2027 (Melbourne Cup closed). A company
 * refuses a second term of the same name over the same days, and its own running term is the NSW
 * term of the day it was seeded (NSW Term 1 2027 from 18 December 2026): the last term of the
 * calendar meets that one latest (NSW Term 4 2027, from late September 2027). Class A meets on the
 * holiday's weekday.
 */
const plan = {
  term: {
    region: 'Victoria',
    year: '2027',
    term: 'Term 4',
    name: 'Term 4 2027',
    startDate: '2027-10-04',
    endDate: '2027-12-17',
  },
  holiday: { date: '2027-11-02', reason: 'Melbourne Cup' },
  a: { day: 'Tuesday', time: '16:00', room: 'Main floor', cancel: '2027-10-05', move: '2027-10-12' },
  b: { day: 'Thursday', time: '17:00', room: 'Kinder room', date: '2027-10-14' },
} satisfies { term: CalendarChoice } & Record<string, unknown>;

describe.each(staffViewport)('classes (%s)', (viewport) => {
  const fixture = usePage('classes', viewport, browser);

  it('staff make a class type, a term from the calendar and two classes, generate sessions without the holiday, cancel one and are refused a move onto the other class', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const { term, holiday, a, b } = plan;
    const tag = uniqueTag(viewport);
    const typeName = `Ninja Kids ${tag}`;
    const classA = `${a.day} ${a.time} Ninja ${tag}`;
    const classB = `${b.day} ${b.time} Ninja ${tag}`;

    await signInAsStaff(page);

    // 1. A class type.
    await goViaSidebar(page, viewport, 'Class types', '/admin/class-types');
    await toolbar(page).getByRole('link', { name: 'Add class type' }).click();
    await shows(page.getByRole('heading', { level: 1, name: 'Add Class type' }), 'the class type form');
    await input(page, 'Name').fill(typeName);
    await input(page, 'Level').fill('Beginner');
    await input(page, 'Age from (months)').fill('72');
    await input(page, 'Age to (months)').fill('144');
    await shot('class-type-form');
    await save(page);
    await expectAt(page, '/admin/class-types');
    await shows(page.getByRole('link', { name: typeName, exact: true }), 'the new class type in the list');
    await notified(page, 'The class type has been saved.');
    await closeNotifications(page);

    // 2. The term, from the school calendar (the company has none of that name yet).
    const token = await apiSignIn(company().admin.email, company().admin.password);
    expect(await apiTermNamed(token, term), `no ${term.name} before`).toBeNull();
    await goViaSidebar(page, viewport, 'Terms', '/admin/terms');
    await toolbar(page).getByRole('button', { name: 'From the school calendar' }).click();
    await expectAt(page, '/admin/terms/term-calendar');
    await pick(page, 'State or territory', term.region);
    await pick(page, 'Year', term.year);
    await pick(page, 'Term', term.term);
    await shows(
      page.getByLabel('Preview').getByRole('cell', { name: holiday.reason }),
      `${holiday.reason} in the preview`,
    );
    await shot('term-preview');
    await page.getByRole('button', { name: `Create ${term.name}` }).click();
    await expect
      .poll(() => new URL(page.url()).pathname, { timeout: UI_TIMEOUT, interval: 100 })
      .toMatch(/^\/admin\/terms\/\d+\/closures$/);
    await shows(page.getByRole('row').filter({ hasText: holiday.reason }), `the ${holiday.reason} closure`);
    const termId = await apiTermNamed(token, term);
    expect(termId, `${term.name} exists`).not.toBeNull();

    // Two classes of the term on different days, at different times, in different rooms.
    for (const [name, c] of [
      [classA, a],
      [classB, b],
    ] as const) {
      await page.goto('/admin/term-classes/add');
      await shows(page.getByRole('heading', { level: 1, name: 'Add Class' }), 'the class form');
      await input(page, 'Name').fill(name);
      await pick(page, 'Term', term.name);
      await pick(page, 'Class type', typeName);
      await pick(page, 'Day', c.day);
      const time = page.getByLabel(/^Starts at\s*\*?$/);
      await time.fill(c.time);
      await pick(page, 'Room', c.room);
      if (name === classA) await shot('class-form');
      await save(page);
      await expectAt(page, '/admin/term-classes');
      await notified(page, 'The class has been saved.');
      await closeNotifications(page);
      // The term's own list (the company's twelve classes of its running term fill the full one).
      await page.goto(
        `/admin/term-classes?filter=${encodeURIComponent(JSON.stringify({ term_id: termId }))}`,
      );
      await shows(page.getByRole('link', { name, exact: true }), `'${name}' in the term's classes`);
    }
    await shot('classes');

    // 3. Generate the term's sessions: the preview adds each week's session but not the holiday.
    await toolbar(page).getByRole('button', { name: 'Generate a term’s sessions' }).click();
    await expectAt(page, '/admin/term-classes/generate-term-sessions');
    await pick(page, 'Term', term.name);
    const cardA = generationCard(page, classA);
    const cardB = generationCard(page, classB);
    await shows(cardA, `the card of ${classA}`);
    await shows(cardB, `the card of ${classB}`);
    const addedA = await badgesOf(cardA, 'To add');
    expect(addedA).toContain(sessionBadge(a.cancel));
    expect(addedA).toContain(sessionBadge(a.move));
    expect(addedA, `${holiday.reason} is a closure`).not.toContain(sessionBadge(holiday.date));
    expect(addedA.every((s) => s.startsWith(a.day.slice(0, 3)))).toBe(true);
    const addedB = await badgesOf(cardB, 'To add');
    expect(addedB).toContain(sessionBadge(b.date));
    await shows(cardA.getByText(`${a.time} · 60 min · ${a.room}`), `${classA}'s time and room`);
    await shot('generate-preview');
    // The term has no other classes: the changes are the two classes' sessions.
    const apply = page.getByRole('button', { name: /^Apply \d+ changes?$/ });
    const changes = Number(/\d+/.exec(await apply.innerText())![0]);
    expect(changes).toBe(addedA.length + addedB.length);
    await apply.click();
    await shows(
      page
        .getByRole('status')
        .filter({ hasText: `Sessions generated: ${changes} added, 0 changed, 0 removed.` }),
      'the generation summary',
    );
    await shows(page.getByRole('button', { name: 'Nothing to generate' }), 'nothing left to generate');
    await shot('generated');

    // 4. Class A's sessions: cancel the first with a reason.
    await page.goto('/admin/term-classes');
    await page.getByRole('link', { name: classA, exact: true }).click();
    const classId = await idFromUrl(page, '/admin/term-classes');
    await page.getByRole('tab', { name: 'Sessions', exact: true }).click();
    await expectAt(page, `/admin/term-classes/${classId}/class-sessions`);
    const sessions = page.getByRole('table', { name: 'Sessions', exact: true });
    // A session's title is its date, shown DD/MM/YYYY in the list's links and the session's heading.
    await shows(
      sessions.getByRole('link', { name: displayDate(a.cancel), exact: true }),
      'the first session',
    );
    expect(await sessions.getByRole('link', { name: displayDate(holiday.date), exact: true }).count()).toBe(
      0,
    );
    await shot('sessions');

    await sessions.getByRole('link', { name: displayDate(a.cancel), exact: true }).click();
    await idFromUrl(page, `/admin/term-classes/${classId}/class-sessions`);
    await page.getByRole('button', { name: 'Cancel session', exact: true }).click();
    const dialog = confirmDialog(page);
    await shows(dialog, 'the cancel dialog');
    await dialog.getByRole('textbox', { name: 'Reason', exact: true }).fill('Coach unwell');
    await shot('cancel-dialog');
    await dialog.getByRole('button', { name: 'Cancel session', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await shows(
      listFeedback(page, 'The session has been cancelled. 0 families will get a mail.'),
      'the cancellation message',
    );
    await shows(page.locator('[data-field="status"]').getByText('Cancelled', { exact: true }), 'Cancelled');
    await shows(
      page.locator('[data-field="cancel_reason"]').getByText('Coach unwell', { exact: true }),
      'the reason',
    );
    await shot('cancelled');

    // 5. Move the next session onto class B's slot: refused, naming the class it would clash with.
    await page.goto(`/admin/term-classes/${classId}/class-sessions`);
    const cancelledRow = sessions
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: displayDate(a.cancel), exact: true }) });
    await shows(cancelledRow.getByText('Cancelled', { exact: true }), 'the cancelled status in the list');
    await sessions.getByRole('link', { name: displayDate(a.move), exact: true }).click();
    await idFromUrl(page, `/admin/term-classes/${classId}/class-sessions`);
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await shows(dialog, 'the move dialog');
    await fillDialogDate(page, 'New date', b.date);
    await fillDialogTime(page, 'New start time', b.time);
    await pick(dialog, 'Room', b.room);
    await shot('move-dialog');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const clash = `${b.room} is already booked for ${classB} on ${displayDate(b.date)} ${b.time}–${Number(b.time.slice(0, 2)) + 1}:00.`;
    await shows(listFeedback(page, clash), 'the clash refusal');
    // Nothing moved.
    await shows(page.locator('[data-field="date"]').getByText(displayDate(a.move)), 'the same date');
    await shows(page.locator('[data-field="room_id"]').getByText(a.room), 'the same room');
    await shot('move-refused');
  });
});
