import { eq } from 'drizzle-orm';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { compact, dateOrderError, weekdayOptions } from '../../platform/resources/options.ts';
import {
  eventContacts,
  eventDownloads,
  eventPriceTiers,
  eventSessions,
  events,
  eventTickets,
} from './events.tables.ts';

const catalog = { read: 'catalog.read', write: 'catalog.write' } as const;
const nested = { resource: 'events', column: 'eventId' };

export const eventsResource = defineResource({
  name: 'events',
  label: 'Events',
  nav: { group: 'Events', icon: 'calendar' },
  singular: 'Event',
  table: events,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 150 }),
    venue_id: field.reference('Venue', 'venues'),
    start_date: field.date('Start date', { required: true }),
    end_date: field.date('End date', { required: true }),
    age_start: field.number('Age from', {
      required: true,
      min: 0,
      max: 100,
      default: 0,
      help: '0 means no lower limit',
    }),
    age_end: field.number('Age to', {
      required: true,
      min: 0,
      max: 100,
      default: 100,
      help: '100 means no upper limit',
    }),
    // Shown as HTML on the public booking page (SPEC.md), so sanitized on save like every rich text.
    intro: field.richtext('Introduction', { max: 2000 }),
    full: field.richtext('Description'),
    cut_off_day: field.boolean('Close bookings days before', {
      help: 'Off: a day closes when its session starts. On: it closes the chosen number of days before, at the cutoff time.',
    }),
    cutoff_days_before: field.number('Days before', { required: true, min: 0, max: 60, default: 0 }),
    cutoff_time: field.time('Cutoff time'),
    booking_fee: field.money('Booking fee', { default: 0, help: 'Charged once per booking' }),
    payment_terms_id: field.reference('Payment terms', 'payment-terms', {
      help: 'Empty: the default event payment terms',
    }),
    published: field.boolean('Published', { help: 'Shown on the public booking page' }),
  },
  list: {
    columns: ['name', 'start_date', 'end_date', 'venue_id', 'published'],
    search: ['name'],
    filters: ['published', 'venue_id'],
    defaultSort: { field: 'start_date', order: 'desc' },
  },
  actions: {
    publish: {
      label: 'Publish',
      selection: 'many',
      confirm: 'publish the selected events',
      run: async ({ tx, tenant }, rows) => {
        for (const row of rows)
          await tx
            .update(events)
            .set({ published: true })
            .where(tenant.where(events, eq(events.id, row.id)));
        return `${rows.length} ${rows.length === 1 ? 'event' : 'events'} published.`;
      },
    },
    unpublish: {
      label: 'Unpublish',
      selection: 'many',
      confirm: 'unpublish the selected events',
      run: async ({ tx, tenant }, rows) => {
        for (const row of rows)
          await tx
            .update(events)
            .set({ published: false })
            .where(tenant.where(events, eq(events.id, row.id)));
        return `${rows.length} ${rows.length === 1 ? 'event' : 'events'} unpublished.`;
      },
    },
    availability: { label: 'Availability', selection: 'one', screen: 'event-availability' },
  },
  permissions: catalog,
  deleteMode: 'archive',
  check: (v) =>
    compact({
      end_date: dateOrderError(v.start_date, v.end_date, 'End date must be on or after the start date.'),
      age_end:
        (v.age_end as number) < (v.age_start as number) ? 'Age to must be at least Age from.' : undefined,
      cutoff_time:
        v.cut_off_day && !v.cutoff_time
          ? 'Cutoff time is required when bookings close days before.'
          : undefined,
    }),
});

export const eventSessionsResource = defineResource({
  name: 'sessions',
  label: 'Sessions',
  singular: 'Session',
  table: eventSessions,
  parent: nested,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120, help: 'e.g. Morning camp' }),
    start_date: field.date('First day', { required: true }),
    end_date: field.date('Last day', { required: true }),
    start_time: field.time('Starts at', { required: true }),
    end_time: field.time('Ends at', { required: true }),
    days_of_week: field.multiselect('Runs on', weekdayOptions, {
      required: true,
      default: ['1', '2', '3', '4', '5'],
    }),
    capacity: field.number('Places per day', { required: true, min: 1, max: 1000 }),
  },
  list: {
    columns: ['name', 'start_date', 'end_date', 'start_time', 'end_time', 'capacity'],
    search: ['name'],
    defaultSort: { field: 'start_date', order: 'asc' },
  },
  permissions: catalog,
  check: async (v, { tx, tenant, parentId }) => {
    const [event] = await tx
      .select()
      .from(events)
      .where(tenant.where(events, eq(events.id, parentId ?? -1)));
    const outside = (d: unknown) =>
      event && typeof d === 'string' && (d < event.startDate || d > event.endDate);
    return compact({
      end_date:
        dateOrderError(v.start_date, v.end_date, 'Last day must be on or after the first day.') ??
        (outside(v.end_date) ? 'Last day must be within the event’s dates.' : undefined),
      start_date: outside(v.start_date) ? 'First day must be within the event’s dates.' : undefined,
      end_time:
        typeof v.start_time === 'string' && typeof v.end_time === 'string' && v.end_time <= v.start_time
          ? 'The session must end after it starts.'
          : undefined,
    });
  },
});

/** Sessions of the same event only: a ticket or tier cannot point at another event's session. */
async function sessionOfEvent(
  sessionId: unknown,
  ctx: {
    tx: import('../../db/client.ts').Db;
    tenant: import('../../platform/tenancy.ts').Tenant;
    parentId: number | null;
  },
) {
  if (sessionId === null || sessionId === undefined) return undefined;
  const [session] = await ctx.tx
    .select({ eventId: eventSessions.eventId })
    .from(eventSessions)
    .where(ctx.tenant.where(eventSessions, eq(eventSessions.id, sessionId as number)));
  return session?.eventId === ctx.parentId ? undefined : 'Please choose a session of this event.';
}

export const eventTicketsResource = defineResource({
  name: 'tickets',
  label: 'Tickets',
  singular: 'Ticket',
  table: eventTickets,
  parent: nested,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120, help: 'e.g. Standard day' }),
    session_id: field.reference('Session', 'sessions', { help: 'Empty: every session of the event' }),
    price: field.money('Price per day', { required: true }),
  },
  list: { columns: ['name', 'session_id', 'price'], search: ['name'] },
  permissions: catalog,
  check: async (v, ctx) => compact({ session_id: await sessionOfEvent(v.session_id, ctx) }),
});

export const eventPriceTiersResource = defineResource({
  name: 'price-tiers',
  label: 'Price tiers',
  singular: 'Price tier',
  table: eventPriceTiers,
  parent: nested,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120, help: 'e.g. 5 days or more' }),
    session_id: field.reference('Session', 'sessions', { help: 'Empty: every session of the event' }),
    min_days: field.number('From days booked', { required: true, min: 1, max: 365 }),
    price: field.money('Price per day', { required: true }),
  },
  list: {
    columns: ['name', 'session_id', 'min_days', 'price'],
    search: ['name'],
    defaultSort: { field: 'min_days', order: 'asc' },
  },
  permissions: catalog,
  check: async (v, ctx) => compact({ session_id: await sessionOfEvent(v.session_id, ctx) }),
});

export const eventContactsResource = defineResource({
  name: 'contacts',
  label: 'Contacts',
  singular: 'Contact',
  table: eventContacts,
  parent: nested,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120 }),
    email: field.email('Email'),
    phone: field.phone('Phone'),
  },
  list: { columns: ['name', 'email', 'phone'], search: ['name', 'email'] },
  permissions: catalog,
});

export const eventDownloadsResource = defineResource({
  name: 'downloads',
  label: 'Downloads',
  singular: 'Download',
  table: eventDownloads,
  parent: nested,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120, help: 'e.g. What to bring' }),
    file: field.file('File', { required: true, help: 'PDF or image, up to 10 MB' }),
  },
  list: { columns: ['name', 'file'], search: ['name'] },
  permissions: catalog,
});

export const eventResources = [
  eventsResource,
  eventSessionsResource,
  eventTicketsResource,
  eventPriceTiersResource,
  eventContactsResource,
  eventDownloadsResource,
];
