import { defineResource } from '../resources/define.ts';
import { field } from '../resources/fields.ts';
import { auditLog } from './audit.tables.ts';

/** The audit trail, read-only, for company administrators. */
export const auditLogResource = defineResource({
  name: 'audit-log',
  label: 'Audit log',
  nav: { group: 'Settings', icon: 'list' },
  singular: 'Audit entry',
  table: auditLog,
  titleField: 'summary',
  fields: {
    at: field.datetime('When', { readOnly: true }),
    actor_name: field.text('Who', { readOnly: true }),
    action: field.text('Action', { readOnly: true }),
    entity: field.text('What', { readOnly: true }),
    entity_id: field.number('Record', { readOnly: true }),
    summary: field.textarea('Changes (before → after)', { readOnly: true, max: 100_000 }),
  },
  list: {
    columns: ['at', 'actor_name', 'action', 'entity', 'entity_id', 'summary'],
    search: ['actor_name', 'entity', 'summary'],
    defaultSort: { field: 'at', order: 'desc' },
  },
  permissions: { read: 'company.manage', write: 'company.manage' },
  canCreate: false,
  canEdit: false,
  deleteMode: 'none',
});
