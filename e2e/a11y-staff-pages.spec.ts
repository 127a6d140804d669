import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import {
  firstRowLink,
  navigate,
  type SweptPage,
  submittedEmpty,
  sweepSignedIn,
} from './support/a11y-pages.ts';
import { storedToken } from './support/api.ts';
import { baseUrl } from './support/browser.ts';
import { company, operator, useCompany } from './support/company.ts';
import { useBrowser } from './support/harness.ts';

/**
 * Issue 19 "Accessibility, measured", the staff side's own pages (every staff route of routes.tsx
 * that is not the resource engine's generic list/form/view, which e2e/a11y-engine.spec.ts sweeps):
 * each as the administrator of the spec's company (a copy of the demo) first meets it (a few forms
 * also with their validation errors shown), and the operator's Customers pages as the demo
 * operator (installation-wide), at 1280 and 390 px: no serious or critical axe-core violation and no
 * interactive element under 24 × 24 px. One signed-in page per role; nothing is saved (writes are
 * refused). Ids are the seed's rows of the company (the holiday camp, its first term, class and
 * coach, Pat Parent's family), asked of the API, or the first link of a list.
 */

const browser = useBrowser();
useCompany();

/** A page whose address is the first link to `prefix` on `listPath`. */
function fromList(listPath: string, prefix: string, then = ''): (page: Page) => Promise<string> {
  return async (page) => {
    await navigate(page, listPath);
    return `${await firstRowLink(page, prefix)}${then}`;
  };
}

/** GET an admin list as the signed-in page's own session: its rows. */
async function rowsOf(page: Page, path: string): Promise<{ id: number }[]> {
  const response = await fetch(`${baseUrl()}${path}`, {
    headers: { Accept: 'application/json', Authorization: `Bearer ${await storedToken(page)}` },
  });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return ((await response.json()) as { data: { id: number }[] }).data;
}

/**
 * The first row the seed made of an engine resource (its lowest id; the demo's were id 1): the
 * classes seed's term, its first class (Kinder Gym Monday), its first coach (Casey).
 */
async function firstSeeded(page: Page, resource: string): Promise<number> {
  const ids = (await rowsOf(page, `/api/v1/admin/${resource}?perPage=100`)).map((row) => row.id);
  if (ids.length === 0) throw new Error(`no ${resource} in the company`);
  return Math.min(...ids);
}

/** The family account of the company's parent, Pat Parent (the demo's parent 2). */
async function parentId(page: Page): Promise<number> {
  const rows = await rowsOf(page, `/api/v1/admin/parents?q=${encodeURIComponent(company().parent.email)}`);
  if (rows.length !== 1) throw new Error(`${rows.length} parents with ${company().parent.email}`);
  return rows[0]!.id;
}

/** A page under one of the seed's rows: `id` finds the row, `at` builds the address, `label` names the test. */
function underSeeded(
  label: string,
  id: (page: Page) => Promise<number>,
  at: (id: number) => string,
  heading: SweptPage['heading'],
): SweptPage {
  return { label, path: async (page) => at(await id(page)), heading };
}

const camp = async () => company().events.camp;

const reports = [
  ['daily-roll', 'Daily roll'],
  ['birthday-parties', 'Birthday party report'],
  ['vouchers', 'NSW vouchers'],
  ['events', 'Events report'],
  ['insurance', 'Insurance report'],
  ['trial-conversions', 'Trial conversions'],
  ['enrollment-comparison', 'Enrolment comparison'],
  ['coupon-code-usages', 'Coupon code usages'],
] as const;

const adminPages: SweptPage[] = [
  { path: '/admin/dashboard', heading: () => company().name },
  { path: '/admin/timetable', heading: 'Timetable' },
  { path: '/admin/roll', heading: 'Roll' },
  { path: fromList('/admin/roll', '/admin/roll/'), heading: /^(?!Roll$)./ },
  { path: '/admin/students', heading: 'Students' },
  { path: fromList('/admin/students', '/admin/students/'), heading: /^(?!Students$)./ },
  { path: '/admin/students/invite', heading: 'Invite a family', alsoWith: submittedEmpty },
  { path: '/admin/students/merge', heading: 'Merge into another family' },
  { path: '/admin/invoices', heading: 'Invoices' },
  { path: '/admin/invoices/new', heading: 'New invoice' },
  { path: fromList('/admin/invoices', '/admin/invoices/'), heading: /^Invoice/ },
  ...reports.map(([report, heading]) => ({ path: `/admin/reports/${report}`, heading })),
  { path: '/admin/communications', heading: 'Mass mail' },
  { path: '/admin/communications/new', heading: 'New mass mail' },
  { path: fromList('/admin/communications', '/admin/communications/'), heading: /^(?!Mass mail$)./ },
  { path: '/admin/contacts', heading: 'Contacts' },
  { path: '/admin/contacts/new', heading: 'Add a lead', alsoWith: submittedEmpty },
  { path: fromList('/admin/contacts', '/admin/contacts/'), heading: /^(?!Contacts$)./ },
  { path: '/admin/settings/crm', heading: 'CRM settings' },
  { path: '/admin/settings/emails', heading: 'Email settings' },
  { path: '/admin/integrations', heading: 'Integrations' },
  { path: '/admin/integrations/accounting', heading: 'Accounting' },
  { path: '/admin/integrations/google', heading: 'Google Calendar' },
  { path: '/admin/integrations/payments', heading: 'Payment accounts' },
  { path: '/admin/integrations/mailing', heading: 'Mailing' },
  { path: '/admin/subscription', heading: 'Subscription' },
  { path: '/admin/modules', heading: 'Modules' },
  { path: '/admin/import', heading: 'Import families' },
  { path: '/admin/cover', heading: 'Cover' },
  { path: '/admin/tasks', heading: 'Tasks' },
  { path: '/admin/flagged', heading: 'Flagged children and families' },
  { path: '/admin/mail', heading: 'Outbox' },
  { path: fromList('/admin/mail', '/admin/mail/'), heading: /^(?!Outbox$)./ },
  { path: '/admin/system-emails', heading: 'System emails' },
  { path: '/admin/system-emails/activation', heading: 'Account activation' },
  { path: '/admin/reminder-emails', heading: 'Reminder emails' },
  { path: '/admin/company-data', heading: 'Company data' },
  { path: '/admin/my-company', heading: 'My Company' },
  { path: '/admin/users', heading: 'Users' },
  { path: fromList('/admin/users', '/admin/users/'), heading: /^Edit / },
  { path: '/admin/billing-profile', heading: 'Billing profile' },
  { path: '/admin/private-lessons', heading: 'Private lessons' },
  { path: '/admin/uniform-orders', heading: 'Uniform orders' },
  { path: '/admin/payments/record', heading: 'Record a payment' },
  // A booking's Waivers screen (the bookings list's "Waivers" action). A party booking's is the
  // same screen; the seed makes no party booking.
  {
    label: '/admin/events/<camp>/bookings/<first>/booking-waivers',
    path: async (page) => {
      const bookings = `/admin/events/${company().events.camp}/bookings`;
      return fromList(bookings, `${bookings}/`, '/booking-waivers')(page);
    },
    heading: 'Waivers',
  },
  { path: '/admin/registration-anomalies', heading: 'Registration anomalies' },
  { path: '/admin/my-account', heading: 'My Account' },
  underSeeded(
    '/admin/events/<camp>/event-availability',
    camp,
    (id) => `/admin/events/${id}/event-availability`,
    'Availability',
  ),
  underSeeded(
    '/admin/terms/<first>/rollover',
    (page) => firstSeeded(page, 'terms'),
    (id) => `/admin/terms/${id}/rollover`,
    /^Roll over/,
  ),
  underSeeded(
    '/admin/terms/<first>/billing',
    (page) => firstSeeded(page, 'terms'),
    (id) => `/admin/terms/${id}/billing`,
    /^Bill /,
  ),
  { path: '/admin/terms/term-calendar', heading: 'From the school calendar' },
  underSeeded(
    '/admin/term-classes/<first>/class-students',
    (page) => firstSeeded(page, 'term-classes'),
    (id) => `/admin/term-classes/${id}/class-students`,
    /: students$/,
  ),
  underSeeded(
    '/admin/term-classes/<first>/generate-sessions',
    (page) => firstSeeded(page, 'term-classes'),
    (id) => `/admin/term-classes/${id}/generate-sessions`,
    'Generate sessions',
  ),
  { path: '/admin/term-classes/generate-term-sessions', heading: /^(?!Generate sessions$)./ },
  { path: '/admin/term-classes/copy-previous-term', heading: 'Copy the classes of the previous term' },
  underSeeded(
    '/admin/coaches/<first>/private-lessons',
    (page) => firstSeeded(page, 'coaches'),
    (id) => `/admin/coaches/${id}/private-lessons`,
    'Private lessons',
  ),
  underSeeded(
    '/admin/parents/<Pat Parent>/family-account',
    parentId,
    (id) => `/admin/parents/${id}/family-account`,
    /: account$/,
  ),
  underSeeded(
    '/admin/parents/<Pat Parent>/erase-family',
    parentId,
    (id) => `/admin/parents/${id}/erase-family`,
    'Erase family',
  ),
];

const operatorPages: SweptPage[] = [
  { path: '/admin/customers', heading: 'Customers' },
  { path: fromList('/admin/customers', '/admin/customers/'), heading: /^(?!Customers$)./ },
];

describe.each([
  {
    role: 'company administrator',
    login: () => ({
      loginPath: '/admin/login',
      email: company().admin.email,
      password: company().admin.password,
    }),
    pages: adminPages,
  },
  {
    role: 'operator',
    // The installation's operator (not a company's): the same for every spec.
    login: () => ({ loginPath: '/admin/login', email: operator.email, password: operator.password }),
    pages: operatorPages,
  },
])('accessibility of the custom staff pages, as the $role', ({ role, login, pages }) => {
  sweepSignedIn({
    name: `a11y-staff-pages (${role})`,
    browser,
    login,
    pages,
    readingPosts: ['/api/v1/communications/audience'],
  });
});
