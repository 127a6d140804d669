import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { flags } from './flags.tables.ts';

const kinds = [
  { value: 'medical', label: 'Medical' },
  { value: 'allergy', label: 'Allergy' },
  { value: 'behaviour', label: 'Behaviour' },
  { value: 'photo_consent_withheld', label: 'Photo consent withheld' },
  { value: 'custom', label: 'Custom' },
] as const;

/** The company's flags (SPEC flags); staff apply them to children and families at /admin/flagged. */
export const flagsResource = defineResource({
  name: 'flags',
  label: 'Flags',
  nav: { group: 'Settings', icon: 'flag' },
  singular: 'Flag',
  table: flags,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 60, help: 'e.g. Anaphylaxis, Asthma, Needs a buddy' }),
    kind: field.select('Kind', kinds, { required: true, default: 'custom' }),
    colour: field.colour('Colour', { required: true, default: '#e8590c' }),
    show_on_roll: field.boolean('Show on the roll', {
      default: true,
      help: 'Coaches see it next to the child on every roll.',
    }),
  },
  list: {
    columns: ['name', 'kind', 'colour', 'show_on_roll'],
    search: ['name'],
    defaultSort: { field: 'name', order: 'asc' },
  },
  permissions: { read: 'classes.read', write: 'classes.write' },
  deleteMode: 'archive',
});
