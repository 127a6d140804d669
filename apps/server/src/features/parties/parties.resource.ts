import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { weekdayOptions } from '../../platform/resources/options.ts';
import { birthdayPricing, partyInvitationSettings, partySlots } from './parties.tables.ts';

export const DEFAULT_INVITATION_HTML =
  '<p>You are invited to {{child}}’s birthday party!</p><p>{{date}} at {{time}}, {{venue}}.</p><p>Please sign the waiver for your child before the party: {{link}}</p>';

export const partySlotsResource = defineResource({
  name: 'slots',
  label: 'Party slots',
  nav: { group: 'Parties', icon: 'cake' },
  singular: 'Party slot',
  table: partySlots,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120, help: 'e.g. Saturday morning' }),
    venue_id: field.reference('Venue', 'venues'),
    room_id: field.reference('Room', 'rooms'),
    start_time: field.time('Starts at', { required: true }),
    duration_minutes: field.number('Duration (minutes)', { required: true, min: 15, max: 600, default: 120 }),
    days_of_week: field.multiselect('Runs on', weekdayOptions, { required: true, default: ['6', '7'] }),
    capacity: field.number('Most guests', { required: true, min: 1, max: 500 }),
  },
  list: {
    columns: ['name', 'start_time', 'duration_minutes', 'capacity', 'venue_id'],
    search: ['name'],
    filters: ['venue_id'],
    defaultSort: { field: 'start_time', order: 'asc' },
  },
  permissions: { read: 'catalog.read', write: 'catalog.write' },
  deleteMode: 'archive',
});

export const birthdayPricingResource = defineResource({
  name: 'birthday-pricing',
  label: 'Birthday pricing',
  nav: { group: 'Parties', icon: 'cash' },
  singular: 'Birthday pricing',
  table: birthdayPricing,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120, default: 'Birthday party' }),
    base_price: field.money('Base price', { required: true }),
    included_guests: field.number('Guests included', { required: true, min: 1, max: 500 }),
    price_per_extra_guest: field.money('Each extra guest', { required: true }),
    deposit: field.money('Deposit', { default: 0, help: '0: the full amount is paid at booking' }),
  },
  list: { columns: ['name', 'base_price', 'included_guests', 'price_per_extra_guest', 'deposit'] },
  permissions: { read: 'billing.read', write: 'billing.write' },
  check: (v) =>
    (v.deposit as number) > (v.base_price as number)
      ? { deposit: 'The deposit cannot be more than the base price.' }
      : undefined,
});

export const partyInvitationSettingsResource = defineResource({
  name: 'party-invitation-settings',
  label: 'Party invitations',
  nav: { group: 'Parties', icon: 'mail' },
  singular: 'Party invitation',
  table: partyInvitationSettings,
  titleField: 'subject',
  fields: {
    subject: field.text('Subject', {
      required: true,
      max: 200,
      default: 'You are invited to {{child}}’s party',
    }),
    body: field.richtext('Invitation', {
      required: true,
      default: DEFAULT_INVITATION_HTML,
      help: 'Placeholders: {{child}}, {{date}}, {{time}}, {{venue}}, {{link}}',
    }),
    reply_to: field.email('Reply to'),
  },
  list: { columns: ['subject', 'reply_to'] },
  permissions: { read: 'settings.read', write: 'settings.write' },
});

export const partyResources = [partySlotsResource, birthdayPricingResource, partyInvitationSettingsResource];
