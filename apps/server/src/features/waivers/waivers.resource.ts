import { eq } from 'drizzle-orm';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { waivers } from './waivers.tables.ts';

export const waiversResource = defineResource({
  name: 'waivers',
  label: 'Waivers',
  nav: { group: 'Settings', icon: 'signature' },
  singular: 'Waiver',
  table: waivers,
  titleField: 'title',
  fields: {
    title: field.text('Title', { required: true, max: 150 }),
    body: field.richtext('Waiver text', { required: true }),
    applies_to: field.select(
      'For',
      [
        { value: 'all', label: 'Everything' },
        { value: 'events', label: 'Events' },
        { value: 'parties', label: 'Parties' },
        { value: 'classes', label: 'Classes' },
      ],
      { required: true, default: 'all' },
    ),
    ask_fields: field.multiselect('Ask about the child', [
      { value: 'dob', label: 'Date of birth' },
      { value: 'medical', label: 'Medical conditions' },
      { value: 'allergies', label: 'Allergies' },
      { value: 'emergency_contact', label: 'Emergency contact' },
      { value: 'photo_consent', label: 'Photo consent' },
    ]),
    active: field.boolean('Active', { default: true }),
    version: field.number('Version', { readOnly: true }),
  },
  list: {
    columns: ['title', 'applies_to', 'version', 'active'],
    search: ['title'],
    filters: ['applies_to', 'active'],
  },
  permissions: { read: 'catalog.read', write: 'catalog.write' },
  deleteMode: 'archive',
  // A changed text is a new version: waivers signed for the old text no longer count.
  beforeSave: async (values, { tx, tenant, id }) => {
    if (id === null) return values;
    const [current] = await tx
      .select()
      .from(waivers)
      .where(tenant.where(waivers, eq(waivers.id, id)));
    const changed = current && (current.body !== values.body || current.title !== values.title);
    return changed ? { ...values, version: current.version + 1 } : values;
  },
});

export const waiverResources = [waiversResource];
