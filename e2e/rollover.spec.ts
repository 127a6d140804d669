import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  displayDate,
  fillDate,
  goViaSidebar,
  isoDate,
  signInAsStaff,
  topShot,
  uniqueTag,
} from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk, payWith, plainLinks, testCards, waitForMailWith } from './support/booking.ts';
import type { ViewportName } from './support/browser.ts';
import { pick } from './support/classes.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, staffViewport, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { shows, signInAsParent } from './support/ui.ts';

const browser = useBrowser();
useCompany();

type Row = Record<string, unknown> & { id: number };
type Run = {
  id: number;
  status: string;
  items: { child: { name: string }; state: string }[];
};

/** The company's running NSW term (seed/classes-demo.ts), whose enrolled children are rolled over. */
async function runningTerm(token: string): Promise<Row & { name: string; end_date: string }> {
  const { data } = await apiOk<{
    data: (Row & { name: string; region: string; start_date: string; end_date: string })[];
  }>(
    'GET',
    `/api/v1/admin/terms?${new URLSearchParams({ perPage: '100', sort: 'start_date', order: 'asc' })}`,
    { token },
  );
  const today = isoDate(new Date());
  const term = data.find((t) => t.region === 'NSW' && t.end_date >= today);
  expect(term, "the company's NSW term").toBeDefined();
  return term!;
}

/**
 * A term B of one of the parent's journeys: its own name and term A's classes again (same type,
 * day and time; no room or coach, so the two journeys' terms never clash), with their sessions
 * generated, and a published registration form offering it (the accept page pays through one).
 */
async function nextTerm(token: string, from: Row & { end_date: string }, tag: string) {
  const start = addDays(from.end_date, 17);
  const name = `Next term ${tag}`;
  const saved = await apiOk<{ valid: boolean }>('POST', '/api/v1/admin/terms', {
    token,
    body: { name, start_date: start, end_date: addDays(start, 63), status: 'open' },
  });
  expect(saved.valid, 'term B saved').toBe(true);
  const { data: found } = await apiOk<{ data: Row[] }>(
    'GET',
    `/api/v1/admin/terms?${new URLSearchParams({ q: name })}`,
    { token },
  );
  const termId = found[0]!.id;
  const { data: classes } = await apiOk<{ data: Row[] }>(
    'GET',
    `/api/v1/admin/term-classes?${new URLSearchParams({ perPage: '100', filter: JSON.stringify({ term_id: from.id }) })}`,
    { token },
  );
  expect(classes.length, 'term A has classes').toBeGreaterThan(0);
  for (const c of classes) {
    const klass = await apiOk<{ valid: boolean }>('POST', '/api/v1/admin/term-classes', {
      token,
      body: {
        name: `${String(c.name)} (${tag})`,
        term_id: termId,
        class_type_id: c.class_type_id,
        weekday: String(c.weekday),
        start_time: String(c.start_time).slice(0, 5),
        capacity: 20,
        status: 'active',
      },
    });
    expect(klass.valid, `class ${String(c.name)} copied`).toBe(true);
  }
  await apiOk('POST', `/api/v1/admin/terms/${termId}/generate`, { token });
  const form = await apiOk<{ valid: boolean }>('POST', '/api/v1/admin/registration-forms', {
    token,
    body: { name: `Re-enrolment ${tag}`, term_ids: [termId], published: true },
  });
  expect(form.valid, 'registration form saved').toBe(true);
  return { id: termId, name, start };
}

/**
 * What the parent does with the places held in a term B, one journey a width (the Re-enrolment
 * page and the accept page are laid out for each): on a computer they confirm and pay, on a phone
 * they release. Staff roll term A over once into each journey's own term B at the front desk's
 * width, and afterwards see each run's outcome.
 */
const journeys = {
  desktop: { outcome: 'confirmed', label: 'Confirmed' },
  phone: { outcome: 'released', label: 'Released' },
} as const satisfies Record<ViewportName, { outcome: string; label: string }>;

type TermB = { id: number; name: string; start: string };
const state: Partial<Record<ViewportName, { termB: TermB; runId: number; held: string[] }>> = {};
let termAId: number | undefined;

/** The run of one term B on the Roll over screen (one run shows at a time). */
const runInto = (page: Page, termB: TermB) =>
  page.getByLabel('Rollover', { exact: true }).filter({ hasText: `into ${termB.name}` });

describe.each(staffViewport)('re-enrolment: staff roll over (%s)', (viewport) => {
  const fixture = usePage('rollover', viewport, browser);

  it("staff roll the company's term over into the next term: dry run, commit with progress, the held places", async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const token = await apiSignIn(company().admin.email, company().admin.password);
    const termA = await runningTerm(token);
    termAId = termA.id;
    await signInAsStaff(page);

    // Once for each of the parent's journeys, into a term B of its own.
    for (const journey of bothViewports) {
      const step = (name: string) => (journey === 'desktop' ? name : `${name}-for-${journey}`);
      const termB = await nextTerm(token, termA, uniqueTag(journey));

      await page.goto(`/admin/terms/${termA.id}`);
      await page.getByRole('button', { name: 'Roll over', exact: true }).click();
      await shows(
        page.getByRole('heading', { level: 1, name: `Roll over ${termA.name}` }),
        'the Roll over screen',
      );
      await pick(page, 'Roll into', `${termB.name} (from ${displayDate(termB.start)})`);
      await fillDate(page, 'Deadline', addDays(termB.start, -3));
      await page.getByRole('button', { name: 'Dry run', exact: true }).click();
      const plan = page.getByLabel('Dry run result');
      await shows(plan, 'the dry run');
      const commit = plan.getByRole('button', { name: /^Commit: hold \d+ place/ });
      await shows(commit, 'the commit button with the places to hold');
      const toHold = Number((await commit.textContent())?.match(/hold (\d+)/)?.[1]);
      expect(toHold).toBeGreaterThan(0);
      await shot(step('1-dry-run'));

      await commit.click();
      const run = runInto(page, termB);
      await shows(run.getByText('Done', { exact: true }), 'the finished run');
      await shows(run.getByText(`${toHold} held`), 'as many held places as the dry run promised');
      await shot(step('2-committed'));

      const { runs } = await apiOk<{ runs: { id: number; to: { id: number } }[] }>(
        'GET',
        `/api/v1/admin/terms/${termA.id}/rollovers`,
        { token },
      );
      const mine = runs.find((r) => r.to.id === termB.id)!;
      const detail = await apiOk<Run>('GET', `/api/v1/admin/rollovers/${mine.id}`, { token });
      expect(detail.items).toHaveLength(toHold);
      // A second commit holds nothing twice.
      const again = await apiOk<Run>('POST', `/api/v1/admin/terms/${termA.id}/rollovers`, {
        token,
        body: { to_term_id: termB.id, deadline_date: addDays(termB.start, -3), deadline_time: '18:00' },
      });
      expect(again.id).toBe(mine.id);
      await expect
        .poll(async () => (await apiOk<Run>('GET', `/api/v1/admin/rollovers/${mine.id}`, { token })).status, {
          timeout: UI_TIMEOUT,
          interval: 200,
        })
        .toBe('done');
      expect((await apiOk<Run>('GET', `/api/v1/admin/rollovers/${mine.id}`, { token })).items).toHaveLength(
        toHold,
      );
      const held = detail.items.filter((i) => i.child.name.endsWith(' Parent')).map((i) => i.child.name);
      expect(held.length, "the parent's children among the held places").toBeGreaterThan(0);
      state[journey] = { termB, runId: mine.id, held };
    }
  }, 360_000);
});

describe.each(bothViewports)('re-enrolment: the parent (%s)', (viewport) => {
  const fixture = usePage('rollover', viewport, browser);

  it(viewport === 'desktop'
    ? 'the parent sees the held places and confirms them in the priority window, paying with the test card'
    : 'the parent sees the held places and releases them; staff see them released', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const { termB, runId, held } = state[viewport]!;
    // The family's mail: its places, the deadline, Confirm and pay, and Release (the accept page's No thanks).
    const mail = await waitForMailWith(
      company().parent.email,
      `Your places for ${termB.name} are held until`,
      ['Mia Parent'],
    );
    const links = [...new Set(plainLinks(mail).filter((l) => l.includes('/registration/accept/?token=')))];
    expect(links.filter((l) => !l.includes('decline=1'))).toHaveLength(1);
    expect(links.filter((l) => l.endsWith('&decline=1'))).toHaveLength(1);
    await signInAsParent(page);
    await goViaSidebar(page, viewport, 'Re-enrolment', '/admin/students/re-enroll');
    const card = page.getByRole('article', { name: `Places in ${termB.name}` });
    await shows(card, 'the held places of the next term');
    for (const child of held) await shows(card.getByText(child).first(), `${child}'s held place`);
    expect(await card.textContent()).toContain('Held for you until');
    await shot('3-parent-held');

    if (viewport === 'desktop') {
      await card.getByRole('link', { name: 'Confirm and pay' }).click();
      await shows(page.getByRole('button', { name: 'Pay and enrol' }), 'the accept page');
      for (const child of held) await shows(page.getByText(child).first(), `${child} on the accept page`);
      await page.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
      await shot('4-accept');
      await page.getByRole('button', { name: 'Pay and enrol' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/payments/test'), { timeout: 30_000 });
      await shows(page.getByRole('note').filter({ hasText: 'TEST MODE' }), 'the test card page');
      // The parent cancels the card page: back on the link, the places are still held until the deadline.
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL((url) => url.pathname === '/registration/accept/', { timeout: 30_000 });
      await shows(page.getByTestId('payment-cancelled'), 'the places still held after cancelling');
      expect(await page.getByTestId('payment-cancelled').textContent()).toContain('still held for you until');
      await shot('4b-cancelled');
      await page.getByRole('checkbox', { name: 'I have read and accept the Terms and Conditions' }).check();
      await page.getByRole('button', { name: 'Pay and enrol' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/payments/test'), { timeout: 30_000 });
      await payWith(page, testCards.pays);
      await page.waitForURL((url) => url.pathname.startsWith('/registration'), { timeout: 30_000 });
      await shot('5-paid');
    } else {
      await card.getByRole('button', { name: 'Release' }).click();
      await card.getByRole('button', { name: 'Release' }).click();
      await card.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
      await shot('4-released');
    }

    // Staff see each place's state, read from the place itself.
    const token = await apiSignIn(company().admin.email, company().admin.password);
    const expected = journeys[viewport].outcome;
    await expect
      .poll(
        async () => {
          const run = await apiOk<Run>('GET', `/api/v1/admin/rollovers/${runId}`, { token });
          return run.items.filter((i) => held.includes(i.child.name)).map((i) => i.state);
        },
        { timeout: 30_000, interval: 500 },
      )
      .toEqual(held.map(() => expected));
  }, 180_000);
});

describe.each(staffViewport)('re-enrolment: staff see the outcome (%s)', (viewport) => {
  const fixture = usePage('rollover', viewport, browser);

  it('staff see the places confirmed or released on the Roll over screen', async () => {
    const f = fixture();
    const { page } = f;
    await signInAsStaff(page);
    await page.goto(`/admin/terms/${termAId}/rollover`);
    for (const journey of bothViewports) {
      const { termB } = state[journey]!;
      // The screen shows one run at a time: the run into this term B, chosen among the term's rollovers.
      await page
        .getByLabel('Rollovers of this term')
        .getByRole('button', { name: termB.name, exact: true })
        .click();
      const run = runInto(page, termB);
      await shows(run, `the run into ${termB.name}`);
      const { label } = journeys[journey];
      await shows(run.getByText(label, { exact: true }).first(), `a ${label.toLowerCase()} place`);
      await topShot(f)(journey === 'desktop' ? '6-staff-states' : `6-staff-states-for-${journey}`);
    }
  }, 120_000);
});
