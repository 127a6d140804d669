import { describe } from 'vitest';
import { firstLink, navigate, type SweptPage, sweepSignedIn } from './support/a11y-pages.ts';
import { company, useCompany } from './support/company.ts';
import { UI_TIMEOUT, useBrowser } from './support/harness.ts';

/**
 * Issue 19 "Accessibility, measured", the parent's account: every page of the signed-in parent
 * area, as the spec's company's parent (Pat Parent, seeded as in the demo) first meets it (and the
 * add-child form with its validation errors), at 1280 and 390 px: no serious or critical axe-core
 * violation and no interactive element under 24 × 24 px. One signed-in page visits them all;
 * nothing is saved (writes are refused).
 */

const browser = useBrowser();
useCompany();

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
    // A child's edit form, found from the list (the family's first child).
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
  sweepSignedIn({
    name: 'a11y-parent',
    browser,
    login: () => ({
      loginPath: `/admin/students/login?authhash=${company().authhash}`,
      email: company().parent.email,
      password: company().parent.password,
    }),
    pages,
  });
});
