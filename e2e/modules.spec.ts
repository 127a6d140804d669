import { describe, expect, it } from 'vitest';
import { goViaSidebar, openSidebar, setSwitch, signInAsStaff, uniqueTag } from './support/admin.ts';
import { apiSignIn } from './support/api.ts';
import { apiOk } from './support/booking.ts';
import { company, operator, useCompany } from './support/company.ts';
import {
  bothViewports,
  expectAt,
  staffViewport,
  UI_TIMEOUT,
  useBrowser,
  usePage,
} from './support/harness.ts';
import { expectFitsWidth, shows, submitSignIn } from './support/ui.ts';

/**
 * Plans and modules: the company's admin picks a plan, turns the classes module
 * off and sees the sidebar lose Timetable, and /admin/timetable answers the not-found page; the
 * module comes back on. Demo data: seed/plans-demo.ts (Starter, Growth, Studio, the installation's
 * plans; the spec's company, a copy of the demo, starts without a plan, so with every module).
 */

const browser = useBrowser();
useCompany();
const everyModule = [
  'events',
  'parties',
  'classes',
  'private-lessons',
  'waivers',
  'billing',
  'students',
  'uniforms',
  'communications',
  'reports',
  'integrations',
];

/**
 * Both tests check that the pages fit a phone's width, so they run at both widths, on the file's one
 * company: each width moves to a plan of its own, so the phone's run (after the desktop's) is a change
 * of plan, from Growth to Studio.
 */
describe.each(bothViewports)('plans and modules (%s)', (viewport) => {
  const fixture = usePage('modules', viewport, browser);
  const plan = viewport === 'desktop' ? 'Growth' : 'Studio';

  /** Looks for a screen with the sidebar's quick search: whether the sidebar offers it. */
  async function sidebarOffers(label: string): Promise<boolean> {
    const { page } = fixture();
    const nav = await openSidebar(page, viewport);
    const search = nav.getByRole('textbox', { name: 'Go to a screen' });
    await search.fill(label);
    // The search answers with screens that match (a near match too) or says none does; a found
    // screen's link names its group too ('Timetable Classes').
    const results = nav.getByRole('navigation', { name: 'Screens found' });
    const none = nav.getByText(`No screen matches “${label}”.`);
    await results.or(none).first().waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    const offered =
      (await results
        .getByRole('link')
        .filter({ has: page.getByText(label, { exact: true }) })
        .count()) > 0;
    await search.fill('');
    if (viewport === 'phone') await page.getByRole('button', { name: 'Toggle navigation' }).click();
    return offered;
  }

  it('the admin picks a plan, turns classes off and the navigation and the timetable page follow', async () => {
    const { page, shot } = fixture();
    await signInAsStaff(page);
    expect(await sidebarOffers('Timetable')).toBe(true);

    await goViaSidebar(page, viewport, 'Subscription', '/admin/subscription');
    await shows(page.getByRole('button', { name: `Choose ${plan}` }), `the ${plan} plan`);
    await expectFitsWidth(page);
    await shot('1-plans', { fullPage: true });
    await page.getByRole('button', { name: `Choose ${plan}` }).click();
    await shows(page.getByText(`Your plan is now ${plan}.`), 'the plan confirmation');
    await shows(page.getByRole('button', { name: `Current plan: ${plan}` }), 'the plan marked current');
    await shows(page.getByText('Trial', { exact: true }), 'the trial badge');
    await shows(page.getByText(/^Trial ends /), 'the trial end');
    await shot('2-picked');

    await goViaSidebar(page, viewport, 'Modules', '/admin/modules');
    await shows(page.getByText(`Your plan: ${plan}.`), 'the plan on the modules page');
    await expectFitsWidth(page);
    await setSwitch(page, 'Classes', false);
    await shows(page.getByText('Classes is now off.'), 'the module turned off');
    await shot('3-classes-off', { fullPage: true });
    expect(await sidebarOffers('Timetable')).toBe(false);
    expect(await sidebarOffers('Terms')).toBe(false);
    // Other modules' pages stay.
    expect(await sidebarOffers('Events')).toBe(true);

    await page.goto('/admin/timetable');
    await shows(page.getByRole('heading', { name: 'Page not found' }), 'the not-found page');
    await shot('4-timetable-not-found');

    await page.goto('/admin/modules');
    await setSwitch(page, 'Classes', true);
    await shows(page.getByText('Classes is now on.'), 'the module turned back on');
    expect(await sidebarOffers('Timetable')).toBe(true);
    await page.goto('/admin/timetable');
    await expectAt(page, '/admin/timetable');
    await shows(page.getByRole('heading', { level: 1, name: 'Timetable' }), 'the timetable again');
  });

  it('moving to a smaller plan is allowed: nothing is lost and the dashboard says what to do', async () => {
    const { page, shot } = fixture();
    // A plan smaller than the company, made by the operator (plans are the installation's: the
    // name is this test's own).
    const small = `Tiny ${uniqueTag(viewport)}`;
    const operatorToken = await apiSignIn(operator.email, operator.password);
    await apiOk('POST', '/api/v1/admin/plans', {
      token: operatorToken,
      body: { name: small, monthly_price: 1900, modules: everyModule, max_children: 5, trial_days: 0 },
    });

    await signInAsStaff(page);
    await page.goto('/admin/subscription');
    await page.getByRole('button', { name: `Choose ${small}` }).click();
    await shows(page.getByText(`Your plan is now ${small}.`), 'the smaller plan taken');
    const advice =
      /^You have \d+ children\. Your plan allows 5 children\. To add more, move to Starter on the Subscription page\. Nothing has been removed\./;
    await shows(page.getByText(advice), 'the over-the-limit notice on Subscription');
    await page.goto('/admin/dashboard');
    await shows(page.getByText(advice), 'the dashboard banner');
    await shows(page.getByRole('link', { name: 'Go to Subscription' }), 'the way to change plan');
    await expectFitsWidth(page);
    await shot('7-dashboard-over-limit');

    // Back to a plan with room for everyone: the banner goes.
    const token = await apiSignIn(company().admin.email, company().admin.password);
    const plans = await apiOk<{ plans: { id: number; name: string }[] }>(
      'GET',
      '/api/v1/admin/subscription',
      { token },
    );
    // This viewport's plan again (the phone's first test then moves on from Growth to Studio).
    const roomy = plans.plans.find((p) => p.name === plan)!;
    await apiOk('POST', '/api/v1/admin/subscription', { token, body: { plan_id: roomy.id } });
    await page.reload();
    await shows(page.getByRole('heading', { level: 1, name: /Bounce/ }), 'the dashboard');
    expect(await page.getByRole('link', { name: 'Go to Subscription' }).count()).toBe(0);
  });
});

/** The operator's screens are staff screens whose layout does not change: once, at the desktop. */
describe.each(staffViewport)("plans, the operator's side (%s)", (viewport) => {
  const fixture = usePage('modules', viewport, browser);

  it("the operator's Plans list the demo plans with their limits, and a plan names its modules", async () => {
    const { page, shot } = fixture();
    await page.goto('/admin/login');
    await submitSignIn(page, operator.email, operator.password);
    // An operator lands on Customers; Plans is in their sidebar.
    await expectAt(page, '/admin/customers');
    await goViaSidebar(page, viewport, 'Plans', '/admin/plans');
    await shows(page.getByText('Studio', { exact: true }).first(), 'the Studio plan');
    // The engine's list table is wider than a phone for every resource (not checked here).
    await shot('5-operator-plans', { fullPage: true });
    await page.getByText('Starter', { exact: true }).first().click();
    await shows(page.getByText('Birthday parties').first(), 'the modules of Starter');
    await shot('6-operator-plan', { fullPage: true });
  });
});
