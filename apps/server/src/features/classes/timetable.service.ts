import type { TimetableItem, TimetableQuery, TimetableResponse } from '@tumble/contracts/timetable';
import { and, asc, eq, gte, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { addDays, mondayOf, todayIn, zonedInstant } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { leavesBetween, namesOfCoaches, onLeave } from '../coaches/coaches.service.ts';
import { eventDaysBetween } from '../events/event-timetable.service.ts';
import { partiesBetween } from '../parties/party-timetable.service.ts';
import { roomNames } from '../venues/room-names.service.ts';
import { classSessions, classTypes, termClasses } from './classes.tables.ts';

const hhmm = (time: string) => time.slice(0, 5);
/** The wall-clock time `minutes` after `time` (HH:MM); past midnight it wraps. */
const plusMinutes = (time: string, minutes: number) => {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const total = (h * 60 + m + minutes) % 1440;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
};
const minutesBetween = (start: string, end: string) => {
  const [sh, sm] = start.split(':').map(Number) as [number, number];
  const [eh, em] = end.split(':').map(Number) as [number, number];
  return eh * 60 + em - (sh * 60 + sm);
};

/** Blocks without a room (or coach) go to one group at the end. */
const UNASSIGNED = { room: 'No room', coach: 'No coach' } as const;

/** The class sessions of the week with what the timetable shows of their class and type. */
function classSessionsBetween(db: Db, tenant: Tenant, from: string, to: string) {
  return db
    .select({
      id: classSessions.id,
      date: classSessions.date,
      startTime: classSessions.startTime,
      durationMinutes: classSessions.durationMinutes,
      roomId: classSessions.roomId,
      coachId: classSessions.coachId,
      status: classSessions.status,
      className: termClasses.name,
      typeName: classTypes.name,
      colour: classTypes.colour,
    })
    .from(classSessions)
    .innerJoin(
      termClasses,
      and(eq(termClasses.id, classSessions.termClassId), eq(termClasses.companyId, classSessions.companyId)),
    )
    .innerJoin(
      classTypes,
      and(eq(classTypes.id, termClasses.classTypeId), eq(classTypes.companyId, termClasses.companyId)),
    )
    .where(
      tenant.where(
        classSessions,
        gte(classSessions.date, from),
        lte(classSessions.date, to),
        isNull(termClasses.archivedAt),
      ),
    )
    .orderBy(asc(classSessions.date), asc(classSessions.startTime));
}

/**
 * The Monday-to-Sunday week holding `query.week` (default: this week in the company's zone) of
 * class sessions, event days and confirmed parties, grouped by room or by coach. Times stay the
 * wall-clock times the rows hold; `starts_at` places each in the zone, so a week across a
 * daylight-saving change keeps its local times.
 */
export async function timetableWeek(
  db: Db,
  tenant: Tenant,
  query: TimetableQuery,
): Promise<TimetableResponse> {
  const { timeZone } = await companyOf(db, tenant);
  const today = todayIn(timeZone);
  const start = mondayOf(query.week ?? today);
  const end = addDays(start, 6);
  const [sessions, leaves, eventDays, parties] = await Promise.all([
    classSessionsBetween(db, tenant, start, end),
    leavesBetween(db, tenant, start, end),
    eventDaysBetween(db, tenant, start, end),
    partiesBetween(db, tenant, start, end),
  ]);
  const [rooms, coaches] = await Promise.all([
    roomNames(db, tenant, [
      ...sessions.flatMap((s) => (s.roomId ? [s.roomId] : [])),
      ...parties.flatMap((p) => (p.roomId ? [p.roomId] : [])),
    ]),
    namesOfCoaches(
      db,
      tenant,
      sessions.flatMap((s) => (s.coachId ? [s.coachId] : [])),
    ),
  ]);

  const block = (
    item: Omit<TimetableItem, 'start_time' | 'end_time' | 'starts_at'> & { time: string },
    groupId: number | null,
  ) => {
    const { time, ...rest } = item;
    const startTime = hhmm(time);
    return {
      groupId,
      item: {
        ...rest,
        start_time: startTime,
        end_time: plusMinutes(startTime, item.duration_minutes),
        starts_at: zonedInstant(item.date, startTime, timeZone).toISOString(),
      },
    };
  };
  const byRoom = query.by === 'room';
  const blocks = [
    ...sessions.map((s) =>
      block(
        {
          kind: 'class',
          id: s.id,
          title: s.className,
          detail: s.typeName,
          date: s.date,
          time: s.startTime,
          duration_minutes: s.durationMinutes,
          colour: s.colour,
          room: s.roomId ? (rooms.get(s.roomId) ?? null) : null,
          coach: s.coachId ? (coaches.get(s.coachId) ?? null) : null,
          status: s.status,
          needs_cover: s.status === 'scheduled' && onLeave(leaves, s.coachId, s.date),
          link: `/admin/roll/${s.id}`,
        },
        byRoom ? s.roomId : s.coachId,
      ),
    ),
    ...eventDays.map((d) =>
      block(
        {
          kind: 'event',
          id: d.sessionId,
          title: d.eventName,
          detail: d.sessionName,
          date: d.date,
          time: d.startTime,
          duration_minutes: minutesBetween(d.startTime, d.endTime),
          colour: null,
          room: null,
          coach: null,
          status: 'scheduled',
          needs_cover: false,
          link: `/admin/events/${d.eventId}`,
        },
        null,
      ),
    ),
    ...parties.map((p) =>
      block(
        {
          kind: 'party',
          id: p.id,
          title: 'Birthday party',
          detail: `${p.slotName} · ${p.guests} guests · ${p.code}`,
          date: p.date,
          time: p.startTime,
          duration_minutes: p.durationMinutes,
          colour: null,
          room: p.roomId ? (rooms.get(p.roomId) ?? null) : null,
          coach: null,
          status: 'scheduled',
          needs_cover: false,
          link: `/admin/party-bookings/${p.id}`,
        },
        byRoom ? p.roomId : null,
      ),
    ),
  ];

  const names = byRoom ? rooms : coaches;
  const groups = new Map<string, TimetableResponse['groups'][number]>();
  for (const { groupId, item } of blocks) {
    const key = groupId === null ? 'none' : String(groupId);
    const label = groupId === null ? UNASSIGNED[query.by] : (names.get(groupId) ?? '');
    if (!groups.has(key)) groups.set(key, { key, label, items: [] });
    groups.get(key)!.items.push(item);
  }
  const ordered = [...groups.values()].sort(
    (a, b) => Number(a.key === 'none') - Number(b.key === 'none') || a.label.localeCompare(b.label),
  );
  for (const group of ordered) {
    group.items.sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.title.localeCompare(b.title));
  }
  return {
    by: query.by,
    week: { start, end, previous: addDays(start, -7), next: addDays(start, 7) },
    today,
    days: Array.from({ length: 7 }, (_, i) => addDays(start, i)),
    groups: ordered,
  };
}
