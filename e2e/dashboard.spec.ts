import { describe, expect, it } from 'vitest';
import { goViaSidebar, signInAsStaff, topShot } from './support/admin.ts';
import { company, useCompany } from './support/company.ts';
import { expectAt, staffViewport, useBrowser, usePage } from './support/harness.ts';
import { shows, submitSignIn } from './support/ui.ts';

const browser = useBrowser();
useCompany();

describe.each(staffViewport)('dashboard (%s)', (viewport) => {
  const fixture = usePage('dashboard', viewport, browser);

  it('the demo admin sees what to act on today and follows the overdue invoices card to the list', async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    await signInAsStaff(page);
    const main = page.getByRole('main');
    await shows(
      main.getByRole('heading', { level: 1, name: company().name }),
      'the company on the dashboard',
    );
    const today = main.getByRole('region', { name: "Today's sessions" });
    await shows(today, "today's sessions");
    // The company's term runs today: its fill rate; Sam's leave this week: cover; Walker's failed autopay: an overdue invoice.
    await shows(
      main.getByRole('region', { name: 'Fill rate this term' }).getByText(/\d+ of \d+ places taken/),
      'the fill rate',
    );
    await shows(main.getByText(/class sessions? needs? cover\./), 'the cover count');
    await shows(main.getByRole('region', { name: 'Working With Children Checks' }), 'the checks card');
    await shows(main.getByRole('region', { name: 'This week' }), "this week's enrolments and trials");
    await shows(main.getByRole('region', { name: 'Waitlist offers' }), 'the waitlist offers');
    await shows(main.getByText(/registrations? needs? a decision\./), 'the registrations needing a decision');
    await shows(main.getByRole('region', { name: 'My tasks' }), 'my tasks');
    const overdue = main.getByRole('region', { name: 'Overdue invoices' });
    await shows(overdue.getByText(/overdue: \$[\d,]+\.\d\d to collect\./), 'the overdue amount');
    await shot('admin');
    await f.shot('admin-full', { fullPage: true });

    // A session of today opens its roll.
    const sessions = today.getByRole('list', { name: "Today's sessions" }).getByRole('link');
    if ((await sessions.count()) > 0) {
      const href = await sessions.first().getAttribute('href');
      expect(href).toMatch(/^\/admin\/roll\/\d+$/);
    }

    // The tablet at the front desk (1024px wide): the same cards, two to a row.
    if (viewport === 'desktop') {
      await page.setViewportSize({ width: 1024, height: 768 });
      await shows(overdue, 'the overdue card on the tablet');
      await shot('tablet');
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    await overdue.getByRole('link', { name: 'Invoices' }).click();
    await expectAt(page, '/admin/invoices?status=overdue');
    await shows(page.getByRole('heading', { level: 1, name: 'Invoices' }), 'the invoice list');
    await shot('overdue-invoices');
  });

  it("the demo coach sees today's own sessions and own tasks, nothing of the company's", async () => {
    const f = fixture();
    const { page } = f;
    const shot = topShot(f);
    // The company's first coach (seed/classes-demo.ts) lands on the roll; the dashboard is in
    // their sidebar.
    const casey = company().coaches.casey;
    await page.goto('/admin/login');
    await submitSignIn(page, casey.email, casey.password);
    await expectAt(page, '/admin/roll');
    await goViaSidebar(page, viewport, 'Dashboard', '/admin/dashboard', company().name);
    const main = page.getByRole('main');
    await shows(main.getByRole('region', { name: "Today's sessions" }), "the coach's sessions today");
    await shows(main.getByRole('region', { name: 'My tasks' }), "the coach's tasks");
    for (const card of ['Overdue invoices', 'Cover', 'Fill rate this term', 'This week', 'Waitlist offers'])
      expect(await main.getByRole('region', { name: card }).count(), card).toBe(0);
    // Every session listed is the coach's own.
    const coaches = await main
      .getByRole('list', { name: "Today's sessions" })
      .getByRole('listitem')
      .allInnerTexts();
    for (const text of coaches) expect(text).toContain(casey.fullName);
    await shot('coach');
  });
});
