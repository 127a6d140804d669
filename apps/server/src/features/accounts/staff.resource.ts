import { staffRoles } from '@tumble/contracts/auth';
import { inArray } from 'drizzle-orm';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { users } from './accounts.tables.ts';

/**
 * The company's staff users (administrators, staff and coaches), read-only: what a coach profile
 * points at (`field.reference(..., 'staff')`), so the engine offers and checks only staff users.
 * Staff are invited and changed on the Users screen, not here.
 */
export const staffResource = defineResource({
  name: 'staff',
  label: 'Staff',
  singular: 'Staff user',
  table: users,
  where: inArray(users.role, [...staffRoles]),
  titleField: 'full_name',
  fields: {
    full_name: field.text('Name', { readOnly: true }),
    email: field.email('Email', { readOnly: true }),
    role: field.select(
      'Role',
      [
        { value: 'companyadmin', label: 'Administrator' },
        { value: 'companystaff', label: 'Staff' },
        { value: 'companycoach', label: 'Coach' },
      ],
      { readOnly: true },
    ),
  },
  list: { columns: ['full_name', 'email', 'role'], search: ['full_name', 'email'], filters: ['role'] },
  // Whoever keeps coach profiles picks the staff user a profile belongs to.
  permissions: { read: 'coaches.read', write: 'coaches.write' },
  canCreate: false,
  canEdit: false,
  deleteMode: 'none',
});
