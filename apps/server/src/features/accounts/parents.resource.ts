import { eq } from 'drizzle-orm';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { bookingsOfParent } from '../bookings/booking-changes.service.ts';
import { childrenOfParent } from '../students/children.service.ts';
import { users } from './accounts.tables.ts';

/** Parents (users whose role is student): staff read and correct their contact details. */
export const parentsResource = defineResource({
  name: 'parents',
  label: 'Parents',
  nav: { group: 'Families', icon: 'users' },
  singular: 'Parent',
  table: users,
  where: eq(users.role, 'student'),
  titleField: 'full_name',
  fields: {
    full_name: field.text('Name', { required: true, max: 120 }),
    email: field.email('Email', { readOnly: true }),
    phone: field.phone('Phone'),
    status: field.select(
      'Status',
      [
        { value: 'active', label: 'Active' },
        { value: 'pending', label: 'Pending' },
        { value: 'disabled', label: 'Disabled' },
      ],
      { readOnly: true },
    ),
  },
  list: {
    columns: ['full_name', 'email', 'phone', 'status'],
    search: ['full_name', 'email', 'phone'],
    filters: ['status'],
  },
  // Parents are read and corrected by whoever handles bookings.
  permissions: { read: 'bookings.read', write: 'bookings.write' },
  canCreate: false,
  deleteMode: 'none',
  actions: {
    // The family's account (features/billing/statement.*): money, so staff who read billing.
    account: { label: 'Account', selection: 'one', screen: 'family-account', permission: 'billing.read' },
    // Erasing the family on request (features/company-data): the company admin only.
    erase: { label: 'Erase family', selection: 'one', screen: 'erase-family', permission: 'company.manage' },
  },
  sections: {
    children: {
      label: 'Children',
      columns: [
        { name: 'name', label: 'Name' },
        { name: 'dob', label: 'Date of birth' },
      ],
      rows: ({ tx, tenant }, row) => childrenOfParent(tx, tenant, row.id),
    },
    bookings: {
      label: 'Bookings',
      columns: [
        { name: 'code', label: 'Reference' },
        { name: 'event', label: 'Event' },
        { name: 'status', label: 'Status' },
        { name: 'total', label: 'Total' },
      ],
      rows: ({ tx, tenant }, row) => bookingsOfParent(tx, tenant, row.id),
    },
  },
});
