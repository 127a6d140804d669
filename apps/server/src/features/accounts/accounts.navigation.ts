import type { NavigationItem, Role } from '@tumble/contracts/auth';
import { type ModuleKey, moduleOfPage } from '../../platform/modules.ts';
import { type Permission, roleHas } from '../../platform/permissions.ts';
import { type NavGroup, navGroups } from '../../platform/resources/define.ts';
import { mountedResources } from '../../platform/resources/engine.service.ts';

export interface NavEntry extends NavigationItem {
  permission: Permission;
}

/**
 * Signed-in pages that are not engine resources. Each resource places itself in the sidebar with
 * `nav` on its definition (platform/resources/define.ts); its read permission decides who sees it.
 */
const pages: (NavEntry & { group?: NavGroup })[] = [
  { label: 'Dashboard', path: '/admin/dashboard', icon: 'home', permission: 'admin.access' },
  // The installation operator's companies (features/operators; decision 018).
  { label: 'Customers', path: '/admin/customers', icon: 'users', permission: 'installation.operate' },
  {
    label: 'Timetable',
    path: '/admin/timetable',
    icon: 'calendar',
    permission: 'classes.read',
    group: 'Classes',
  },
  // Assigning a substitute needs classes.write; the coach choices need coaches.read (same roles).
  { label: 'Cover', path: '/admin/cover', icon: 'swap', permission: 'classes.write', group: 'Classes' },
  // Registrations that need a staff decision (features/registration/anomalies.routes.ts).
  {
    label: 'Registration anomalies',
    path: '/admin/registration-anomalies',
    icon: 'alert',
    permission: 'classes.write',
    group: 'Classes',
  },
  // A coach sees the sessions they coach; staff see every session.
  { label: 'Roll', path: '/admin/roll', icon: 'check', permission: 'roll.mark', group: 'Classes' },
  {
    label: 'Private lessons',
    path: '/admin/private-lessons',
    icon: 'whistle',
    permission: 'bookings.read',
    group: 'Classes',
  },
  {
    label: 'Daily roll',
    path: '/admin/reports/daily-roll',
    icon: 'chart',
    permission: 'classes.write',
    group: 'Reports',
  },
  {
    label: 'Party report',
    path: '/admin/reports/birthday-parties',
    icon: 'chart',
    permission: 'bookings.read',
    group: 'Reports',
  },
  {
    label: 'Trial conversions',
    path: '/admin/reports/trial-conversions',
    icon: 'chart',
    permission: 'classes.write',
    group: 'Reports',
  },
  {
    label: 'Enrolment comparison',
    path: '/admin/reports/enrollment-comparison',
    icon: 'chart',
    permission: 'classes.write',
    group: 'Reports',
  },
  {
    label: 'Insurance report',
    path: '/admin/reports/insurance',
    icon: 'chart',
    permission: 'bookings.read',
    group: 'Reports',
  },
  {
    label: 'Coupon code usages',
    path: '/admin/reports/coupon-code-usages',
    icon: 'chart',
    permission: 'billing.read',
    group: 'Reports',
  },
  {
    label: 'NSW vouchers',
    path: '/admin/reports/vouchers',
    icon: 'chart',
    permission: 'billing.read',
    group: 'Reports',
  },
  {
    label: 'Events report',
    path: '/admin/reports/events',
    icon: 'chart',
    permission: 'bookings.read',
    group: 'Reports',
  },
  // Every child across families and each child's screen (features/students/student-directory.routes.ts).
  {
    label: 'Students',
    path: '/admin/students',
    icon: 'users',
    permission: 'bookings.read',
    group: 'Families',
  },
  // SPEC students/invite: a family account with the children, and a link to the registration form.
  {
    label: 'Invite a family',
    path: '/admin/students/invite',
    icon: 'mail',
    permission: 'classes.write',
    group: 'Families',
  },
  // Families from another system, by CSV (features/import).
  {
    label: 'Import families',
    path: '/admin/import',
    icon: 'upload',
    permission: 'classes.write',
    group: 'Families',
  },
  // Uniform orders for families: the desk orders, collects and cancels (features/uniforms).
  {
    label: 'Uniform orders',
    path: '/admin/uniform-orders',
    icon: 'shirt',
    permission: 'bookings.write',
    group: 'Families',
  },
  // Flags on children and families, and staff tasks (features/students/flags, features/tasks).
  { label: 'Flagged', path: '/admin/flagged', icon: 'flag', permission: 'classes.write', group: 'Families' },
  { label: 'Tasks', path: '/admin/tasks', icon: 'check', permission: 'classes.write', group: 'Families' },
  // Enquiries and leads (features/crm); their sources and stages are a setting.
  {
    label: 'Contacts',
    path: '/admin/contacts',
    icon: 'users',
    permission: 'classes.write',
    group: 'Families',
  },
  {
    label: 'CRM settings',
    path: '/admin/settings/crm',
    icon: 'settings',
    permission: 'settings.read',
    group: 'Settings',
  },
  // Staff invoices and the supplier details printed on them (features/billing/invoices.routes.ts).
  { label: 'Invoices', path: '/admin/invoices', icon: 'file', permission: 'billing.read', group: 'Money' },
  {
    label: 'Billing profile',
    path: '/admin/billing-profile',
    icon: 'receipt',
    permission: 'billing.read',
    group: 'Money',
  },
  // Xero: connection, account codes, CSV downloads (features/billing/accounting).
  {
    label: 'Accounting',
    path: '/admin/integrations/accounting',
    icon: 'file',
    permission: 'billing.read',
    group: 'Money',
  },
  // The company's own Stripe or Square account (platform/payments/connections).
  {
    label: 'Payment accounts',
    path: '/admin/integrations/payments',
    icon: 'cash',
    permission: 'billing.read',
    group: 'Money',
  },
  // Money staff take at the desk or by transfer (features/billing/record-payment.routes.ts).
  {
    label: 'Record a payment',
    path: '/admin/payments/record',
    icon: 'cash',
    permission: 'bookings.write',
    group: 'Money',
  },
  // Mass mail with filters (features/communications/mass-mail.routes.ts).
  {
    label: 'Mass mail',
    path: '/admin/communications',
    icon: 'mail',
    permission: 'communications.send',
    group: 'Communications',
  },
  // Reminder rules and the last reminders sent (features/communications/reminders).
  {
    label: 'Reminder emails',
    path: '/admin/reminder-emails',
    icon: 'mail',
    permission: 'settings.read',
    group: 'Communications',
  },
  // Every system email's wording and the look of all mail (features/settings/email-settings.*).
  {
    label: 'System emails',
    path: '/admin/system-emails',
    icon: 'mail',
    permission: 'settings.read',
    group: 'Communications',
  },
  {
    label: 'Email settings',
    path: '/admin/settings/emails',
    icon: 'mail',
    permission: 'settings.read',
    group: 'Communications',
  },
  { label: 'Outbox', path: '/admin/mail', icon: 'mail', permission: 'mail.read', group: 'Communications' },
  // Mailchimp: the audience families are kept in (features/communications/mailchimp).
  {
    label: 'Mailing',
    path: '/admin/integrations/mailing',
    icon: 'mail',
    permission: 'settings.read',
    group: 'Communications',
  },
  // Every outside connection on one page (features/integrations).
  {
    label: 'Integrations',
    path: '/admin/integrations',
    icon: 'settings',
    permission: 'settings.read',
    group: 'Settings',
  },
  { label: 'Users', path: '/admin/users', icon: 'users', permission: 'users.manage', group: 'Settings' },
  // Download all the company's data (features/company-data).
  {
    label: 'Company data',
    path: '/admin/company-data',
    icon: 'file',
    permission: 'company.manage',
    group: 'Settings',
  },
  // Calendar feeds for the company and each coach (features/calendar-feeds).
  {
    label: 'Google Calendar',
    path: '/admin/integrations/google',
    icon: 'calendar',
    permission: 'settings.read',
    group: 'Settings',
  },
  // The company's plan and modules (platform/installation); the operator's plans (engine resource).
  {
    label: 'Subscription',
    path: '/admin/subscription',
    icon: 'receipt',
    permission: 'company.manage',
    group: 'Settings',
  },
  {
    label: 'Modules',
    path: '/admin/modules',
    icon: 'settings',
    permission: 'company.manage',
    group: 'Settings',
  },
  { label: 'Plans', path: '/admin/plans', icon: 'receipt', permission: 'installation.operate' },
  { label: 'My Profile', path: '/admin/students/profile', icon: 'user', permission: 'parent.self' },
  { label: 'My Children', path: '/admin/students/children', icon: 'users', permission: 'parent.self' },
  { label: 'My Classes', path: '/admin/students/classes', icon: 'calendar', permission: 'parent.self' },
  { label: 'My Bookings', path: '/admin/students/my-booking', icon: 'calendar', permission: 'parent.self' },
  {
    label: 'My Party Bookings',
    path: '/admin/students/my-party-booking',
    icon: 'cake',
    permission: 'parent.self',
  },
  {
    label: 'Private Classes',
    path: '/admin/students/private-classes',
    icon: 'whistle',
    permission: 'parent.self',
  },
  { label: 'Uniforms', path: '/admin/students/uniforms', icon: 'shirt', permission: 'parent.self' },
  { label: 'Re-enrolment', path: '/admin/students/re-enroll', icon: 'calendar', permission: 'parent.self' },
  { label: 'Enrolments', path: '/admin/students/registrations', icon: 'calendar', permission: 'parent.self' },
  { label: 'Invoices', path: '/admin/students/invoices', icon: 'receipt', permission: 'parent.self' },
  { label: 'Payments', path: '/admin/students/payments', icon: 'receipt', permission: 'parent.self' },
  { label: 'Saved card', path: '/admin/students/card', icon: 'card', permission: 'parent.self' },
  { label: 'Waivers', path: '/admin/students/waiver', icon: 'signature', permission: 'parent.self' },
  { label: 'Tasks', path: '/admin/students/tasks', icon: 'check', permission: 'parent.self' },
  { label: 'My Calendar', path: '/admin/students/calendar', icon: 'calendar', permission: 'parent.self' },
];

const top: NavEntry[] = [
  { label: 'My Account', path: '/admin/my-account', permission: 'admin.access' },
  // An operator's own profile and password (the page's API needs only a session).
  { label: 'My Account', path: '/admin/my-account', permission: 'installation.operate' },
  { label: 'My Company', path: '/admin/my-company', permission: 'company.manage' },
  { label: 'Users', path: '/admin/users', permission: 'users.manage' },
  { label: 'My Account', path: '/admin/students/profile', permission: 'parent.self' },
];

/**
 * Every sidebar entry, in the order shown: ungrouped pages (Dashboard; a parent's pages), then
 * each group in `navGroups` order with its resources (in registration order) and its pages.
 */
export function sideEntries(): NavEntry[] {
  const resources = mountedResources()
    .filter((r) => r.nav)
    .map((r) => ({
      label: r.nav!.label ?? r.label,
      path: `/admin/${r.name}`,
      icon: r.nav!.icon,
      group: r.nav!.group,
      permission: r.permissions.read,
    }));
  const grouped = [...resources, ...pages.filter((p) => p.group)];
  return [
    ...pages.filter((p) => !p.group),
    ...navGroups.flatMap((group) => grouped.filter((e) => e.group === group)),
  ];
}

const strip = ({ permission: _permission, ...item }: NavEntry): NavigationItem => item;

/** The role's entries; with `modules`, without the pages of modules the company does not have. */
export function navigationFor(
  role: Role,
  modules?: ReadonlySet<ModuleKey>,
): { side: NavigationItem[]; top: NavigationItem[] } {
  const moduleOn = (e: NavEntry) => {
    const module = moduleOfPage(e.path);
    return !modules || !module || modules.has(module);
  };
  return {
    side: sideEntries()
      .filter((e) => roleHas(role, e.permission) && moduleOn(e))
      .map(strip),
    top: top.filter((e) => roleHas(role, e.permission)).map(strip),
  };
}
