import { and, asc, between, eq, gte, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineReport, type FilterValues } from '../../platform/reports/report.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { insuranceProductsQuery } from '../billing/billing-reports.service.ts';
import { eventCoverQuery } from '../bookings/booking-reports.service.ts';
import { classStartsQuery } from '../classes/class-money-reads.service.ts';
import { eventsQuery } from '../events/events-reports.service.ts';
import { childNamesQuery } from '../students/children-reports.service.ts';
import { periodFilters, periodOf } from './period.ts';

/** Days a new participant has to be registered with the insurer after starting (SPEC reports/insurance). */
export const REGISTER_WITHIN_DAYS = 30;

/** Each booked child whose booked days meet the period, with the event and the cover chosen. */
async function coverInPeriod(db: Db, tenant: Tenant, filters: FilterValues) {
  const period = await periodOf(db, tenant, filters);
  const cover = eventCoverQuery(db, tenant);
  const child = childNamesQuery(db, tenant);
  const event = eventsQuery(db, tenant);
  const product = insuranceProductsQuery(db, tenant);
  return db
    .select({
      child: child.name,
      event: event.name,
      type: cover.insuranceType,
      cover: sql<string>`case ${cover.insuranceType} when 'daily_insurance' then 'Daily insurance'
        when 'full_insurance' then 'Full insurance' else 'No cover' end`.as('cover_label'),
      products: sql<string>`coalesce(string_agg(distinct ${product.name}, ', '), '')`.as('cover_products'),
      from: cover.firstDate,
      to: cover.lastDate,
      days: cover.days,
      childId: cover.childId,
      bookingId: cover.bookingId,
    })
    .from(cover)
    .innerJoin(child, eq(child.id, cover.childId))
    .innerJoin(event, eq(event.id, cover.eventId))
    .leftJoin(product, sql`${product.id} = any(${cover.insuranceIds})`)
    .where(and(lte(cover.firstDate, period.to), gte(cover.lastDate, period.from)))
    .groupBy(
      cover.bookingId,
      cover.childId,
      cover.insuranceType,
      cover.firstDate,
      cover.lastDate,
      cover.days,
      child.name,
      event.name,
    )
    .as('cover_in_period');
}

const coverColumns = [
  { name: 'child', label: 'Child', type: 'text' },
  { name: 'event', label: 'Event', type: 'text' },
  { name: 'from', label: 'From', type: 'date' },
  { name: 'to', label: 'To', type: 'date' },
  { name: 'days', label: 'Days', type: 'number' },
] as const;

/**
 * SPEC.md reports/insurance: who is covered, by which product, for which dates (event bookings'
 * insurance choice for the days booked); participants without cover; and new participants (first
 * event day or class start in the period) to register with the insurer within 30 days of starting.
 */
export const insuranceReport = defineReport({
  name: 'insurance',
  title: 'Insurance report',
  permission: 'bookings.read',
  filters: periodFilters,
  tables: {
    summary: {
      label: 'By cover',
      columns: [
        { name: 'cover', label: 'Cover', type: 'text' },
        { name: 'children', label: 'Children', type: 'number' },
        { name: 'bookings', label: 'Bookings', type: 'number' },
        { name: 'days', label: 'Days booked', type: 'number' },
      ],
      chart: { x: 'cover', y: 'children' },
      rows: async ({ db, tenant, filters }) => {
        const c = await coverInPeriod(db, tenant, filters);
        return db
          .select({
            cover: c.cover,
            children: sql<number>`count(distinct ${c.childId})::int`,
            bookings: sql<number>`count(distinct ${c.bookingId})::int`,
            days: sql<number>`sum(${c.days})::int`,
          })
          .from(c)
          .groupBy(c.cover)
          .orderBy(asc(c.cover));
      },
    },
    covered: {
      label: 'Covered',
      columns: [
        coverColumns[0],
        coverColumns[1],
        { name: 'cover', label: 'Cover', type: 'text' },
        { name: 'products', label: 'Products', type: 'text' },
        ...coverColumns.slice(2),
      ],
      rows: async ({ db, tenant, filters }) => {
        const c = await coverInPeriod(db, tenant, filters);
        return db
          .select({
            child: c.child,
            event: c.event,
            cover: c.cover,
            products: c.products,
            from: c.from,
            to: c.to,
            days: c.days,
          })
          .from(c)
          .where(ne(c.type, 'none'))
          .orderBy(asc(c.from), asc(c.child), asc(c.event));
      },
    },
    uncovered: {
      label: 'Without cover',
      columns: [...coverColumns],
      rows: async ({ db, tenant, filters }) => {
        const c = await coverInPeriod(db, tenant, filters);
        return db
          .select({ child: c.child, event: c.event, from: c.from, to: c.to, days: c.days })
          .from(c)
          .where(eq(c.type, 'none'))
          .orderBy(asc(c.from), asc(c.child), asc(c.event));
      },
    },
    newParticipants: {
      label: `New participants to register with the insurer (within ${REGISTER_WITHIN_DAYS} days)`,
      columns: [
        { name: 'child', label: 'Child', type: 'text' },
        { name: 'started', label: 'Started', type: 'date' },
        { name: 'started_with', label: 'Started with', type: 'text' },
        { name: 'register_by', label: 'Register by', type: 'date' },
        { name: 'cover', label: 'Event cover taken', type: 'text' },
      ],
      rows: async ({ db, tenant, filters }) => {
        const period = await periodOf(db, tenant, filters);
        const cover = eventCoverQuery(db, tenant);
        const events = db
          .select({
            childId: cover.childId,
            first: sql<string>`min(${cover.firstDate})`.as('event_first'),
            covered: sql<boolean>`bool_or(${cover.insuranceType} <> 'none')`.as('event_covered'),
          })
          .from(cover)
          .groupBy(cover.childId)
          .as('event_starts');
        const classes = classStartsQuery(db, tenant);
        const child = childNamesQuery(db, tenant);
        const started = sql<string>`least(${events.first}, ${classes.firstStart})`;
        return db
          .select({
            child: child.name,
            started: sql<string>`${started}::text`,
            started_with: sql<string>`case when ${events.first} = ${started} then 'Event' else 'Class' end`,
            register_by: sql<string>`(${started} + ${REGISTER_WITHIN_DAYS}::int)::text`,
            cover: sql<string>`case when ${events.covered} then 'Yes' else 'No' end`,
          })
          .from(child)
          .leftJoin(events, eq(events.childId, child.id))
          .leftJoin(classes, eq(classes.childId, child.id))
          .where(between(started, period.from, period.to))
          .orderBy(started, asc(child.name));
      },
    },
  },
});
