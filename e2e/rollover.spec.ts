import { describe, expect, it } from 'vitest';
import {
  addDays,
  displayDate,
  fillDate,
  goViaSidebar,
  signInAsStaff,
  topShot,
  uniqueTag,
} from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk, payWith, plainLinks, testCards, waitForMailWith } from './support/booking.ts';
import { pick } from './support/classes.ts';
import { bothViewports, UI_TIMEOUT, useBrowser, usePage } from './support/harness.ts';
import { demo } from './support/spec-text.ts';
import { shows, signInAsParent } from './support/ui.ts';

const browser = useBrowser();

type Row = Record<string, unknown> & { id: number };
type Run = {
  id: number;
  status: string;
  items: { child: { name: string }; state: string }[];
};

/** The demo's running NSW term (seed/classes-demo.ts), whose enrolled children are rolled over. */
async function demoTerm(token: string): Promise<Row & { name: string; end_date: string }> {
  const { data } = await apiOk<{
    data: (Row & { name: string; region: string; start_date: string; end_date: string })[];
  }>(
    'GET',
    `/api/v1/admin/terms?${new URLSearchParams({ perPage: '100', sort: 'start_date', order: 'asc' })}`,
    { token },
  );
  const today = new Date().toISOString().slice(0, 10);
  const term = data.find((t) => t.region === 'NSW' && t.end_date >= today);
  expect(term, 'the demo NSW term').toBeDefined();
  return term!;
}

/**
 * Term B of this width: its own name and the demo term's classes again (same type, day and time;
 * no room or coach, so the two widths' terms never clash), with their sessions generated, and a
 * published registration form offering it (the accept page pays through one).
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
  expect(classes.length, 'the demo term has classes').toBeGreaterThan(0);
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

describe.each(bothViewports)('re-enrolment (%s)', (viewport) => {
  const fixture = usePage('rollover', viewport, browser);
  const state: { termB?: { id: number; name: string; start: string }; runId?: number; held?: string[] } = {};

  it('staff roll the demo term over into the next term: dry run, commit with progress, the held places', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const token = await apiSignIn(demo.admin.email, demo.admin.password);
    const termA = await demoTerm(token);
    const termB = await nextTerm(token, termA, uniqueTag(viewport));
    state.termB = termB;

    await signInAsStaff(page);
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
    await shot('1-dry-run');

    await commit.click();
    const run = page.getByLabel('Rollover');
    await shows(run.getByText('Done', { exact: true }), 'the finished run');
    await shows(run.getByText(`${toHold} held`), 'as many held places as the dry run promised');
    await shot('2-committed');

    const { runs } = await apiOk<{ runs: { id: number; to: { id: number } }[] }>(
      'GET',
      `/api/v1/admin/terms/${termA.id}/rollovers`,
      { token },
    );
    const mine = runs.find((r) => r.to.id === termB.id)!;
    state.runId = mine.id;
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
    state.held = detail.items.filter((i) => i.child.name.endsWith(' Parent')).map((i) => i.child.name);
    expect(state.held.length, "the demo parent's children among the held places").toBeGreaterThan(0);
  }, 180_000);

  it(viewport === 'desktop'
    ? 'the parent sees the held places and confirms them in the priority window, paying with the test card'
    : 'the parent sees the held places and releases them; staff see them released', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const termB = state.termB!;
    // The family's mail: its places, the deadline, Confirm and pay, and Release (the accept page's No thanks).
    const mail = await waitForMailWith(demo.parent.email, `Your places for ${termB.name} are held until`, [
      'Mia Parent',
    ]);
    const links = [...new Set(plainLinks(mail).filter((l) => l.includes('/registration/accept/?token=')))];
    expect(links.filter((l) => !l.includes('decline=1'))).toHaveLength(1);
    expect(links.filter((l) => l.endsWith('&decline=1'))).toHaveLength(1);
    await signInAsParent(page);
    await goViaSidebar(page, viewport, 'Re-enrolment', '/admin/students/re-enroll');
    const card = page.getByRole('article', { name: `Places in ${termB.name}` });
    await shows(card, 'the held places of the next term');
    for (const child of state.held!) await shows(card.getByText(child).first(), `${child}'s held place`);
    expect(await card.textContent()).toContain('Held for you until');
    await shot('3-parent-held');

    if (viewport === 'desktop') {
      await card.getByRole('link', { name: 'Confirm and pay' }).click();
      await shows(page.getByRole('button', { name: 'Pay and enrol' }), 'the accept page');
      for (const child of state.held!)
        await shows(page.getByText(child).first(), `${child} on the accept page`);
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
    const token = await apiSignIn(demo.admin.email, demo.admin.password);
    const expected = viewport === 'desktop' ? 'confirmed' : 'released';
    await expect
      .poll(
        async () => {
          const run = await apiOk<Run>('GET', `/api/v1/admin/rollovers/${state.runId}`, { token });
          return run.items.filter((i) => state.held!.includes(i.child.name)).map((i) => i.state);
        },
        { timeout: 30_000, interval: 500 },
      )
      .toEqual(state.held!.map(() => expected));
  }, 180_000);

  it('staff see the places confirmed or released on the Roll over screen', async () => {
    const f = fixture();
    const { page } = f;
    const token = await apiSignIn(demo.admin.email, demo.admin.password);
    await signInAsStaff(page);
    await page.goto(`/admin/terms/${(await demoTerm(token)).id}/rollover`);
    const run = page.getByLabel('Rollover');
    await shows(run.getByText(`into ${state.termB!.name}`, { exact: false }), 'the run of this width');
    const expected = viewport === 'desktop' ? 'Confirmed' : 'Released';
    await shows(run.getByText(expected, { exact: true }).first(), `a ${expected.toLowerCase()} place`);
    await topShot(f)('6-staff-states');
  }, 120_000);
});
