import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { restrictedDates, rooms, venues } from './venues.tables.ts';

const catalog = { read: 'catalog.read', write: 'catalog.write' } as const;

export const venuesResource = defineResource({
  name: 'venues',
  label: 'Venues',
  nav: { group: 'Settings', icon: 'building' },
  singular: 'Venue',
  table: venues,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120 }),
    address: field.text('Address', { max: 200 }),
    suburb: field.text('Suburb', { max: 80 }),
    state: field.select(
      'State',
      ['NSW', 'VIC', 'QLD', 'SA', 'WA', 'TAS', 'ACT', 'NT'].map((s) => ({ value: s, label: s })),
    ),
    postcode: field.text('Postcode', { max: 4, help: 'Four digits' }),
    phone: field.phone('Phone'),
  },
  list: {
    columns: ['name', 'suburb', 'state', 'postcode'],
    search: ['name', 'suburb', 'address'],
    filters: ['state'],
  },
  permissions: catalog,
  deleteMode: 'archive',
  check: (values) =>
    values.postcode && !/^\d{4}$/.test(String(values.postcode))
      ? { postcode: 'Postcode must be four digits.' }
      : undefined,
});

export const roomsResource = defineResource({
  name: 'rooms',
  label: 'Rooms',
  nav: { group: 'Settings', icon: 'door' },
  singular: 'Room',
  table: rooms,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120 }),
    venue_id: field.reference('Venue', 'venues', { required: true }),
    capacity: field.number('Capacity', { min: 1, max: 10_000, help: 'People the room holds' }),
  },
  list: { columns: ['name', 'venue_id', 'capacity'], search: ['name'], filters: ['venue_id'] },
  permissions: catalog,
  deleteMode: 'archive',
});

export const restrictedDatesResource = defineResource({
  name: 'restricted-dates',
  label: 'Restricted dates',
  nav: { group: 'Settings', icon: 'ban' },
  singular: 'Restricted date',
  table: restrictedDates,
  titleField: 'reason',
  fields: {
    date: field.date('Date', { required: true }),
    reason: field.text('Reason', { required: true, max: 200, help: 'e.g. Christmas Day, venue closed' }),
    applies_to: field.select(
      'No bookings for',
      [
        { value: 'all', label: 'Events and parties' },
        { value: 'events', label: 'Events only' },
        { value: 'parties', label: 'Parties only' },
      ],
      { required: true, default: 'all' },
    ),
    recurring_yearly: field.boolean('Every year'),
  },
  list: {
    columns: ['date', 'reason', 'applies_to', 'recurring_yearly'],
    search: ['reason'],
    filters: ['applies_to'],
    defaultSort: { field: 'date', order: 'asc' },
  },
  permissions: catalog,
});

export const venueResources = [venuesResource, roomsResource, restrictedDatesResource];
