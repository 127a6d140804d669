import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  adminText,
  apiCreateRecord,
  apiSearch,
  confirmDialog,
  confirmQuestion,
  demoCamp,
  displayDate,
  eventCode,
  expectRows,
  fieldError,
  fillDate,
  fillMoney,
  fillRichText,
  fillTime,
  goViaSidebar,
  idFromUrl,
  input,
  listFeedback,
  mondayToFriday,
  notified,
  openSidebar,
  openWeek,
  row,
  save,
  search,
  setSwitch,
  signInAsStaff,
  table,
  toolbar,
  topShot,
  uniqueTag,
} from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { company, useCompany } from './support/company.ts';
import { expectAt, staffViewport, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

/**
 * About three years ahead, for restricted dates and unbookable events: far from the week the
 * bookable event of this file runs (a restricted date closes that day to bookings).
 */
const FAR_AHEAD_DAYS = 3 * 365;

/** The text of each cell of a list row, without the checkbox and action columns. */
async function cells(tableRow: Locator): Promise<string[]> {
  await shows(tableRow, 'the row');
  const texts = await tableRow.getByRole('cell').allInnerTexts();
  return texts.slice(1, -1).map((text) => text.trim());
}

/** Clicks a nested resource's tab on an event and waits for its list. */
async function openTab(page: Page, eventId: number, tab: string, path: string): Promise<void> {
  await page.getByRole('tab', { name: tab, exact: true }).click();
  await expectAt(page, `/admin/events/${eventId}/${path}`);
  await shows(page.getByRole('toolbar', { name: 'Actions' }), `the ${tab} list`);
}

/** An alert or status message of the list, compared whole. */
async function expectFeedback(page: Page, text: string): Promise<void> {
  const message = listFeedback(page, text);
  await shows(message, `'${text}'`);
  expect((await message.innerText()).trim()).toBe(text);
}

describe.each(staffViewport)('admin resources (%s)', (viewport) => {
  const fixture = usePage('admin-resources', viewport, browser);

  it('an event with two sessions, a ticket and a price tier, made in the admin screens, is bookable on its public page', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    // A week with no restricted date in it, so each of its five days shows and takes bookings.
    const { monday, friday } = await openWeek(
      await apiSignIn(company().admin.email, company().admin.password),
      14,
    );
    const name = `Holiday Camp ${uniqueTag(viewport)}`;
    const intro = 'Five days of gymnastics, games and crafts.';
    const description = 'Bring a water bottle, a hat and a packed lunch.';

    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Events', '/admin/events');
    await shows(table(page, 'Events'), 'the events list');
    await shot('events-list');

    // Add: every kind of field the form renders from the event's definition.
    await toolbar(page).getByRole('link', { name: 'Add event' }).click();
    await expectAt(page, '/admin/events/add');
    await input(page, 'Name').fill(name);
    await fillDate(page, 'Start date', monday);
    await fillDate(page, 'End date', friday);
    await input(page, 'Age from').fill('5');
    await input(page, 'Age to').fill('12');
    await fillRichText(page, 'Introduction', intro);
    await fillRichText(page, 'Description', description);
    await setSwitch(page, 'Published', true);
    await shot('event-form');
    await save(page);

    // Back on the list, the search finds it.
    await expectAt(page, '/admin/events');
    await notified(page, 'The event has been saved.');
    await search(page, name);
    const listed = row(page, 'Events', name);
    await shows(listed, `the new event '${name}' in the list`);
    await expectRows(page, 'Events', 1);
    expect(await cells(listed)).toEqual([name, displayDate(monday), displayDate(friday), '—', 'Yes']);
    await shot('event-listed');

    // Its view screen: the stored values, and the nested resources as tabs.
    await listed.getByRole('link', { name, exact: true }).click();
    const eventId = await idFromUrl(page, '/admin/events');
    await shows(page.getByRole('heading', { level: 1, name }), 'the event view');
    expect(await page.locator('dd[data-field="intro"]').innerText()).toBe(intro);
    expect(await page.locator('dd[data-field="full"]').innerText()).toContain(description);
    expect(await page.locator('dd[data-field="published"]').innerText()).toBe('Yes');
    for (const tab of ['Details', 'Sessions', 'Tickets', 'Price tiers', 'Contacts', 'Downloads']) {
      await shows(page.getByRole('tab', { name: tab, exact: true }), `the ${tab} tab`);
    }
    await shot('event-view');

    // Sessions: two, Monday to Friday (the form's default days).
    await openTab(page, eventId, 'Sessions', 'sessions');
    const sessions = [
      { name: 'Morning', start: '09:00', end: '12:00', capacity: '10' },
      { name: 'Afternoon', start: '13:00', end: '16:00', capacity: '8' },
    ];
    for (const [index, session] of sessions.entries()) {
      await toolbar(page).getByRole('link', { name: 'Add session' }).click();
      await expectAt(page, `/admin/events/${eventId}/sessions/add`);
      await input(page, 'Name').fill(session.name);
      await fillDate(page, 'First day', monday);
      await fillDate(page, 'Last day', friday);
      await fillTime(page, 'Starts at', session.start);
      await fillTime(page, 'Ends at', session.end);
      // At most three names show in a multi-select, then '+N more' (SPEC.md point 9).
      const runsOn = page.locator('.mantine-MultiSelect-root').filter({ hasText: 'Runs on' });
      expect(await runsOn.locator('.mantine-Pill-root').allInnerTexts()).toEqual([
        'Monday',
        'Tuesday',
        'Wednesday',
        '+2 more',
      ]);
      await input(page, 'Places per day').fill(session.capacity);
      if (index === 0) await shot('session-form');
      await save(page);
      await expectAt(page, `/admin/events/${eventId}/sessions`);
      await notified(page, 'The session has been saved.');
      await shows(row(page, 'Sessions', session.name), `the session '${session.name}'`);
    }
    for (const session of sessions) {
      const [, first, last, starts, ends, capacity] = await cells(row(page, 'Sessions', session.name));
      expect([first, last, starts?.slice(0, 5), ends?.slice(0, 5), capacity]).toEqual([
        displayDate(monday),
        displayDate(friday),
        session.start,
        session.end,
        session.capacity,
      ]);
    }
    await shot('sessions');

    // Tickets: one for every session of the event, $50.00 a day.
    await openTab(page, eventId, 'Tickets', 'tickets');
    await toolbar(page).getByRole('link', { name: 'Add ticket' }).click();
    await expectAt(page, `/admin/events/${eventId}/tickets/add`);
    await input(page, 'Name').fill('Day ticket');
    await fillMoney(page, 'Price per day', '50');
    await shot('ticket-form');
    await save(page);
    await expectAt(page, `/admin/events/${eventId}/tickets`);
    await notified(page, 'The ticket has been saved.');
    expect(await cells(row(page, 'Tickets', 'Day ticket'))).toEqual(['Day ticket', '—', '$50.00']);
    await shot('tickets');

    // Price tiers: from 5 days, $45.00 a day.
    await openTab(page, eventId, 'Price tiers', 'price-tiers');
    await toolbar(page).getByRole('link', { name: 'Add price tier' }).click();
    await expectAt(page, `/admin/events/${eventId}/price-tiers/add`);
    await input(page, 'Name').fill('Week');
    await input(page, 'From days booked').fill('5');
    await fillMoney(page, 'Price per day', '45');
    await shot('price-tier-form');
    await save(page);
    await expectAt(page, `/admin/events/${eventId}/price-tiers`);
    await notified(page, 'The price tier has been saved.');
    expect(await cells(row(page, 'Price tiers', 'Week'))).toEqual(['Week', '—', '5', '$45.00']);
    await shot('price-tiers');

    // Staff see its availability: the sessions as columns, a row per day, nothing booked yet.
    await page.getByRole('tab', { name: 'Details', exact: true }).click();
    await expectAt(page, `/admin/events/${eventId}`);
    await page.getByRole('button', { name: 'Availability', exact: true }).click();
    await expectAt(page, `/admin/events/${eventId}/event-availability`);
    await shows(
      page.getByRole('heading', { name: 'Availability', exact: true }),
      'the availability calendar',
    );
    const headers = (await page.getByRole('columnheader').allInnerTexts()).map((h) => h.split('\n')[0]);
    expect(headers).toEqual(['Day', 'Morning', 'Afternoon']);
    const days = page.getByRole('row').filter({ has: page.getByRole('cell') });
    expect(await days.count()).toBe(5);
    expect((await days.first().getByRole('cell').allInnerTexts()).map((t) => t.trim())).toEqual([
      `Mon ${displayDate(monday)}`,
      '0/10',
      '0/8',
    ]);
    await shot('event-availability');

    // The public booking page of the event: e is the hex of '<company id>|<event id>'.
    await page.goto(`/booking?e=${eventCode(eventId)}&authhash=${company().authhash}`);
    await shows(page.getByRole('heading', { level: 1, name }), 'the event on the booking page');
    await shows(page.getByText(intro), 'the introduction');
    await shows(page.getByText(description), 'the description');
    await shot('booking-event');
    await page.getByRole('button', { name: 'Book Now' }).click();
    await shows(page.getByTestId('session-calendar'), 'the session calendar');
    const mondayLong = `Monday ${displayDate(monday)}`;
    const morning = page.getByRole('checkbox', {
      name: `${mondayLong}, Morning, 9:00am–12:00pm, 10 left · $50.00`,
      exact: true,
    });
    const afternoon = page.getByRole('checkbox', {
      name: `${mondayLong}, Afternoon, 1:00pm–4:00pm, 8 left · $50.00`,
      exact: true,
    });
    await shows(morning, "Monday's Morning session, bookable at $50.00");
    await shows(afternoon, "Monday's Afternoon session, bookable at $50.00");
    expect(await morning.getAttribute('data-kind')).toBe('book');
    // Five days of two sessions, every one bookable.
    const calendar = page.getByTestId('session-calendar');
    expect(await calendar.locator('[data-kind="book"]').count()).toBe(10);
    expect(await calendar.locator('[data-kind]:not([data-kind="book"])').count()).toBe(0);
    await shot('booking-sessions');

    // The price tier: five Morning days at $45.00 instead of $50.00. The page shows the total (with
    // the company's card surcharge); the server's price lines it comes from show the sessions' part.
    const priced: { booked: number; details: Record<string, { value: number; formatted: string }> }[] = [];
    page.on('response', (response) => {
      if (!response.url().includes('/api/v1/calculate-charges-summary') || !response.ok()) return;
      const booked = [...new URL(response.url()).searchParams.keys()].filter((k) => k.startsWith('booked'));
      void response
        .json()
        .then((body: { pricing_details: (typeof priced)[number]['details'] }) =>
          priced.push({ booked: booked.length, details: body.pricing_details }),
        )
        .catch(() => {});
    });
    for (let day = 0; day < 5; day++) {
      const cell = calendar.locator(`[data-kind="book"][aria-label*=", Morning, "]`).nth(day);
      await cell.click();
      await expect
        .poll(() => cell.getAttribute('aria-checked'), { timeout: UI_TIMEOUT, interval: 100 })
        .toBe('true');
    }
    expect(await page.getByTestId('selection-summary').innerText()).toBe('5 to book');
    const fiveDays = async () => priced.findLast((p) => p.booked === 5)?.details ?? null;
    await expect.poll(fiveDays, { timeout: UI_TIMEOUT, interval: 100 }).not.toBeNull();
    const details = (await fiveDays())!;
    expect(details.subtotal?.value, 'five days at the tier price, in cents').toBe(5 * 4500);
    const total = page.getByTestId('running-total');
    await expect
      .poll(() => total.innerText(), { timeout: UI_TIMEOUT, interval: 100 })
      .toBe(`Total ${details.total?.formatted}`);
    expect(details.total?.value).toBeLessThan(5 * 5000);
    await shot('booking-priced');
  }, 150_000);

  it('a field error: the form marks the field, shows the summary at the top and creates nothing', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const { monday, friday } = mondayToFriday(21);
    const name = `Backwards Camp ${uniqueTag(viewport)}`;

    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Events', '/admin/events');
    await toolbar(page).getByRole('link', { name: 'Add event' }).click();
    await expectAt(page, '/admin/events/add');
    await shows(input(page, 'Name'), 'the event form');

    // Nothing filled in: the required fields say so.
    await save(page);
    const summary = page.getByTestId('form-summary');
    await shows(summary, 'the summary above the form');
    expect((await summary.innerText()).trim()).toBe(adminText.correctErrors);
    expect(await fieldError(input(page, 'Name'))).toBe('Name is required.');
    expect(await fieldError(input(page, 'Start date'))).toBe('Start date is required.');
    await shot('required-fields');

    // The end before the start: the server's check marks End date.
    await input(page, 'Name').fill(name);
    await fillDate(page, 'Start date', friday);
    await fillDate(page, 'End date', monday);
    await save(page);
    const endDate = input(page, 'End date');
    await expect
      .poll(() => fieldError(endDate), { timeout: UI_TIMEOUT, interval: 100 })
      .toBe('End date must be on or after the start date.');
    expect((await summary.innerText()).trim()).toBe(adminText.correctErrors);
    expect(await input(page, 'Name').getAttribute('aria-invalid')).not.toBe('true');
    await expectAt(page, '/admin/events/add');
    await shot('end-before-start');

    // Nothing was created.
    const token = await apiSignIn(company().admin.email, company().admin.password);
    expect(await apiSearch(token, 'events', name)).toEqual([]);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await expectAt(page, '/admin/events');
    await search(page, name);
    await shows(page.getByText('No events match your search.'), 'the empty search');
  });

  it('bulk delete on restricted dates: nothing selected is refused, two selected are deleted after the question', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const tag = `Closed ${uniqueTag(viewport)}`;
    // Far ahead: a restricted date stops parties and events that day, and the first test books a week.
    const { monday } = mondayToFriday(FAR_AHEAD_DAYS);
    const reasons = [`${tag} A`, `${tag} B`];

    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Restricted dates', '/admin/restricted-dates');
    // Two rows, through the generic form.
    for (const [index, reason] of reasons.entries()) {
      await toolbar(page).getByRole('link', { name: 'Add restricted date' }).click();
      await expectAt(page, '/admin/restricted-dates/add');
      await fillDate(page, 'Date', addDays(monday, index));
      await input(page, 'Reason').fill(reason);
      if (index === 0) await shot('restricted-date-form');
      await save(page);
      await expectAt(page, '/admin/restricted-dates');
      await notified(page, 'The restricted date has been saved.');
    }
    await search(page, tag);
    for (const reason of reasons) await shows(row(page, 'Restricted dates', reason), `the row '${reason}'`);
    await expectRows(page, 'Restricted dates', 2);

    // Delete with no row selected: refused, nothing asked.
    const bar = toolbar(page);
    await bar.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectFeedback(page, adminText.selectAtLeastOne);
    expect(await confirmDialog(page).count()).toBe(0);
    await shot('bulk-nothing-selected');

    // Both selected: the bulk question, then the server's message; the rows are gone.
    for (const reason of reasons) {
      await page.getByRole('checkbox', { name: `Select ${reason}`, exact: true }).check();
    }
    await shows(bar.getByText('2 selected'), "'2 selected'");
    await bar.getByRole('button', { name: 'Delete', exact: true }).click();
    expect(await confirmQuestion(page)).toBe(adminText.confirmSelectedAction);
    await shot('bulk-confirm');
    await confirmDialog(page).getByRole('button', { name: 'Delete', exact: true }).click();
    await confirmDialog(page).waitFor({ state: 'hidden' });
    await expectFeedback(page, '2 restricted dates deleted.');
    await shows(page.getByText('No restricted dates match your search.'), 'the emptied list');
    await shows(bar.getByText('No rows selected'), 'the cleared selection');
    await shot('bulk-deleted');
    const token = await apiSignIn(company().admin.email, company().admin.password);
    expect(await apiSearch(token, 'restricted-dates', tag)).toEqual([]);
  });

  it("Events' Availability action needs exactly one event, and shows the sessions as columns", async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);

    await signInAsStaff(page);
    await goViaSidebar(page, viewport, 'Events', '/admin/events');
    const bar = toolbar(page);
    const availability = bar.getByRole('button', { name: 'Availability', exact: true });

    // Every event on the page selected (the company's camp and ninja week, and the events this
    // file's earlier tests made): only one record.
    await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
    await shows(bar.getByText(/^\d+ selected$/), 'the selection count');
    const selectedCount = Number.parseInt(await bar.getByText(/^\d+ selected$/).innerText(), 10);
    expect(selectedCount).toBeGreaterThanOrEqual(2);
    expect(selectedCount, 'every row of the page').toBe(
      (await table(page, 'Events').getByRole('row').count()) - 1,
    );
    await availability.click();
    await expectFeedback(page, adminText.onlyOneRecord);
    await expectAt(page, '/admin/events');
    await shot('availability-two-selected');

    // None selected: select one.
    await page.getByRole('checkbox', { name: 'Select all rows on this page' }).uncheck();
    await shows(bar.getByText('No rows selected'), "'No rows selected'");
    await availability.click();
    await expectFeedback(page, adminText.selectOne);
    await expectAt(page, '/admin/events');
    await shot('availability-none-selected');

    // Exactly one: the availability calendar of that event.
    await search(page, demoCamp.name);
    const camp = row(page, 'Events', demoCamp.name);
    const href = await camp.getByRole('link', { name: demoCamp.name, exact: true }).getAttribute('href');
    await page.getByRole('checkbox', { name: `Select ${demoCamp.name}`, exact: true }).check();
    await availability.click();
    await expectAt(page, `${href}/event-availability`);
    await shows(
      page.getByRole('heading', { name: 'Availability', exact: true }),
      "the 'Availability' heading",
    );
    await shows(page.getByRole('link', { name: demoCamp.name }), 'the event name');
    const headers = (await page.getByRole('columnheader').allInnerTexts()).map((h) => h.split('\n')[0]);
    expect(headers).toEqual(['Day', ...demoCamp.sessions]);
    expect(await page.getByRole('row').count()).toBeGreaterThan(1);
    await shot('availability');
  });

  it("a row's delete icon asks 'Are you sure to delete?' (or 'archive?'), and Cancel keeps the row", async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const tag = uniqueTag(viewport);
    const reason = `Kept ${tag}`;
    const eventName = `Kept Camp ${tag}`;
    const { monday, friday } = mondayToFriday(FAR_AHEAD_DAYS);
    const token = await apiSignIn(company().admin.email, company().admin.password);
    await apiCreateRecord(token, 'restricted-dates', { date: monday, reason, applies_to: 'all' });
    await apiCreateRecord(token, 'events', {
      name: eventName,
      start_date: monday,
      end_date: friday,
      age_start: 0,
      age_end: 100,
      cutoff_days_before: 0,
      booking_fee: 0,
      published: false,
    });

    await signInAsStaff(page);

    // Restricted dates are deleted.
    await goViaSidebar(page, viewport, 'Restricted dates', '/admin/restricted-dates');
    await search(page, reason);
    await page.getByRole('button', { name: `Delete restricted date ${reason}`, exact: true }).click();
    expect(await confirmQuestion(page)).toBe(adminText.confirmAction('delete'));
    await shot('row-delete-confirm');
    await confirmDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await confirmDialog(page).waitFor({ state: 'hidden' });
    await shows(row(page, 'Restricted dates', reason), 'the row, kept');
    const kept = await apiSearch(token, 'restricted-dates', reason);
    expect(kept).toHaveLength(1);

    // Events are archived (bookings keep pointing at them).
    await goViaSidebar(page, viewport, 'Events', '/admin/events');
    await search(page, eventName);
    await page.getByRole('button', { name: `Archive event ${eventName}`, exact: true }).click();
    expect(await confirmQuestion(page)).toBe(adminText.confirmAction('archive'));
    await shot('row-archive-confirm');
    await confirmDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await confirmDialog(page).waitFor({ state: 'hidden' });
    await shows(row(page, 'Events', eventName), 'the event, kept');
    const keptEvent = await apiSearch(token, 'events', eventName);
    expect(keptEvent).toHaveLength(1);
    await shot('row-archive-cancelled');
  });

  it('the sidebar groups screens by what staff do, finds any screen from the keyboard, and a surcharge is typed as a percentage', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);

    await signInAsStaff(page);
    const nav = await openSidebar(page, viewport);
    for (const group of ['Events', 'Parties', 'Families', 'Money', 'Communications', 'Reports', 'Settings'])
      await shows(nav.getByRole('button', { name: group, exact: true }), `the ${group} group`);
    await shot('sidebar-dashboard');

    // The quick search: type, arrow down, Enter.
    const search = nav.getByRole('textbox', { name: 'Go to a screen' });
    await search.fill('surch');
    await shot('sidebar-quick-search');
    await search.press('Enter');
    await expectAt(page, '/admin/surcharges');
    await shows(table(page, 'Surcharges'), 'the surcharges list');
    // The company's card surcharge (seed/demo.ts), stored as 150 basis points, reads 1.5%.
    expect(await cells(row(page, 'Surcharges', 'Card surcharge'))).toContain('1.5%');

    // On a page of the Money group, only Money is open.
    const sideNow = await openSidebar(page, viewport);
    expect(
      await sideNow.getByRole('button', { name: 'Money', exact: true }).getAttribute('aria-expanded'),
    ).toBe('true');
    expect(
      await sideNow.getByRole('button', { name: 'Parties', exact: true }).getAttribute('aria-expanded'),
    ).toBe('false');
    await shot('sidebar-money-open');

    await page.getByRole('link', { name: 'Edit surcharge Card surcharge', exact: true }).click();
    await shows(input(page, 'Percent'), 'the percent field');
    expect(await input(page, 'Percent').inputValue()).toBe('1.5%');
    expect(await page.getByRole('textbox', { name: /^Amount/ }).count()).toBe(0);
    await shot('surcharge-form');

    // The party report: filters in the URL, chart and table.
    await goViaSidebar(
      page,
      viewport,
      'Party report',
      '/admin/reports/birthday-parties',
      'Birthday party report',
    );
    await shows(page.getByRole('table', { name: 'By month' }), 'the report table');
    await shot('party-report');
  });
});
