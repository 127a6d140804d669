import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { eventSessions, events } from './events.tables.ts';

/** Tenant-scoped subqueries of events for the reports (features/reports) to join. */
export function eventsQuery(db: Db, tenant: Tenant) {
  return db
    .select({ id: events.id, name: events.name, startDate: events.startDate, endDate: events.endDate })
    .from(events)
    .where(tenant.where(events))
    .as('report_events');
}

export function eventSessionsQuery(db: Db, tenant: Tenant) {
  return db
    .select({
      id: eventSessions.id,
      name: eventSessions.name,
      startTime: eventSessions.startTime,
      capacity: eventSessions.capacity,
    })
    .from(eventSessions)
    .where(tenant.where(eventSessions))
    .as('report_event_sessions');
}

/** The company's events for a report's event filter, the latest first. */
export function eventChoices(db: Db, tenant: Tenant) {
  return db
    .select({ id: events.id, name: events.name, startDate: events.startDate })
    .from(events)
    .where(tenant.where(events))
    .orderBy(desc(events.startDate), desc(events.id));
}
