import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import {
  firstRowLink,
  navigate,
  type SweptPage,
  submittedEmpty,
  sweepSignedIn,
} from './support/a11y-pages.ts';
import { useBrowser } from './support/harness.ts';
import { demo } from './support/spec-text.ts';

/**
 * Issue 19 "Accessibility, measured", the staff side's own pages (every staff route of routes.tsx
 * that is not the resource engine's generic list/form/view, which e2e/a11y-engine.spec.ts sweeps):
 * each as the demo company administrator first meets it (a few forms also with their validation
 * errors shown), and the operator's Customers pages as the demo operator, at 1280 and 390 px: no
 * serious or critical axe-core violation and no interactive element under 24 × 24 px. One signed-in
 * page per role; nothing is saved (writes are refused). Ids are the demo seed's fixed rows (event 1,
 * term 1, class 1, coach 1, the demo parent 2) or the first link of a list.
 */

const browser = useBrowser();

/** A page whose address is the first link to `prefix` on `listPath`. */
function fromList(listPath: string, prefix: string, then = ''): (page: Page) => Promise<string> {
  return async (page) => {
    await navigate(page, listPath);
    return `${await firstRowLink(page, prefix)}${then}`;
  };
}

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
  { path: '/admin/dashboard', heading: demo.companyName },
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
  // same screen; the demo data has no party booking until a party spec has run.
  {
    path: fromList('/admin/events/1/bookings', '/admin/events/1/bookings/', '/booking-waivers'),
    heading: 'Waivers',
  },
  { path: '/admin/registration-anomalies', heading: 'Registration anomalies' },
  { path: '/admin/my-account', heading: 'My Account' },
  { path: '/admin/events/1/event-availability', heading: 'Availability' },
  { path: '/admin/terms/1/rollover', heading: /^Roll over/ },
  { path: '/admin/terms/1/billing', heading: /^Bill / },
  { path: '/admin/terms/term-calendar', heading: 'From the school calendar' },
  { path: '/admin/term-classes/1/class-students', heading: /: students$/ },
  { path: '/admin/term-classes/1/generate-sessions', heading: 'Generate sessions' },
  { path: '/admin/term-classes/generate-term-sessions', heading: /^(?!Generate sessions$)./ },
  { path: '/admin/term-classes/copy-previous-term', heading: 'Copy the classes of the previous term' },
  { path: '/admin/coaches/1/private-lessons', heading: 'Private lessons' },
  { path: '/admin/parents/2/family-account', heading: /: account$/ },
  { path: '/admin/parents/2/erase-family', heading: 'Erase family' },
];

const operatorPages: SweptPage[] = [
  { path: '/admin/customers', heading: 'Customers' },
  { path: fromList('/admin/customers', '/admin/customers/'), heading: /^(?!Customers$)./ },
];

describe.each([
  {
    role: 'company administrator',
    email: demo.admin.email,
    password: demo.admin.password,
    pages: adminPages,
  },
  { role: 'operator', email: 'operator@demo.test', password: 'demo-operator-1', pages: operatorPages },
])('accessibility of the custom staff pages, as the $role', ({ role, email, password, pages }) => {
  sweepSignedIn({
    name: `a11y-staff-pages (${role})`,
    browser,
    loginPath: '/admin/login',
    email,
    password,
    pages,
    readingPosts: ['/api/v1/communications/audience'],
  });
});
