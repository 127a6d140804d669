import type { Role } from '@tumble/contracts/auth';

/**
 * The one role → permission table of the server (SPEC.md point 6). Every staff and parent route
 * names one of these in `config.access`; platform/auth.ts refuses the rest with 403.
 */
export const permissions = {
  /** Dashboard, own company's name and logo, navigation. */
  'admin.access': ['companyadmin', 'companystaff', 'companycoach'],
  /** The company profile and logo. */
  'company.manage': ['companyadmin'],
  /** Company users: list, invite, change role, disable. */
  'users.manage': ['companyadmin'],
  /** Read the mail outbox (activation and reset mails when no SMTP is configured). */
  'mail.read': ['companyadmin', 'companystaff'],
  /** Venues, rooms, restricted dates, events and their sessions, tickets, tiers, contacts, downloads; party slots; waivers. */
  'catalog.read': ['companyadmin', 'companystaff', 'companycoach'],
  'catalog.write': ['companyadmin', 'companystaff'],
  /** Insurances, coupons, promotional codes, NSW vouchers, surcharges, payment terms, birthday pricing. */
  'billing.read': ['companyadmin', 'companystaff'],
  'billing.write': ['companyadmin'],
  /** Event bookings and parents: read by every staff role, changed (cancel, swap, change parent) by staff. */
  'bookings.read': ['companyadmin', 'companystaff', 'companycoach'],
  'bookings.write': ['companyadmin', 'companystaff'],
  /** Class types, terms and closures, term classes and their sessions, uniforms: coaches read them. */
  'classes.read': ['companyadmin', 'companystaff', 'companycoach'],
  'classes.write': ['companyadmin', 'companystaff'],
  /** The roll of a session: staff mark any, a coach only the sessions they coach. */
  'roll.mark': ['companyadmin', 'companystaff', 'companycoach'],
  /** Coach profiles with their Working With Children Check, leaves, private slots and uniforms. */
  'coaches.read': ['companyadmin', 'companystaff'],
  'coaches.write': ['companyadmin', 'companystaff'],
  /** System mail wording and party invitation settings. */
  'settings.read': ['companyadmin', 'companystaff'],
  'settings.write': ['companyadmin'],
  /** Mass mail to families (SPEC communications): compose, filter, send, follow its progress. */
  'communications.send': ['companyadmin', 'companystaff'],
  /** A parent's own profile, children and bookings. */
  'parent.self': ['student'],
  /**
   * The installation's own records (its plans and modules, platform/installation/), which belong
   * to no company, and its customers (features/operators). Only operators hold it, and operators
   * hold nothing else: inside a company they act only through support access (decision 018).
   */
  'installation.operate': ['operator'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

/**
 * Who may call a route: anyone, any signed-in user (own account, logout), or holders of a
 * permission. Every API route declares one (see the onRoute check in platform/auth.ts).
 */
export type Access = 'public' | 'signed-in' | Permission;

export function roleHas(role: Role, permission: Permission): boolean {
  return (permissions[permission] as readonly Role[]).includes(role);
}
