import { defineResource } from '../resources/define.ts';
import { field } from '../resources/fields.ts';
import { plans } from './installation.tables.ts';

/**
 * The installation's plans: rows of no company, reachable only with `installation.operate`
 * (no company role has it), so every company user gets 403 on every route.
 */
export const plansResource = defineResource({
  name: 'plans',
  label: 'Plans',
  singular: 'Plan',
  scope: 'installation',
  table: plans,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 100 }),
    monthly_price: field.money('Monthly price', { required: true, default: 0 }),
  },
  list: { columns: ['name', 'monthly_price'], search: ['name'] },
  permissions: { read: 'installation.operate', write: 'installation.operate' },
  deleteMode: 'archive',
});

export const installationResources = [plansResource];
