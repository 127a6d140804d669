import { describe, expect, it } from 'vitest';
import { addDays, apiSearch, isoDate, signInAsStaff, topShot, uniqueTag } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk } from './support/booking.ts';
import { company, useCompany } from './support/company.ts';
import { bothViewports, useBrowser, usePage } from './support/harness.ts';
import { shows } from './support/ui.ts';

const browser = useBrowser();
useCompany();

type Preview = {
  families: { family: string; children: string[]; lines: { detail: string | null }[]; total: number }[];
  totals: { families: number; invoices: number; amount: number };
};

/** 'YYYY-MM-DD' → '3 Feb', as an invoice line's detail says it. */
const dayMonth = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-AU', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });

/**
 * A term of this width's own (so the two widths never bill each other's places):
 * a Ninja Kids class on Tuesdays with its sessions, a billing-only closure on its third Tuesday,
 * and two new children of the company's parent enrolled by staff (unpaid): one from the first session,
 * one from the fifth (pro rata).
 */
async function termToBill(tag: string) {
  const token = await apiSignIn(company().admin.email, company().admin.password);
  const today = isoDate(new Date());
  const monday = addDays(today, 21 + ((8 - new Date(`${today}T00:00:00Z`).getUTCDay()) % 7));
  const name = `Billing ${tag}`;
  const saved = await apiOk<{ valid: boolean }>('POST', '/api/v1/admin/terms', {
    token,
    body: { name, start_date: monday, end_date: addDays(monday, 62), status: 'open' },
  });
  expect(saved.valid, 'term saved').toBe(true);
  const termId = (await apiSearch(token, 'terms', name)).find((t) => t.name === name)!.id;
  const closure = addDays(monday, 15);
  const closed = await apiOk<{ valid: boolean }>('POST', `/api/v1/admin/terms/${termId}/closures`, {
    token,
    body: { start_date: closure, end_date: closure, reason: 'Staff training', kind: 'billing_only' },
  });
  expect(closed.valid, 'billing-only closure saved').toBe(true);
  const ninja = (await apiSearch(token, 'class-types', 'Ninja Kids')).find((t) => t.name === 'Ninja Kids')!;
  const className = `Ninja ${tag}`;
  const klass = await apiOk<{ valid: boolean }>('POST', '/api/v1/admin/term-classes', {
    token,
    body: {
      name: className,
      term_id: termId,
      class_type_id: ninja.id,
      weekday: '2',
      start_time: '17:30',
      capacity: 20,
      status: 'active',
    },
  });
  expect(klass.valid, 'class saved').toBe(true);
  await apiOk('POST', `/api/v1/admin/terms/${termId}/generate`, { token });
  const classId = (await apiSearch(token, 'term-classes', className)).find((c) => c.name === className)!.id;

  const parent = await apiSignIn(company().parent.email, company().parent.password, company().authhash);
  const kids = [`Ann${tag}`, `Ben${tag}`];
  const childIds: number[] = [];
  for (const first of kids) {
    await apiOk('POST', '/api/v1/students/children', {
      token: parent,
      body: { first_name: first, last_name: 'Bill', dob: '2017-05-01' },
    });
    const found = await apiOk<{ id: number; name: string }[]>(
      'GET',
      `/api/v1/admin/class-students/children?${new URLSearchParams({ q: first })}`,
      { token },
    );
    childIds.push(found.find((c) => c.name === `${first} Bill`)!.id);
  }
  const late = addDays(monday, 29);
  await apiOk('POST', `/api/v1/admin/term-classes/${classId}/class-students`, {
    token,
    body: { child_id: childIds[0], starts_on: addDays(monday, 1) },
  });
  await apiOk('POST', `/api/v1/admin/term-classes/${classId}/class-students`, {
    token,
    body: { child_id: childIds[1], starts_on: late },
  });
  return { token, termId, name, closure, late, children: kids.map((k) => `${k} Bill`) };
}

describe.each(bothViewports)('term billing run (%s)', (viewport) => {
  const fixture = usePage('billing-run', viewport, browser);

  it('staff preview a term’s invoices with their explained lines, issue them with progress, and find them', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    const tag = uniqueTag(viewport).replace(/[^A-Za-z0-9]/g, '');
    const term = await termToBill(tag);

    await signInAsStaff(page);
    await page.goto(`/admin/terms/${term.termId}`);
    await page.getByRole('button', { name: 'Bill this term', exact: true }).click();
    await shows(page.getByRole('heading', { level: 1, name: `Bill ${term.name}` }), 'the billing screen');
    const preview = page.getByLabel('Preview');
    await shows(preview.getByText(term.children.join(', ')), 'the family with both children');
    await shows(preview.getByRole('button', { name: 'Issue 1 invoice' }), 'one invoice to issue');

    // The family's lines explain themselves: the closure not charged, the later start.
    const plan = await apiOk<Preview>('GET', `/api/v1/admin/terms/${term.termId}/billing`, {
      token: term.token,
    });
    expect(plan.totals).toMatchObject({ families: 1, invoices: 1 });
    const family = plan.families[0]!;
    // Two places, each one line: the staff enrolments' charges are in their places' price, not extra lines.
    expect(family.lines).toHaveLength(2);
    if (viewport === 'phone') await preview.getByRole('button', { name: /\d+ lines/ }).click();
    else await preview.getByRole('button', { name: family.family }).click();
    const lines = page.getByLabel(`Lines for ${family.family}`);
    await shows(
      lines.getByText(`not charged: ${dayMonth(term.closure)} (Staff training)`),
      'the closure not charged',
    );
    await shows(
      lines.getByText(`from ${dayMonth(term.late)} (joined after the term began)`, { exact: false }),
      'the pro-rata start',
    );
    await shot('1-preview');
    if (viewport === 'desktop') {
      // The same screen on a tablet.
      await page.setViewportSize({ width: 1024, height: 768 });
      await shot('1b-preview-tablet');
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    await preview.getByRole('button', { name: 'Issue 1 invoice' }).click();
    const run = page.getByLabel('Billing run');
    await shows(run, 'the run with its progress');
    await shows(run.getByText('Done', { exact: true }), 'the finished run');
    await shows(run.getByText(/^1 invoice issued/), 'one invoice issued');
    await shows(page.getByRole('button', { name: 'Nothing to bill' }), 'nothing left to bill');
    await shot('2-issued');

    // Running it again issues nothing twice.
    const again = await apiOk<Preview>('GET', `/api/v1/admin/terms/${term.termId}/billing`, {
      token: term.token,
    });
    expect(again.totals).toEqual({ families: 0, invoices: 0, amount: 0, gst: 0 });

    await run.getByRole('link', { name: "See this term's invoices" }).click();
    await page.waitForURL(
      (url) => url.pathname === '/admin/invoices' && url.search === `?term=${term.termId}`,
    );
    await shows(page.getByText(family.family).first(), "the family's invoice in the term's list");
    await shot('3-invoices');
  }, 180_000);
});
