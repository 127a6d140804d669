import type { FieldMeta, FormDefinition, ResourceMeta } from '@tumble/contracts/resources';

const weekdays = [
  { value: '1', label: 'Monday' },
  { value: '2', label: 'Tuesday' },
  { value: '3', label: 'Wednesday' },
  { value: '4', label: 'Thursday' },
  { value: '5', label: 'Friday' },
  { value: '6', label: 'Saturday' },
  { value: '7', label: 'Sunday' },
];

const field = (
  name: string,
  type: FieldMeta['type'],
  label: string,
  extra: Partial<FieldMeta> = {},
): FieldMeta => ({
  name,
  type,
  label,
  required: false,
  readOnly: false,
  ...extra,
});

/** GET /api/v1/admin/events/meta as the server answers a company administrator. */
export function eventsMeta(overrides: Partial<ResourceMeta> = {}): ResourceMeta {
  return {
    name: 'events',
    label: 'Events',
    singular: 'Event',
    parent: null,
    children: [
      { name: 'sessions', label: 'Sessions' },
      { name: 'tickets', label: 'Tickets' },
      { name: 'price-tiers', label: 'Price tiers' },
      { name: 'contacts', label: 'Contacts' },
      { name: 'downloads', label: 'Downloads' },
    ],
    titleField: 'name',
    fields: [
      field('name', 'text', 'Name', { required: true, max: 150 }),
      field('venue_id', 'reference', 'Venue', { reference: 'venues' }),
      field('start_date', 'date', 'Start date', { required: true }),
      field('end_date', 'date', 'End date', { required: true }),
      field('intro', 'textarea', 'Introduction', { max: 600 }),
      field('booking_fee', 'money', 'Booking fee', { min: 0, max: 100_000_000, default: 0 }),
      field('published', 'boolean', 'Published', { default: false }),
    ],
    columns: ['name', 'start_date', 'end_date', 'venue_id', 'booking_fee', 'published'],
    sortable: ['name', 'start_date', 'end_date', 'venue_id', 'booking_fee', 'published'],
    defaultSort: { field: 'start_date', order: 'desc' },
    filters: ['published', 'venue_id'],
    searchable: true,
    actions: [
      { name: 'publish', label: 'Publish', selection: 'many', confirm: 'publish the selected events' },
      {
        name: 'availability',
        label: 'Availability',
        selection: 'one',
        confirm: null,
        screen: 'event-availability',
      },
      { name: 'delete', label: 'Archive', selection: 'many', confirm: 'archive' },
    ],
    canWrite: true,
    canCreate: true,
    canEdit: true,
    canDelete: true,
    deleteMode: 'archive',
    ...overrides,
  };
}

/** An event row as the list and view answer it. */
export function eventRow(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    name: `Holiday camp ${id}`,
    venue_id: 3,
    start_date: '2025-12-24',
    end_date: '2026-01-09',
    intro: 'Fun for everyone',
    booking_fee: 1250,
    published: true,
    _labels: { venue_id: 'Main gym' },
    ...overrides,
  };
}

/** GET /api/v1/admin/events/:id/sessions/meta. */
export function sessionsMeta(): ResourceMeta {
  return {
    name: 'sessions',
    label: 'Sessions',
    singular: 'Session',
    parent: 'events',
    children: [],
    titleField: 'name',
    fields: [
      field('name', 'text', 'Name', { required: true, max: 120 }),
      field('start_date', 'date', 'First day', { required: true }),
      field('days_of_week', 'multiselect', 'Runs on', { required: true, options: weekdays, default: [] }),
      field('capacity', 'number', 'Places per day', { required: true, min: 1, max: 1000 }),
    ],
    columns: ['name', 'start_date', 'days_of_week', 'capacity'],
    sortable: ['name', 'start_date', 'capacity'],
    defaultSort: { field: 'start_date', order: 'asc' },
    filters: [],
    searchable: true,
    actions: [{ name: 'delete', label: 'Delete', selection: 'many', confirm: 'delete' }],
    canWrite: true,
    canCreate: true,
    canEdit: true,
    canDelete: true,
    deleteMode: 'delete',
  };
}

/** GET /api/v1/admin/events/add: the events form with its default values. */
export function eventForm(values: Record<string, unknown> = {}): FormDefinition {
  const meta = eventsMeta();
  return {
    title: values.name ? 'Edit Event' : 'Add Event',
    fields: meta.fields.map((f) => ({
      ...f,
      value: f.name in values ? values[f.name] : (f.default ?? null),
    })),
  };
}

/** GET /api/v1/admin/events/1/sessions/add. */
export function sessionForm(values: Record<string, unknown> = {}): FormDefinition {
  return {
    title: 'Add Session',
    fields: sessionsMeta().fields.map((f) => ({
      ...f,
      value: f.name in values ? values[f.name] : (f.default ?? null),
    })),
  };
}
