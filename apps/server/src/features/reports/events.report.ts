import { and, asc, type Column, eq, gte, lte, sql } from 'drizzle-orm';
import { defineReport, type FilterValues } from '../../platform/reports/report.ts';
import {
  eventPlacesQuery,
  eventPurchasesQuery,
  eventWaitlistQuery,
} from '../bookings/booking-reports.service.ts';
import { eventChoices, eventSessionsQuery, eventsQuery } from '../events/events-reports.service.ts';
import { periodFilters, periodOf } from './period.ts';

/** The chosen event, or every event. */
const chosen = (id: Column, filters: FilterValues) =>
  filters.event && filters.event !== 'all' ? eq(id, Number(filters.event)) : undefined;

/**
 * SPEC.md events reports: per event of the period (its dates meet it), the paid bookings, places,
 * revenue, insurance taken and places waiting; then each day and session of those events.
 * The event filter offers the company's own events (another company's event id answers 404).
 */
export const eventsReport = defineReport({
  name: 'events',
  title: 'Events report',
  permission: 'bookings.read',
  filters: [
    ...periodFilters,
    {
      name: 'event',
      label: 'Event',
      type: 'select',
      optionsOf: async ({ db, tenant }) => [
        { value: 'all', label: 'Every event' },
        ...(await eventChoices(db, tenant)).map((e) => ({
          value: String(e.id),
          label: `${e.name} (${e.startDate})`,
        })),
      ],
    },
  ],
  tables: {
    events: {
      label: 'By event',
      columns: [
        { name: 'event', label: 'Event', type: 'text' },
        { name: 'start', label: 'Starts', type: 'date' },
        { name: 'bookings', label: 'Bookings', type: 'number' },
        { name: 'places', label: 'Places', type: 'number' },
        { name: 'revenue', label: 'Revenue', type: 'money' },
        { name: 'insurance', label: 'Insurance taken', type: 'money' },
        { name: 'waitlist', label: 'Waiting', type: 'number' },
      ],
      chart: { x: 'event', y: 'revenue' },
      rows: async ({ db, tenant, filters }) => {
        const period = await periodOf(db, tenant, filters);
        const event = eventsQuery(db, tenant);
        const bought = eventPurchasesQuery(db, tenant);
        const purchases = db
          .select({
            eventId: bought.eventId,
            bookings: sql<number>`count(*)::int`.as('event_bookings'),
            revenue: sql<number>`sum(${bought.total})::int`.as('event_revenue'),
            insurance: sql<number>`sum(${bought.insurance})::int`.as('event_insurance_total'),
          })
          .from(bought)
          .groupBy(bought.eventId)
          .as('event_totals');
        const taken = eventPlacesQuery(db, tenant);
        const places = db
          .select({
            eventId: taken.eventId,
            places: sql<number>`sum(${taken.places})::int`.as('event_places'),
          })
          .from(taken)
          .groupBy(taken.eventId)
          .as('event_place_totals');
        const waiting = eventWaitlistQuery(db, tenant);
        const waitlist = db
          .select({
            eventId: waiting.eventId,
            waiting: sql<number>`sum(${waiting.waiting})::int`.as('event_waiting'),
          })
          .from(waiting)
          .groupBy(waiting.eventId)
          .as('event_waitlist_totals');
        return db
          .select({
            event: event.name,
            start: event.startDate,
            bookings: sql<number>`coalesce(${purchases.bookings}, 0)`,
            places: sql<number>`coalesce(${places.places}, 0)`,
            revenue: sql<number>`coalesce(${purchases.revenue}, 0)`,
            insurance: sql<number>`coalesce(${purchases.insurance}, 0)`,
            waitlist: sql<number>`coalesce(${waitlist.waiting}, 0)`,
          })
          .from(event)
          .leftJoin(purchases, eq(purchases.eventId, event.id))
          .leftJoin(places, eq(places.eventId, event.id))
          .leftJoin(waitlist, eq(waitlist.eventId, event.id))
          .where(
            and(lte(event.startDate, period.to), gte(event.endDate, period.from), chosen(event.id, filters)),
          )
          .orderBy(asc(event.startDate), asc(event.name));
      },
    },
    days: {
      label: 'By day and session',
      columns: [
        { name: 'event', label: 'Event', type: 'text' },
        { name: 'date', label: 'Date', type: 'date' },
        { name: 'session', label: 'Session', type: 'text' },
        { name: 'bookings', label: 'Bookings', type: 'number' },
        { name: 'places', label: 'Places', type: 'number' },
        { name: 'capacity', label: 'Capacity', type: 'number' },
        { name: 'revenue', label: 'Places revenue', type: 'money' },
        { name: 'waitlist', label: 'Waiting', type: 'number' },
      ],
      rows: async ({ db, tenant, filters }) => {
        const period = await periodOf(db, tenant, filters);
        const event = eventsQuery(db, tenant);
        const session = eventSessionsQuery(db, tenant);
        const taken = eventPlacesQuery(db, tenant);
        const waiting = eventWaitlistQuery(db, tenant);
        // A day can have places taken, people waiting, or both (a full day): a full join keeps each.
        const sessionId = sql<number>`coalesce(${taken.sessionId}, ${waiting.sessionId})`;
        const date = sql<string>`coalesce(${taken.date}, ${waiting.date})`;
        return db
          .select({
            event: event.name,
            date: sql<string>`${date}::text`,
            session: sql<string>`${session.name} || ' ' || to_char(${session.startTime}, 'HH24:MI')`,
            bookings: sql<number>`coalesce(${taken.bookings}, 0)`,
            places: sql<number>`coalesce(${taken.places}, 0)`,
            capacity: session.capacity,
            revenue: sql<number>`coalesce(${taken.amount}, 0)`,
            waitlist: sql<number>`coalesce(${waiting.waiting}, 0)`,
          })
          .from(taken)
          .fullJoin(waiting, and(eq(waiting.sessionId, taken.sessionId), eq(waiting.date, taken.date)))
          .innerJoin(session, eq(session.id, sessionId))
          .innerJoin(event, eq(event.id, sql`coalesce(${taken.eventId}, ${waiting.eventId})`))
          .where(
            and(lte(event.startDate, period.to), gte(event.endDate, period.from), chosen(event.id, filters)),
          )
          .orderBy(asc(event.startDate), asc(event.name), asc(date), asc(session.startTime));
      },
    },
  },
});
