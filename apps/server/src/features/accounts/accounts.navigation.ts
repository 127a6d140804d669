import type { NavigationItem, Role } from '@tumble/contracts/auth';
import { type Permission, roleHas } from '../../platform/permissions.ts';

interface NavEntry extends NavigationItem {
  permission: Permission;
}

/** Side and top navigation per role; an entry shows only to roles the permission table allows. */
const side: NavEntry[] = [
  { label: 'Dashboard', path: '/admin/dashboard', icon: 'home', permission: 'admin.access' },
  { label: 'Events', path: '/admin/events', icon: 'calendar', permission: 'catalog.read' },
  { label: 'Party bookings', path: '/admin/party-bookings', icon: 'cake', permission: 'bookings.read' },
  {
    label: 'Party report',
    path: '/admin/reports/birthday-parties',
    icon: 'chart',
    permission: 'bookings.read',
  },
  { label: 'Party slots', path: '/admin/slots', icon: 'cake', permission: 'catalog.read' },
  { label: 'Payments', path: '/admin/payments', icon: 'cash', permission: 'billing.read' },
  { label: 'Parents', path: '/admin/parents', icon: 'users', permission: 'bookings.read' },
  { label: 'Venues', path: '/admin/venues', icon: 'building', permission: 'catalog.read' },
  { label: 'Rooms', path: '/admin/rooms', icon: 'door', permission: 'catalog.read' },
  { label: 'Restricted dates', path: '/admin/restricted-dates', icon: 'ban', permission: 'catalog.read' },
  { label: 'Waivers', path: '/admin/waivers', icon: 'signature', permission: 'catalog.read' },
  { label: 'Insurances', path: '/admin/insurances', icon: 'shield', permission: 'billing.read' },
  { label: 'Coupons', path: '/admin/coupons', icon: 'ticket', permission: 'billing.read' },
  {
    label: 'Promotional codes',
    path: '/admin/promotional-codes',
    icon: 'ticket',
    permission: 'billing.read',
  },
  { label: 'NSW vouchers', path: '/admin/nsw-settings', icon: 'ticket', permission: 'billing.read' },
  { label: 'Payment methods', path: '/admin/payment-methods', icon: 'cash', permission: 'billing.read' },
  { label: 'Surcharges', path: '/admin/surcharges', icon: 'percent', permission: 'billing.read' },
  { label: 'Payment terms', path: '/admin/payment-terms', icon: 'file', permission: 'billing.read' },
  { label: 'Birthday pricing', path: '/admin/birthday-pricing', icon: 'cash', permission: 'billing.read' },
  {
    label: 'Party invitations',
    path: '/admin/party-invitation-settings',
    icon: 'mail',
    permission: 'settings.read',
  },
  { label: 'System emails', path: '/admin/system-emails', icon: 'mail', permission: 'settings.read' },
  { label: 'Users', path: '/admin/users', icon: 'users', permission: 'users.manage' },
  { label: 'Outbox', path: '/admin/mail', icon: 'mail', permission: 'mail.read' },
  { label: 'Audit log', path: '/admin/audit-log', icon: 'list', permission: 'company.manage' },
  { label: 'My Profile', path: '/admin/students/profile', icon: 'user', permission: 'parent.self' },
  { label: 'My Children', path: '/admin/students/children', icon: 'users', permission: 'parent.self' },
  { label: 'My Bookings', path: '/admin/students/my-booking', icon: 'calendar', permission: 'parent.self' },
  {
    label: 'My Party Bookings',
    path: '/admin/students/my-party-booking',
    icon: 'cake',
    permission: 'parent.self',
  },
  { label: 'Payments', path: '/admin/students/payments', icon: 'receipt', permission: 'parent.self' },
  { label: 'Waivers', path: '/admin/students/waiver', icon: 'signature', permission: 'parent.self' },
];

const top: NavEntry[] = [
  { label: 'My Account', path: '/admin/my-account', permission: 'admin.access' },
  { label: 'My Company', path: '/admin/my-company', permission: 'company.manage' },
  { label: 'Users', path: '/admin/users', permission: 'users.manage' },
  { label: 'My Account', path: '/admin/students/profile', permission: 'parent.self' },
];

const strip = ({ permission: _permission, ...item }: NavEntry): NavigationItem => item;

export function navigationFor(role: Role): { side: NavigationItem[]; top: NavigationItem[] } {
  return {
    side: side.filter((e) => roleHas(role, e.permission)).map(strip),
    top: top.filter((e) => roleHas(role, e.permission)).map(strip),
  };
}
