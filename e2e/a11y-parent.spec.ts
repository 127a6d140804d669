import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  firstLink,
  navigate,
  refuseWrites,
  type SweptPage,
  signInOn,
  sweepPage,
} from './support/a11y-pages.ts';
import { newPage } from './support/browser.ts';
import { UI_TIMEOUT, useBrowser } from './support/harness.ts';
import { demo } from './support/spec-text.ts';

/**
 * Issue 19 "Accessibility, measured", the parent's account: every page of the signed-in parent
 * area, as the demo parent first meets it (and the add-child form with its validation errors), at
 * 1280 and 390 px: no serious or critical axe-core violation and no interactive element under
 * 24 × 24 px. One signed-in page visits them all; nothing is saved (writes are refused).
 */

const browser = useBrowser();

const pages: SweptPage[] = [
  { path: '/admin/students/profile', heading: 'My Profile' },
  { path: '/admin/students/children', heading: 'My Children' },
  {
    path: '/admin/students/children/add',
    heading: 'Add child',
    alsoWith: {
      label: 'submitted empty',
      act: async (page) => {
        await page.getByRole('button', { name: 'Add child' }).click();
        await page.getByText('Please enter the first name.').waitFor({ timeout: UI_TIMEOUT });
      },
    },
  },
  {
    // A child's edit form, found from the list (the demo family's first child).
    path: async (page) => {
      await navigate(page, '/admin/students/children');
      const edit = page.locator('main a[aria-label^="Edit "]').first();
      await edit.waitFor({ timeout: UI_TIMEOUT });
      return (await edit.getAttribute('href')) ?? '';
    },
    heading: /^Edit /,
  },
  { path: '/admin/students/my-booking', heading: 'My Bookings' },
  { path: '/admin/students/classes', heading: 'My Classes' },
  { path: '/admin/students/my-party-booking', heading: 'My Party Bookings' },
  { path: '/admin/students/private-classes', heading: 'Private Classes' },
  { path: '/admin/students/uniforms', heading: 'Uniforms' },
  { path: '/admin/students/re-enroll', heading: 'Re-enrolment' },
  { path: '/admin/students/registrations', heading: 'Enrolments' },
  { path: '/admin/students/invoices', heading: 'My Invoices' },
  {
    // Paying an invoice (SPEC student/payment), from the invoice list's "Pay" link.
    path: async (page) => {
      await navigate(page, '/admin/students/invoices');
      return firstLink(page, '/admin/student/payment');
    },
    heading: /^Invoice /,
  },
  { path: '/admin/students/payments', heading: 'My Payments' },
  { path: '/admin/students/card', heading: 'Saved card' },
  { path: '/admin/students/waiver', heading: 'My Waivers' },
  { path: '/admin/students/tasks', heading: 'Tasks' },
  { path: '/admin/students/calendar', heading: 'My Calendar' },
  { path: '/admin/my-account', heading: 'My Account' },
];

describe('accessibility of the parent area', () => {
  let context: BrowserContext;
  let page: Page;
  const writes: string[] = [];
  let started = 0;

  beforeAll(async () => {
    started = Date.now();
    ({ context, page } = await newPage(browser(), 'desktop'));
    context.setDefaultTimeout(UI_TIMEOUT);
    await signInOn(
      page,
      `/admin/students/login?authhash=${demo.authhash}`,
      demo.parent.email,
      demo.parent.password,
    );
    await refuseWrites(page, writes);
  });

  afterAll(async () => {
    console.info(`a11y-parent: ${pages.length} pages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await context?.close();
  });

  it.each(
    pages.map(
      (swept) =>
        [typeof swept.path === 'string' ? swept.path : `h1 ${String(swept.heading)}`, swept] as const,
    ),
  )(
    '%s: no serious or critical violation and no target under 24 px, at 1280 and 390',
    async (_label, swept) => {
      const failures = await sweepPage(page, swept);
      expect(failures.join('\n')).toBe('');
    },
  );

  it('changed nothing', () => {
    expect(writes).toEqual([]);
  });
});
