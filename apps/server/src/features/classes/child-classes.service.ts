import { and, asc, count, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { attendance, classEnrolments, classSessions, termClasses, terms } from './classes.tables.ts';

/** The classes feature's reads for the staff Students screens (features/students/student-*.service.ts). */

const DAYS = ['', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/**
 * How many active term places (kind enrolled) each of these children holds in a term not yet over
 * on `today` (the company's date), by child id.
 */
export async function activeClassCounts(
  db: Db,
  tenant: Tenant,
  childIds: number[],
  today: string,
): Promise<Map<number, number>> {
  const ids = [...new Set(childIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ childId: classEnrolments.childId, n: count() })
    .from(classEnrolments)
    .innerJoin(termClasses, eq(termClasses.id, classEnrolments.termClassId))
    .innerJoin(terms, eq(terms.id, termClasses.termId))
    .where(
      tenant.where(
        classEnrolments,
        inArray(classEnrolments.childId, ids),
        eq(classEnrolments.kind, 'enrolled'),
        eq(classEnrolments.status, 'active'),
        gte(terms.endDate, today),
      ),
    )
    .groupBy(classEnrolments.childId);
  return new Map(rows.map((r) => [r.childId, r.n]));
}

export interface ChildClassPlace {
  id: number;
  termClassId: number;
  className: string;
  termName: string;
  /** 'Monday 16:00'. */
  when: string;
  kind: 'enrolled' | 'trial' | 'makeup' | 'casual';
  status: 'pending' | 'active';
  present: number;
  absent: number;
}

/**
 * A child's current places (pending or active, in a term not over on `today`) with the class's day and time, and
 * how often the roll marked them present (present or late) or absent (absent or excused) in that class.
 */
export async function childClassPlaces(
  db: Db,
  tenant: Tenant,
  childId: number,
  today: string,
): Promise<ChildClassPlace[]> {
  const places = await db
    .select({
      id: classEnrolments.id,
      termClassId: classEnrolments.termClassId,
      kind: classEnrolments.kind,
      status: classEnrolments.status,
      className: termClasses.name,
      weekday: termClasses.weekday,
      startTime: termClasses.startTime,
      termName: terms.name,
    })
    .from(classEnrolments)
    .innerJoin(termClasses, eq(termClasses.id, classEnrolments.termClassId))
    .innerJoin(terms, eq(terms.id, termClasses.termId))
    .where(
      tenant.where(
        classEnrolments,
        eq(classEnrolments.childId, childId),
        inArray(classEnrolments.status, ['pending', 'active']),
        // Current places: a term that is over is history, not a class the child goes to.
        gte(terms.endDate, today),
      ),
    )
    .orderBy(asc(termClasses.weekday), asc(termClasses.startTime), asc(classEnrolments.id));
  const classIds = [...new Set(places.map((p) => p.termClassId))];
  const marks =
    classIds.length === 0
      ? []
      : await db
          .select({
            termClassId: classSessions.termClassId,
            present: sql<number>`count(*) filter (where ${attendance.status} in ('present', 'late'))`.mapWith(
              Number,
            ),
            absent:
              sql<number>`count(*) filter (where ${attendance.status} in ('absent', 'excused'))`.mapWith(
                Number,
              ),
          })
          .from(attendance)
          .innerJoin(classSessions, eq(classSessions.id, attendance.sessionId))
          .where(
            tenant.where(
              attendance,
              and(eq(attendance.childId, childId), inArray(classSessions.termClassId, classIds)),
            ),
          )
          .groupBy(classSessions.termClassId);
  const byClass = new Map(marks.map((m) => [m.termClassId, m]));
  return places.map((p) => ({
    id: p.id,
    termClassId: p.termClassId,
    className: p.className,
    termName: p.termName,
    when: `${DAYS[p.weekday] ?? ''} ${p.startTime.slice(0, 5)}`.trim(),
    kind: p.kind,
    status: p.status as 'pending' | 'active',
    present: byClass.get(p.termClassId)?.present ?? 0,
    absent: byClass.get(p.termClassId)?.absent ?? 0,
  }));
}
