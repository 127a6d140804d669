import { decodeEventCode } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { cached } from '../../platform/public-cache.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import {
  eventContacts,
  eventDownloads,
  eventPriceTiers,
  eventSessions,
  events,
  eventTickets,
} from './events.tables.ts';

/**
 * The event feature's reads for the features that sell its places (bookings, students, waivers):
 * plain rows, every query scoped to the tenant.
 */

export const noEventData = () => new NotFoundError(messages.noEventData);

/** A published, unarchived event of the tenant named by `e`; anything else is 'No event data available.' */
export async function eventFromCode(db: Db, tenant: Tenant, e: string) {
  const code = decodeEventCode(e);
  if (!code || code.companyId !== tenant.companyId) throw noEventData();
  return publishedEvent(db, tenant, code.eventId);
}

export async function publishedEvent(db: Db, tenant: Tenant, eventId: number): Promise<EventRow> {
  // Every parent reads it: from the public read cache (a transaction reads it itself).
  const event = await cached(db, tenant, `published-event:${eventId}`, async () => {
    const [row] = await db
      .select()
      .from(events)
      .where(
        tenant.where(events, eq(events.id, eventId), eq(events.published, true), isNull(events.archivedAt)),
      );
    return row ?? null;
  });
  if (!event) throw noEventData();
  return event;
}

export type EventRow = typeof events.$inferSelect;

/** An event of the tenant by id, published or not, archived or not; null when there is none. */
export async function eventOf(db: Db, tenant: Tenant, eventId: number): Promise<EventRow | null> {
  const [event] = await db.select().from(events).where(tenant.byId(events, eventId));
  return event ?? null;
}

/** The names of these events of the tenant, by id (lists name the event of each row). */
export async function eventNames(db: Db, tenant: Tenant, eventIds: number[]): Promise<Map<number, string>> {
  const ids = [...new Set(eventIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: events.id, name: events.name })
    .from(events)
    .where(tenant.where(events, inArray(events.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** An event's sessions in time order. */
export async function sessionsOf(db: Db, tenant: Tenant, eventId: number) {
  return db
    .select()
    .from(eventSessions)
    .where(tenant.where(eventSessions, eq(eventSessions.eventId, eventId)))
    .orderBy(asc(eventSessions.startTime), asc(eventSessions.id));
}

export type SessionRow = Awaited<ReturnType<typeof sessionsOf>>[number];

/** These sessions of the tenant, each with its event's name, by id (bookings, waitlists and mails name them). */
export async function sessionsByIds(db: Db, tenant: Tenant, sessionIds: number[]) {
  const ids = [...new Set(sessionIds)];
  if (ids.length === 0) return new Map<number, SessionRow & { eventName: string }>();
  const rows = await db
    .select({ session: eventSessions, eventName: events.name })
    .from(eventSessions)
    .innerJoin(events, eq(events.id, eventSessions.eventId))
    .where(tenant.where(eventSessions, inArray(eventSessions.id, ids)));
  return new Map(rows.map(({ session, eventName }) => [session.id, { ...session, eventName }]));
}

/** An event's tickets: per session, or event-wide (`sessionId` null). */
export function ticketsOf(db: Db, tenant: Tenant, eventId: number) {
  return db
    .select()
    .from(eventTickets)
    .where(tenant.where(eventTickets, eq(eventTickets.eventId, eventId)));
}

/** What an event's price depends on: its tickets and its price tiers. */
export async function priceTablesOf(db: Db, tenant: Tenant, eventId: number) {
  const [tickets, tiers] = await Promise.all([
    ticketsOf(db, tenant, eventId),
    db
      .select()
      .from(eventPriceTiers)
      .where(tenant.where(eventPriceTiers, eq(eventPriceTiers.eventId, eventId))),
  ]);
  return { tickets, tiers };
}

/** An event's contacts, in the order they were added. */
export function contactsOf(db: Db, tenant: Tenant, eventId: number) {
  return db
    .select()
    .from(eventContacts)
    .where(tenant.where(eventContacts, eq(eventContacts.eventId, eventId)))
    .orderBy(eventContacts.id);
}

/** An event's downloads, in the order they were added. */
export function downloadsOf(db: Db, tenant: Tenant, eventId: number) {
  return db
    .select()
    .from(eventDownloads)
    .where(tenant.where(eventDownloads, eq(eventDownloads.eventId, eventId)))
    .orderBy(eventDownloads.id);
}

/**
 * In a checkout's, a settlement's, a waitlist's or a staff change's transaction: locks the sessions
 * (of `eventId` when given) in id order, the one fixed order every lock on sessions takes; returns
 * the sessions' rows (capacity, name, days).
 */
export function lockSessions(tx: Db, tenant: Tenant, sessionIds: number[], eventId?: number) {
  const sorted = [...new Set(sessionIds)].sort((a, b) => a - b);
  if (sorted.length === 0) return Promise.resolve([]);
  return tx
    .select()
    .from(eventSessions)
    .where(
      tenant.where(
        eventSessions,
        inArray(eventSessions.id, sorted),
        eventId === undefined ? undefined : eq(eventSessions.eventId, eventId),
      ),
    )
    .orderBy(asc(eventSessions.id))
    .for('update');
}
