import { and, asc, eq, gte, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { classEnrolments, classSessions, termClasses } from './classes.tables.ts';

/**
 * Places in classes (decision 013). A place is a `class_enrolments` row that is `active`, or
 * `pending` with a hold that has not lapsed (an open checkout, a waitlist offer, a trial's
 * conversion link, a rollover's priority window). Waitlisted children take no place.
 *
 * A session's load is its `enrolled` places that cover its date plus the single-session places
 * (trial, makeup, casual) in it. A full enrolment from a date fits when every scheduled session
 * from that date has a free place; a single-session place fits when that session has one.
 *
 * Every change that takes a place runs in a transaction that first calls `lockClasses` for the
 * classes it counts, in id order (the same order everywhere, so two checkouts never deadlock), and
 * counts with the same transaction: nothing is ever oversold.
 */

/** The SQL condition of a row that takes a place now. */
export function takesPlace() {
  return sql`(${classEnrolments.status} = 'active' or (${classEnrolments.status} = 'pending' and (${classEnrolments.holdExpiresAt} is null or ${classEnrolments.holdExpiresAt} > now())))`;
}

/** The children's places in the classes of these terms that also meet `conditions`. */
export async function placesInTerms(
  db: Db,
  tenant: Tenant,
  childIds: number[],
  termIds: number[],
  ...conditions: (SQL | undefined)[]
) {
  if (childIds.length === 0 || termIds.length === 0) return [];
  return db
    .select({
      id: classEnrolments.id,
      childId: classEnrolments.childId,
      termClassId: classEnrolments.termClassId,
      termId: termClasses.termId,
      kind: classEnrolments.kind,
    })
    .from(classEnrolments)
    .innerJoin(
      termClasses,
      and(
        eq(termClasses.id, classEnrolments.termClassId),
        eq(termClasses.companyId, classEnrolments.companyId),
      ),
    )
    .where(
      tenant.where(
        classEnrolments,
        inArray(classEnrolments.childId, childIds),
        inArray(termClasses.termId, termIds),
        ...conditions,
      ),
    );
}

/** The ids of the children's full enrolments (kind `enrolled`) in the class that take a place and meet `conditions`. */
export async function fullPlacesIn(
  db: Db,
  tenant: Tenant,
  termClassId: number,
  childIds: number[],
  ...conditions: (SQL | undefined)[]
): Promise<number[]> {
  const rows = await db
    .select({ id: classEnrolments.id })
    .from(classEnrolments)
    .where(
      tenant.where(
        classEnrolments,
        eq(classEnrolments.termClassId, termClassId),
        inArray(classEnrolments.childId, childIds),
        eq(classEnrolments.kind, 'enrolled'),
        takesPlace(),
        ...conditions,
      ),
    );
  return rows.map((r) => r.id);
}

export interface LockedClass {
  id: number;
  termId: number;
  classTypeId: number;
  capacity: number;
  status: 'active' | 'cancelled';
}

/** Locks the classes (`FOR UPDATE`, in id order) whose places a transaction is about to count and change. */
export async function lockClasses(tx: Db, tenant: Tenant, termClassIds: number[]): Promise<LockedClass[]> {
  const ids = [...new Set(termClassIds)].sort((a, b) => a - b);
  if (ids.length === 0) return [];
  return tx
    .select({
      id: termClasses.id,
      termId: termClasses.termId,
      classTypeId: termClasses.classTypeId,
      capacity: termClasses.capacity,
      status: termClasses.status,
    })
    .from(termClasses)
    .where(tenant.where(termClasses, inArray(termClasses.id, ids)))
    .orderBy(asc(termClasses.id))
    .for('update');
}

export interface SessionLoad {
  sessionId: number;
  termClassId: number;
  date: string;
  capacity: number;
  taken: number;
}

/** The load of every scheduled session of the classes on or after `fromDate`, in date order. */
export async function sessionLoads(
  db: Db,
  tenant: Tenant,
  termClassIds: number[],
  fromDate: string,
): Promise<SessionLoad[]> {
  if (termClassIds.length === 0) return [];
  const enrolled = sql<number>`(select count(*) from ${classEnrolments}
    where ${classEnrolments.companyId} = ${classSessions.companyId}
      and ${classEnrolments.termClassId} = ${classSessions.termClassId}
      and ${classEnrolments.kind} = 'enrolled'
      and (${classEnrolments.startsOn} is null or ${classEnrolments.startsOn} <= ${classSessions.date})
      and (${classEnrolments.withdrawnFrom} is null or ${classEnrolments.withdrawnFrom} > ${classSessions.date})
      and ${takesPlace()})`;
  const single = sql<number>`(select count(*) from ${classEnrolments}
    where ${classEnrolments.companyId} = ${classSessions.companyId}
      and ${classEnrolments.sessionId} = ${classSessions.id}
      and ${classEnrolments.kind} <> 'enrolled'
      and ${takesPlace()})`;
  const rows = await db
    .select({
      sessionId: classSessions.id,
      termClassId: classSessions.termClassId,
      date: classSessions.date,
      capacity: termClasses.capacity,
      taken: sql<number>`(${enrolled} + ${single})::int`,
    })
    .from(classSessions)
    .innerJoin(
      termClasses,
      and(eq(termClasses.id, classSessions.termClassId), eq(termClasses.companyId, classSessions.companyId)),
    )
    .where(
      tenant.where(
        classSessions,
        inArray(classSessions.termClassId, termClassIds),
        eq(classSessions.status, 'scheduled'),
        gte(classSessions.date, fromDate),
      ),
    )
    .orderBy(asc(classSessions.date), asc(classSessions.startTime));
  return rows;
}

/**
 * Places left for a full enrolment from `fromDate` in each class: its capacity less the busiest
 * session from then on. A class with no session left has none.
 */
export async function placesLeft(
  db: Db,
  tenant: Tenant,
  termClassIds: number[],
  fromDate: string,
): Promise<Map<number, number>> {
  const left = new Map<number, number>(termClassIds.map((id) => [id, 0]));
  const busiest = new Map<number, number>();
  for (const load of await sessionLoads(db, tenant, termClassIds, fromDate)) {
    const free = Math.max(0, load.capacity - load.taken);
    busiest.set(load.termClassId, Math.min(busiest.get(load.termClassId) ?? free, free));
  }
  for (const [id, free] of busiest) left.set(id, free);
  return left;
}

/** Places left in single sessions (a trial, a makeup, a casual visit): capacity less its load. */
export async function sessionPlacesLeft(
  db: Db,
  tenant: Tenant,
  sessions: { id: number; termClassId: number; date: string }[],
): Promise<Map<number, number>> {
  const left = new Map<number, number>(sessions.map((s) => [s.id, 0]));
  if (sessions.length === 0) return left;
  const from = sessions.map((s) => s.date).sort()[0]!;
  const wanted = new Set(sessions.map((s) => s.id));
  const loads = await sessionLoads(db, tenant, [...new Set(sessions.map((s) => s.termClassId))], from);
  for (const load of loads)
    if (wanted.has(load.sessionId)) left.set(load.sessionId, Math.max(0, load.capacity - load.taken));
  return left;
}
