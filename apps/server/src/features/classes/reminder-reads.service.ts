import { and, asc, eq, gt, inArray, isNull, lte, ne, notInArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { attendance, classEnrolments, classSessions, termClasses, terms } from './classes.tables.ts';
import { rolloverItems, rollovers } from './rollover.tables.ts';

/** What reminder emails (features/communications/reminders) read of classes. */

export interface SessionFamilies {
  sessionId: number;
  className: string;
  date: string;
  startTime: string;
  durationMinutes: number;
  /** The children expected (enrolled, or booked into this session), less those marked absent. */
  childIds: number[];
}

/** Marks that say a child will not come (a parent's absence-day marks 'absent'). */
const notComing = ['absent', 'excused'] as const;

/** Scheduled sessions of active classes on these dates, with the children expected in each. */
export async function sessionsWithChildrenOn(
  db: Db,
  tenant: Tenant,
  dates: string[],
): Promise<SessionFamilies[]> {
  if (dates.length === 0) return [];
  const sessions = await db
    .select({
      sessionId: classSessions.id,
      termClassId: classSessions.termClassId,
      className: termClasses.name,
      date: classSessions.date,
      startTime: classSessions.startTime,
      durationMinutes: classSessions.durationMinutes,
    })
    .from(classSessions)
    .innerJoin(termClasses, eq(termClasses.id, classSessions.termClassId))
    .where(
      tenant.where(
        classSessions,
        inArray(classSessions.date, dates),
        eq(classSessions.status, 'scheduled'),
        eq(termClasses.status, 'active'),
      ),
    )
    .orderBy(asc(classSessions.date), asc(classSessions.startTime), asc(classSessions.id));
  if (sessions.length === 0) return [];
  const sessionIds = sessions.map((s) => s.sessionId);
  const [places, marks] = await Promise.all([
    db
      .select({
        childId: classEnrolments.childId,
        kind: classEnrolments.kind,
        termClassId: classEnrolments.termClassId,
        sessionId: classEnrolments.sessionId,
        startsOn: classEnrolments.startsOn,
        withdrawnFrom: classEnrolments.withdrawnFrom,
      })
      .from(classEnrolments)
      .where(
        tenant.where(
          classEnrolments,
          eq(classEnrolments.status, 'active'),
          or(
            and(
              eq(classEnrolments.kind, 'enrolled'),
              inArray(classEnrolments.termClassId, [...new Set(sessions.map((s) => s.termClassId))]),
            ),
            and(ne(classEnrolments.kind, 'enrolled'), inArray(classEnrolments.sessionId, sessionIds)),
          ),
        ),
      )
      .orderBy(asc(classEnrolments.id)),
    db
      .select({ sessionId: attendance.sessionId, childId: attendance.childId })
      .from(attendance)
      .where(
        tenant.where(
          attendance,
          inArray(attendance.sessionId, sessionIds),
          inArray(attendance.status, [...notComing]),
        ),
      ),
  ]);
  const absent = new Set(marks.map((m) => `${m.sessionId}:${m.childId}`));
  return sessions.map(({ termClassId, ...session }) => {
    const childIds = new Set<number>();
    for (const place of places) {
      const expected =
        place.kind === 'enrolled'
          ? place.termClassId === termClassId &&
            (place.startsOn === null || place.startsOn <= session.date) &&
            (place.withdrawnFrom === null || place.withdrawnFrom > session.date)
          : place.sessionId === session.sessionId;
      if (expected && !absent.has(`${session.sessionId}:${place.childId}`)) childIds.add(place.childId);
    }
    return { ...session, childIds: [...childIds] };
  });
}

export interface TrialSession {
  enrolmentId: number;
  childId: number;
  className: string;
  date: string;
  startTime: string;
  durationMinutes: number;
}

/**
 * Trials taken on these dates (a scheduled session, the child not marked absent) by children who
 * have not enrolled in that class since.
 */
export async function trialsOn(db: Db, tenant: Tenant, dates: string[]): Promise<TrialSession[]> {
  if (dates.length === 0) return [];
  const trials = await db
    .select({
      enrolmentId: classEnrolments.id,
      childId: classEnrolments.childId,
      termClassId: classEnrolments.termClassId,
      sessionId: classSessions.id,
      className: termClasses.name,
      date: classSessions.date,
      startTime: classSessions.startTime,
      durationMinutes: classSessions.durationMinutes,
    })
    .from(classEnrolments)
    .innerJoin(classSessions, eq(classSessions.id, classEnrolments.sessionId))
    .innerJoin(termClasses, eq(termClasses.id, classEnrolments.termClassId))
    .where(
      tenant.where(
        classEnrolments,
        eq(classEnrolments.kind, 'trial'),
        eq(classEnrolments.status, 'active'),
        inArray(classSessions.date, dates),
        eq(classSessions.status, 'scheduled'),
      ),
    )
    .orderBy(asc(classEnrolments.id));
  if (trials.length === 0) return [];
  const [enrolled, marks] = await Promise.all([
    db
      .select({ childId: classEnrolments.childId, termClassId: classEnrolments.termClassId })
      .from(classEnrolments)
      .where(
        tenant.where(
          classEnrolments,
          eq(classEnrolments.kind, 'enrolled'),
          inArray(classEnrolments.status, ['pending', 'active']),
          inArray(classEnrolments.childId, [...new Set(trials.map((t) => t.childId))]),
        ),
      ),
    db
      .select({ sessionId: attendance.sessionId, childId: attendance.childId })
      .from(attendance)
      .where(
        tenant.where(
          attendance,
          inArray(
            attendance.sessionId,
            trials.map((t) => t.sessionId),
          ),
          inArray(attendance.status, [...notComing]),
        ),
      ),
  ]);
  const hasPlace = new Set(enrolled.map((e) => `${e.termClassId}:${e.childId}`));
  const absent = new Set(marks.map((m) => `${m.sessionId}:${m.childId}`));
  return trials
    .filter(
      (t) => !hasPlace.has(`${t.termClassId}:${t.childId}`) && !absent.has(`${t.sessionId}:${t.childId}`),
    )
    .map(({ termClassId: _class, sessionId: _session, ...trial }) => trial);
}

export interface HeldFamily {
  rolloverId: number;
  deadline: Date;
  termName: string;
  parentId: number;
  /** The class names of the places still held (not confirmed). */
  classNames: string[];
}

/** Families with places a live rollover still holds (not confirmed), for deadlines in (after, until]. */
export async function familiesHoldingPlaces(
  db: Db,
  tenant: Tenant,
  after: Date,
  until: Date,
): Promise<HeldFamily[]> {
  const rows = await db
    .select({
      rolloverId: rollovers.id,
      deadline: rollovers.deadline,
      termName: terms.name,
      parentId: rolloverItems.parentId,
      className: termClasses.name,
    })
    .from(rolloverItems)
    .innerJoin(rollovers, eq(rollovers.id, rolloverItems.rolloverId))
    .innerJoin(terms, eq(terms.id, rolloverItems.toTermId))
    .innerJoin(termClasses, eq(termClasses.id, rolloverItems.toClassId))
    .innerJoin(classEnrolments, eq(classEnrolments.id, rolloverItems.toEnrolmentId))
    .where(
      tenant.where(
        rolloverItems,
        isNull(rolloverItems.undoneAt),
        notInArray(rollovers.status, ['undone']),
        gt(rollovers.deadline, after),
        lte(rollovers.deadline, until),
        eq(classEnrolments.status, 'pending'),
        eq(classEnrolments.heldFor, 'rollover'),
      ),
    )
    .orderBy(asc(rollovers.id), asc(rolloverItems.parentId), asc(termClasses.name));
  const families = new Map<string, HeldFamily>();
  for (const row of rows) {
    const key = `${row.rolloverId}:${row.parentId}`;
    const { className, ...held } = row;
    const family = families.get(key) ?? { ...held, classNames: [] };
    if (!family.classNames.includes(className)) family.classNames.push(className);
    families.set(key, family);
  }
  return [...families.values()];
}
