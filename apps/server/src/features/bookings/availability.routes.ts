import { adminAvailabilityResponse } from '@tumble/contracts/booking';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { cellKey, hhmm } from '../events/availability.ts';
import { eventOf } from '../events/events.service.ts';
import { eventCells } from './booking.service.ts';
import { bookingPlaces, bookings, waitlistEntries } from './bookings.tables.ts';

/** The staff availability calendar of an event (a custom screen of the events resource). */
export const availabilityRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/admin/events/:id/availability',
    {
      schema: {
        tags: ['admin: events'],
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 200: adminAvailabilityResponse },
      },
      config: { access: 'catalog.read' },
    },
    async (request) => {
      const { tenant } = requireAuth(request);
      const { db } = app.deps.database;
      const event = await eventOf(db, tenant, request.params.id);
      if (!event || event.archivedAt) throw new NotFoundError();
      const sum = sql<number>`sum(${bookingPlaces.places})::int`;
      const [{ cells, sessions }, confirmed, held, waitlist] = await Promise.all([
        eventCells(db, tenant, event),
        db
          .select({ sessionId: bookingPlaces.sessionId, date: bookingPlaces.date, n: sum })
          .from(bookingPlaces)
          .innerJoin(bookings, eq(bookings.id, bookingPlaces.bookingId))
          .where(
            and(
              tenant.where(bookingPlaces),
              eq(bookings.eventId, event.id),
              eq(bookings.status, 'confirmed'),
            ),
          )
          .groupBy(bookingPlaces.sessionId, bookingPlaces.date),
        db
          .select({ sessionId: bookingPlaces.sessionId, date: bookingPlaces.date, n: sum })
          .from(bookingPlaces)
          .innerJoin(bookings, eq(bookings.id, bookingPlaces.bookingId))
          .where(
            and(
              tenant.where(bookingPlaces),
              eq(bookings.eventId, event.id),
              eq(bookings.status, 'pending'),
              gt(bookings.holdExpiresAt, sql`now()`),
            ),
          )
          .groupBy(bookingPlaces.sessionId, bookingPlaces.date),
        db
          .select({
            sessionId: waitlistEntries.sessionId,
            date: waitlistEntries.date,
            waiting: sql<number>`coalesce(sum(${waitlistEntries.places}) filter (where ${waitlistEntries.status} = 'waiting'), 0)::int`,
            invited: sql<number>`coalesce(sum(${waitlistEntries.places}) filter (where ${waitlistEntries.status} = 'invited' and ${waitlistEntries.inviteExpiresAt} > now()), 0)::int`,
          })
          .from(waitlistEntries)
          .where(tenant.where(waitlistEntries, eq(waitlistEntries.eventId, event.id)))
          .groupBy(waitlistEntries.sessionId, waitlistEntries.date),
      ]);
      const byKey = <T extends { sessionId: number; date: string }>(rows: T[]) =>
        new Map(rows.map((r) => [cellKey(r.sessionId, r.date), r]));
      const [c, h, w] = [byKey(confirmed), byKey(held), byKey(waitlist)];
      const capacity = new Map(sessions.map((s) => [s.id, s.capacity]));
      return {
        event: { id: event.id, name: event.name, start_date: event.startDate, end_date: event.endDate },
        sessions: sessions.map((s) => ({
          id: s.id,
          name: s.name,
          start_time: hhmm(s.startTime),
          end_time: hhmm(s.endTime),
          capacity: s.capacity,
        })),
        cells: cells.map((cell) => {
          const key = cellKey(cell.sessionId, cell.date);
          return {
            session_id: cell.sessionId,
            date: cell.date,
            status: cell.status,
            capacity: capacity.get(cell.sessionId) ?? 0,
            booked: c.get(key)?.n ?? 0,
            held: h.get(key)?.n ?? 0,
            invited: w.get(key)?.invited ?? 0,
            waiting: w.get(key)?.waiting ?? 0,
          };
        }),
      };
    },
  );
};
