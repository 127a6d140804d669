import { and, asc, eq, gte, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { classEnrolments, classSessions, classTypes, termClasses, terms } from './classes.tables.ts';

/** The classes feature's reads for the calendar feeds (features/calendar-feeds). */

export interface FeedSession {
  id: number;
  date: string;
  /** HH:MM:SS, wall clock in the company's zone. */
  startTime: string;
  durationMinutes: number;
  status: 'scheduled' | 'cancelled';
  cancelReason: string | null;
  /** Set by every hand-made change (move, cancel): the feed's SEQUENCE and LAST-MODIFIED. */
  editedAt: Date | null;
  roomId: number | null;
  coachId: number | null;
  className: string;
  typeName: string;
  /** The family feed's children in this session (their first names are added by the caller). */
  childIds: number[];
}

/** The current term (running on `today`) and the next one to start: what a feed shows. */
export async function feedTermIds(db: Db, tenant: Tenant, today: string): Promise<number[]> {
  const rows = await db
    .select({ id: terms.id, startDate: terms.startDate })
    .from(terms)
    .where(tenant.where(terms, gte(terms.endDate, today), isNull(terms.archivedAt)))
    .orderBy(asc(terms.startDate), asc(terms.id));
  const current = rows.filter((t) => t.startDate <= today);
  const next = rows.find((t) => t.startDate > today);
  return [...current, ...(next ? [next] : [])].map((t) => t.id);
}

function sessionsOfTerms(db: Db, tenant: Tenant, termIds: number[], ...conditions: (SQL | undefined)[]) {
  return db
    .select({
      id: classSessions.id,
      termClassId: classSessions.termClassId,
      date: classSessions.date,
      startTime: classSessions.startTime,
      durationMinutes: classSessions.durationMinutes,
      status: classSessions.status,
      cancelReason: classSessions.cancelReason,
      editedAt: classSessions.editedAt,
      roomId: classSessions.roomId,
      coachId: classSessions.coachId,
      className: termClasses.name,
      typeName: classTypes.name,
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
        inArray(termClasses.termId, termIds),
        isNull(termClasses.archivedAt),
        ...conditions,
      ),
    )
    .orderBy(asc(classSessions.date), asc(classSessions.startTime), asc(classSessions.id));
}

/** Every session (scheduled or cancelled) of these terms; only one coach's when `coachId` is given. */
export async function feedSessions(
  db: Db,
  tenant: Tenant,
  termIds: number[],
  coachId?: number,
): Promise<FeedSession[]> {
  if (termIds.length === 0) return [];
  const rows = await sessionsOfTerms(
    db,
    tenant,
    termIds,
    coachId === undefined ? undefined : eq(classSessions.coachId, coachId),
  );
  return rows.map(({ termClassId: _, ...row }) => ({ ...row, childIds: [] }));
}

/**
 * The sessions of these terms these children come to: every session of a class they hold an
 * active term place in (from its start, until a withdrawal), and the one session of an active
 * trial, makeup or casual place.
 */
export async function feedSessionsOfChildren(
  db: Db,
  tenant: Tenant,
  termIds: number[],
  childIds: number[],
): Promise<FeedSession[]> {
  if (termIds.length === 0 || childIds.length === 0) return [];
  const places = await db
    .select({
      childId: classEnrolments.childId,
      termClassId: classEnrolments.termClassId,
      kind: classEnrolments.kind,
      sessionId: classEnrolments.sessionId,
      startsOn: classEnrolments.startsOn,
      withdrawnFrom: classEnrolments.withdrawnFrom,
    })
    .from(classEnrolments)
    .where(
      tenant.where(
        classEnrolments,
        inArray(classEnrolments.childId, childIds),
        eq(classEnrolments.status, 'active'),
      ),
    );
  if (places.length === 0) return [];
  const classIds = [...new Set(places.map((p) => p.termClassId))];
  const rows = await sessionsOfTerms(db, tenant, termIds, inArray(classSessions.termClassId, classIds));
  const sessions: FeedSession[] = [];
  for (const { termClassId, ...row } of rows) {
    const comers = places.filter((p) =>
      p.kind === 'enrolled'
        ? p.termClassId === termClassId &&
          (p.startsOn === null || p.startsOn <= row.date) &&
          (p.withdrawnFrom === null || row.date < p.withdrawnFrom)
        : p.sessionId === row.id,
    );
    if (comers.length > 0) sessions.push({ ...row, childIds: [...new Set(comers.map((p) => p.childId))] });
  }
  return sessions;
}
