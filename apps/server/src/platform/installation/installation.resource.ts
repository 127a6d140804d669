import { moduleCatalogue } from '../modules.ts';
import { defineResource } from '../resources/define.ts';
import { field } from '../resources/fields.ts';
import { plans } from './installation.tables.ts';

/**
 * The installation's plans (SPEC plans): rows of no company, reachable only with
 * `installation.operate` (no company role has it), so every company user gets 403 on every route.
 * A plan in use is archived, never deleted: its subscribers keep it.
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
    modules: field.multiselect(
      'Modules',
      moduleCatalogue.map((m) => ({ value: m.key, label: m.label })),
      { help: 'What companies on this plan can use.' },
    ),
    max_children: field.number('Max children', { min: 1, max: 1_000_000, help: 'Empty: no limit.' }),
    max_staff: field.number('Max staff users', { min: 1, max: 100_000, help: 'Empty: no limit.' }),
    trial_days: field.number('Trial days', { required: true, min: 0, max: 365, default: 0 }),
    stripe_price_id: field.text('Stripe price id', {
      max: 100,
      help: "The monthly recurring Price in the installation's Stripe account (price_…).",
    }),
  },
  // Three columns fit a phone; the limits and the trial are on each plan's page.
  list: { columns: ['name', 'monthly_price', 'max_children'], search: ['name'] },
  permissions: { read: 'installation.operate', write: 'installation.operate' },
  deleteMode: 'archive',
});

export const installationResources = [plansResource];
