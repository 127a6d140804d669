import type { NavigationItem, Role } from '@tumble/contracts/auth';
import { type Permission, roleHas } from '../../platform/permissions.ts';

interface NavEntry extends NavigationItem {
  permission: Permission;
}

/** Side and top navigation per role; an entry shows only to roles the permission table allows. */
const side: NavEntry[] = [
  { label: 'Dashboard', path: '/admin/dashboard', icon: 'home', permission: 'admin.access' },
  { label: 'Users', path: '/admin/users', icon: 'users', permission: 'users.manage' },
  { label: 'Outbox', path: '/admin/mail', icon: 'mail', permission: 'mail.read' },
  { label: 'My Profile', path: '/admin/students/profile', icon: 'user', permission: 'parent.self' },
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
