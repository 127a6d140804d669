import { and, eq, gte, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { datesBetween, isoWeekday } from '../../platform/time.ts';
import { restrictedDatesFor } from '../venues/venues.service.ts';
import { isRestricted } from './availability.ts';
import { eventSessions, events } from './events.tables.ts';

export interface EventDay {
  sessionId: number;
  eventId: number;
  eventName: string;
  sessionName: string;
  date: string;
  /** HH:MM:SS, wall clock in the company's zone. */
  startTime: string;
  endTime: string;
}

/**
 * Every day a published event's session runs from `from` to `to` (the timetable's week): its
 * weekdays inside its dates, less the days closed to events.
 */
export async function eventDaysBetween(
  db: Db,
  tenant: Tenant,
  from: string,
  to: string,
): Promise<EventDay[]> {
  const [rows, closed] = await Promise.all([
    db
      .select({ session: eventSessions, eventName: events.name })
      .from(eventSessions)
      .innerJoin(events, eq(events.id, eventSessions.eventId))
      .where(
        tenant.where(
          eventSessions,
          lte(eventSessions.startDate, to),
          gte(eventSessions.endDate, from),
          and(eq(events.published, true), isNull(events.archivedAt)),
        ),
      ),
    restrictedDatesFor(db, tenant, 'events'),
  ]);
  return rows.flatMap(({ session, eventName }) =>
    datesBetween(
      session.startDate > from ? session.startDate : from,
      session.endDate < to ? session.endDate : to,
    )
      .filter((date) => session.daysOfWeek.includes(isoWeekday(date)) && !isRestricted(date, closed))
      .map((date) => ({
        sessionId: session.id,
        eventId: session.eventId,
        eventName,
        sessionName: session.name,
        date,
        startTime: session.startTime,
        endTime: session.endTime,
      })),
  );
}
