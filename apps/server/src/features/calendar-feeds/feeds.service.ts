import { createHash } from 'node:crypto';
import type { CreatedFeedResponse, FeedState, StaffFeedsResponse } from '@tumble/contracts/calendar-feeds';
import { and, count, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { type CalendarEvent, calendarFile, googleSubscribeLink } from '../../platform/mail/ics.ts';
import { enabledModules } from '../../platform/modules.ts';
import { randomToken, sha256 } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { parentBookings, placesOfBookings } from '../bookings/family-bookings.service.ts';
import {
  type FeedSession,
  feedSessions,
  feedSessionsOfChildren,
  feedTermIds,
} from '../classes/feed-reads.service.ts';
import { namesOfCoaches } from '../coaches/coaches.service.ts';
import { coachesForFeeds, coachForFeed } from '../coaches/feed-reads.service.ts';
import { eventDaysBetween } from '../events/event-timetable.service.ts';
import { sessionsByIds } from '../events/events.service.ts';
import { parentPartyBookings } from '../parties/family-parties.service.ts';
import { partiesBetween } from '../parties/party-timetable.service.ts';
import { childrenForFeed } from '../students/feed-reads.service.ts';
import { roomNames } from '../venues/room-names.service.ts';
import { calendarFeeds } from './calendar-feeds.tables.ts';
import { timeAfter } from './calendar-links.ts';

/**
 * Calendar feeds (issue 16, SPEC integrations/google): secret `/feeds/<token>.ics` URLs that Google
 * Calendar (or any calendar) subscribes to and re-fetches every few hours.
 *
 * - The company feed: every class session of the current and next terms, event days and parties.
 * - A coach's feed: the sessions they coach. A family's feed: their children's sessions, the event
 *   days they booked and their parties, nothing of anyone else's.
 * - Each event's UID is stable (`class-session-<id>@<host>`…), so a moved session updates in place;
 *   its SEQUENCE grows with each hand-made change and cancelled sessions stay as STATUS:CANCELLED.
 * - SEQUENCE is the seconds from 2020 to the session's `editedAt` (set by every move and cancel):
 *   it only grows, without a counter column in the classes feature. Two changes in one second share
 *   a number; calendars that poll a feed replace their copy on each fetch anyway.
 * - The URL is answered once, when made: only its SHA-256 is stored, so nobody (staff included) can
 *   read it back later. Lost or leaked: make a new one, which revokes the old.
 * - Events and parties keep SEQUENCE 0: a party that is cancelled or moved to another slot leaves the
 *   feed or shows at its new time on the calendar's next fetch.
 */

type FeedRow = typeof calendarFeeds.$inferSelect;
export type FeedOwner =
  | { kind: 'company' }
  | { kind: 'coach'; coachId: number }
  | { kind: 'family'; parentId: number };

/**
 * For the Integrations page: Google calendar feeds are on once a company has a live feed.
 * Feeds are pulled by the calendars, nothing is pushed, so there is no outside call that can fail:
 * `lastError` stays null (kept in the shape so every integration answers alike).
 */
export async function calendarFeedsStatus(
  db: Db,
  tenant: Tenant,
): Promise<{ enabled: boolean; feedCount: number; lastError: string | null }> {
  const [row] = await db
    .select({ feeds: count() })
    .from(calendarFeeds)
    .where(tenant.where(calendarFeeds, isNull(calendarFeeds.revokedAt)));
  const feedCount = row?.feeds ?? 0;
  return { enabled: feedCount > 0, feedCount, lastError: null };
}

const stateOf = (row: FeedRow): FeedState => ({
  id: row.id,
  created_at: row.createdAt.toISOString(),
  last_fetched_at: row.lastFetchedAt?.toISOString() ?? null,
});

function ownerCondition(owner: FeedOwner) {
  return and(
    eq(calendarFeeds.kind, owner.kind),
    owner.kind === 'coach' ? eq(calendarFeeds.coachId, owner.coachId) : isNull(calendarFeeds.coachId),
    owner.kind === 'family' ? eq(calendarFeeds.parentId, owner.parentId) : isNull(calendarFeeds.parentId),
  );
}

function liveFeeds(db: Db, tenant: Tenant) {
  return db
    .select()
    .from(calendarFeeds)
    .where(tenant.where(calendarFeeds, isNull(calendarFeeds.revokedAt)));
}

/** The staff page: the company feed and each coach's (live ones only; never a URL). */
export async function staffFeeds(db: Db, tenant: Tenant): Promise<StaffFeedsResponse> {
  const [feeds, coaches] = await Promise.all([liveFeeds(db, tenant), coachesForFeeds(db, tenant)]);
  const company = feeds.find((f) => f.kind === 'company');
  return {
    company: company ? stateOf(company) : null,
    coaches: coaches.map((coach) => {
      const feed = feeds.find((f) => f.kind === 'coach' && f.coachId === coach.id);
      return { coach_id: coach.id, name: coach.name, feed: feed ? stateOf(feed) : null };
    }),
  };
}

/** The family's own live feed, if made. */
export async function familyFeed(db: Db, tenant: Tenant, parentId: number): Promise<FeedState | null> {
  const [row] = await db
    .select()
    .from(calendarFeeds)
    .where(
      tenant.where(
        calendarFeeds,
        isNull(calendarFeeds.revokedAt),
        ownerCondition({ kind: 'family', parentId }),
      ),
    );
  return row ? stateOf(row) : null;
}

/** A feed's URL: https for the browser and fetches, webcal:// for calendar apps. */
export function feedUrl(config: Pick<Config, 'publicUrl'>, token: string): string {
  return `${config.publicUrl}/feeds/${token}.ics`;
}

/**
 * Makes the owner's feed, revoking the one it had (regenerate): the old URL answers 404 from now
 * on. The URL is answered this once; only its SHA-256 is kept. A coach of another company is 404.
 */
export async function createFeed(
  db: Db,
  tenant: Tenant,
  config: Pick<Config, 'publicUrl'>,
  owner: FeedOwner,
): Promise<CreatedFeedResponse> {
  if (owner.kind === 'coach' && !(await coachForFeed(db, tenant, owner.coachId))) throw new NotFoundError();
  const token = randomToken();
  const row = await db.transaction(async (tx) => {
    await tx
      .update(calendarFeeds)
      .set({ revokedAt: sql`now()` })
      .where(tenant.where(calendarFeeds, isNull(calendarFeeds.revokedAt), ownerCondition(owner)));
    const [made] = await tx
      .insert(calendarFeeds)
      .values(
        tenant.values({
          kind: owner.kind,
          coachId: owner.kind === 'coach' ? owner.coachId : null,
          parentId: owner.kind === 'family' ? owner.parentId : null,
          tokenHash: sha256(token),
        }),
      )
      .returning();
    return made!;
  });
  const url = feedUrl(config, token);
  return {
    feed: stateOf(row),
    url,
    webcal_url: url.replace(/^https?:\/\//, 'webcal://'),
    google_url: googleSubscribeLink(url),
  };
}

/** Stops a live feed of the company (staff). Another company's or a revoked feed is 404. */
export async function revokeFeed(db: Db, tenant: Tenant, id: number): Promise<void> {
  const revoked = await db
    .update(calendarFeeds)
    .set({ revokedAt: sql`now()` })
    .where(
      tenant.byId(calendarFeeds, id, isNull(calendarFeeds.revokedAt), sql`${calendarFeeds.kind} <> 'family'`),
    )
    .returning({ id: calendarFeeds.id });
  if (revoked.length === 0) throw new NotFoundError();
}

/** Seconds from 2020 to a session's last hand-made change: grows with every move or cancel. */
const SEQUENCE_EPOCH = Date.UTC(2020, 0, 1);
const sequenceOf = (editedAt: Date | null) =>
  editedAt ? Math.max(0, Math.floor((editedAt.getTime() - SEQUENCE_EPOCH) / 1000)) : 0;

const hhmm = (time: string) => time.slice(0, 5);

/** How far event days and parties reach: a month back (recent history) to a year ahead. */
const WINDOW_BACK = 31;
const WINDOW_AHEAD = 366;

interface FeedContent {
  name: string;
  events: CalendarEvent[];
}

async function sessionEvents(
  db: Db,
  tenant: Tenant,
  host: string,
  sessions: FeedSession[],
  who?: Map<number, string>,
): Promise<CalendarEvent[]> {
  const [rooms, coaches] = await Promise.all([
    roomNames(
      db,
      tenant,
      sessions.flatMap((s) => (s.roomId ? [s.roomId] : [])),
    ),
    namesOfCoaches(
      db,
      tenant,
      sessions.flatMap((s) => (s.coachId ? [s.coachId] : [])),
    ),
  ]);
  return sessions.map((s) => {
    const children = who ? s.childIds.map((id) => who.get(id) ?? '').filter(Boolean) : [];
    const coach = s.coachId ? coaches.get(s.coachId) : undefined;
    return {
      uid: `class-session-${s.id}@${host}`,
      date: s.date,
      startTime: hhmm(s.startTime),
      endTime: timeAfter(s.startTime, s.durationMinutes),
      summary: `${s.className}${children.length > 0 ? `: ${children.join(', ')}` : ''}`,
      location: s.roomId ? (rooms.get(s.roomId) ?? null) : null,
      description: [
        s.typeName,
        coach ? `Coach: ${coach}` : '',
        s.status === 'cancelled' ? `Cancelled${s.cancelReason ? `: ${s.cancelReason}` : ''}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
      sequence: sequenceOf(s.editedAt),
      lastModified: s.editedAt,
      status: s.status === 'cancelled' ? 'cancelled' : 'confirmed',
    };
  });
}

type PartyRow = {
  id: number;
  date: string;
  startTime: string;
  durationMinutes: number;
  detail: string;
  roomId: number | null;
};

async function partyEvents(
  db: Db,
  tenant: Tenant,
  host: string,
  parties: PartyRow[],
): Promise<CalendarEvent[]> {
  const rooms = await roomNames(
    db,
    tenant,
    parties.flatMap((p) => (p.roomId ? [p.roomId] : [])),
  );
  return parties.map((p) => ({
    uid: `party-${p.id}@${host}`,
    date: p.date,
    startTime: hhmm(p.startTime),
    endTime: timeAfter(p.startTime, p.durationMinutes),
    summary: 'Birthday party',
    location: p.roomId ? (rooms.get(p.roomId) ?? null) : null,
    description: p.detail,
    sequence: 0,
    status: 'confirmed' as const,
  }));
}

const eventDayUid = (sessionId: number, date: string, host: string) => `event-${sessionId}-${date}@${host}`;

/** What a feed holds, in time order, read through each feature's service. */
async function feedContent(
  db: Db,
  tenant: Tenant,
  feed: FeedRow,
  company: { name: string; timeZone: string },
  host: string,
  now: Date,
): Promise<FeedContent> {
  const today = todayIn(company.timeZone, now);
  const from = addDays(today, -WINDOW_BACK);
  const to = addDays(today, WINDOW_AHEAD);
  const termIds = await feedTermIds(db, tenant, today);

  if (feed.kind === 'coach' && feed.coachId !== null) {
    const [sessions, names] = await Promise.all([
      feedSessions(db, tenant, termIds, feed.coachId),
      namesOfCoaches(db, tenant, [feed.coachId]),
    ]);
    return {
      name: `${company.name}: ${names.get(feed.coachId) ?? 'Coach'}`,
      events: await sessionEvents(db, tenant, host, sessions),
    };
  }

  if (feed.kind === 'family' && feed.parentId !== null) {
    const parentId = feed.parentId;
    const kids = await childrenForFeed(db, tenant, parentId);
    const [sessions, bookings, parties] = await Promise.all([
      feedSessionsOfChildren(
        db,
        tenant,
        termIds,
        kids.map((k) => k.id),
      ),
      parentBookings(db, tenant, parentId, ['confirmed']),
      parentPartyBookings(db, tenant, parentId, ['confirmed']),
    ]);
    const places = await placesOfBookings(
      db,
      tenant,
      bookings.map((b) => b.id),
    );
    const eventSessions = await sessionsByIds(
      db,
      tenant,
      places.map((p) => p.sessionId),
    );
    const days = new Map<string, CalendarEvent>();
    for (const place of places) {
      const session = eventSessions.get(place.sessionId);
      if (!session || place.date < from) continue;
      const uid = eventDayUid(session.id, place.date, host);
      days.set(uid, {
        uid,
        date: place.date,
        startTime: hhmm(session.startTime),
        endTime: hhmm(session.endTime),
        summary: session.eventName,
        description: session.name,
        sequence: 0,
        status: 'confirmed',
      });
    }
    return {
      name: `${company.name}: our classes, events and parties`,
      events: [
        ...(await sessionEvents(db, tenant, host, sessions, new Map(kids.map((k) => [k.id, k.firstName])))),
        ...days.values(),
        ...(await partyEvents(
          db,
          tenant,
          host,
          parties
            .filter(({ party }) => party.date >= from)
            .map(({ party, slot }) => ({
              id: party.id,
              date: party.date,
              startTime: slot.startTime,
              durationMinutes: slot.durationMinutes,
              detail: `${slot.name} · ${party.guests} guests · ${party.code}`,
              roomId: slot.roomId,
            })),
        )),
      ],
    };
  }

  const [sessions, eventDays, parties] = await Promise.all([
    feedSessions(db, tenant, termIds),
    eventDaysBetween(db, tenant, from, to),
    partiesBetween(db, tenant, from, to),
  ]);
  return {
    name: `${company.name} timetable`,
    events: [
      ...(await sessionEvents(db, tenant, host, sessions)),
      ...eventDays.map((d) => ({
        uid: eventDayUid(d.sessionId, d.date, host),
        date: d.date,
        startTime: hhmm(d.startTime),
        endTime: hhmm(d.endTime),
        summary: d.eventName,
        description: d.sessionName,
        sequence: 0,
        status: 'confirmed' as const,
      })),
      ...(await partyEvents(
        db,
        tenant,
        host,
        parties.map((p) => ({ ...p, detail: `${p.slotName} · ${p.guests} guests · ${p.code}` })),
      )),
    ],
  };
}

/** A served feed: the calendar file and its ETag (the same content gives the same tag). */
export interface FeedFile {
  ics: string;
  etag: string;
}

/**
 * The feed a token names, rendered; null (404) for an unknown or revoked token, or a company that
 * is not active. Marks the feed fetched (at most every few minutes: a calendar polls often).
 */
export async function feedByToken(
  db: Db,
  config: Pick<Config, 'publicUrl'>,
  token: string,
  now: Date = new Date(),
): Promise<FeedFile | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [feed] = await db
    .select()
    .from(calendarFeeds)
    // cross-tenant: the secret URL alone names its company, as an authhash does.
    .where(and(eq(calendarFeeds.tokenHash, sha256(token)), isNull(calendarFeeds.revokedAt)));
  if (!feed) return null;
  const tenant = new Tenant(feed.companyId);
  const company = await companyOf(db, tenant);
  // A company switched off, or without the Integrations module, publishes nothing.
  if (company.status !== 'active' || !(await enabledModules(db, tenant)).has('integrations')) return null;
  const host = new URL(config.publicUrl).host;
  const content = await feedContent(db, tenant, feed, company, host, now);
  content.events.sort((a, b) => a.date.localeCompare(b.date) || a.startTime.localeCompare(b.startTime));
  await db
    .update(calendarFeeds)
    .set({ lastFetchedAt: now })
    .where(
      tenant.byId(
        calendarFeeds,
        feed.id,
        or(
          isNull(calendarFeeds.lastFetchedAt),
          lt(calendarFeeds.lastFetchedAt, new Date(now.getTime() - 5 * 60_000)),
        ),
      ),
    );
  // The tag covers what the feed says, not DTSTAMP (which is the moment of each fetch).
  const etag = `"${createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 27)}"`;
  const ics = calendarFile({
    company: company.name,
    product: 'Calendar feed',
    timeZone: company.timeZone,
    name: content.name,
    events: content.events,
    now,
  });
  return { ics, etag };
}
