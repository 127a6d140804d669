import type { FormResponse } from '@tumble/contracts/http';
import { and, asc, eq, gte, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { leaveOn, leavesFrom, namesOfCoaches, rosterProblem } from '../coaches/coaches.service.ts';
import { classSessions, termClasses } from './classes.tables.ts';

export interface CoverNeeded {
  sessionId: number;
  termClassId: number;
  className: string;
  date: string;
  startTime: string;
  durationMinutes: number;
  coachId: number;
  coachName: string;
  leave: { startDate: string; endDate: string; reason: string | null };
}

/**
 * Scheduled class sessions from `today` whose coach is on leave that day: they need cover until
 * a substitute is assigned (the session's coach changes, so it no longer falls inside a leave).
 */
export async function sessionsNeedingCover(db: Db, tenant: Tenant, today: string): Promise<CoverNeeded[]> {
  const leaves = await leavesFrom(db, tenant, today);
  if (leaves.length === 0) return [];
  const rows = await db
    .select({
      sessionId: classSessions.id,
      termClassId: classSessions.termClassId,
      className: termClasses.name,
      date: classSessions.date,
      startTime: classSessions.startTime,
      durationMinutes: classSessions.durationMinutes,
      coachId: classSessions.coachId,
    })
    .from(classSessions)
    .innerJoin(termClasses, tenant.where(termClasses, eq(termClasses.id, classSessions.termClassId)))
    .where(
      tenant.where(
        classSessions,
        eq(classSessions.status, 'scheduled'),
        gte(classSessions.date, today),
        or(
          ...leaves.map((leave) =>
            and(
              eq(classSessions.coachId, leave.coachId),
              gte(classSessions.date, leave.startDate),
              lte(classSessions.date, leave.endDate),
            ),
          ),
        ),
      ),
    )
    .orderBy(asc(classSessions.date), asc(classSessions.startTime), asc(classSessions.id));
  const names = await namesOfCoaches(
    db,
    tenant,
    rows.map((r) => r.coachId!),
  );
  return rows.map((row) => {
    const leave = leaves.find(
      (l) => l.coachId === row.coachId && l.startDate <= row.date && l.endDate >= row.date,
    )!;
    return {
      ...row,
      startTime: row.startTime.slice(0, 5),
      coachId: row.coachId!,
      coachName: names.get(row.coachId!) ?? '',
      leave: { startDate: leave.startDate, endDate: leave.endDate, reason: leave.reason },
    };
  });
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

const refused = (message: string): FormResponse => ({
  valid: false,
  error: { html_message: message, element: [{ name: 'coach_id', messages: [message] }] },
});

/**
 * Makes `coachId` the coach of one session (a substitute for a coach on leave). Refused with a
 * message on the coach field when the substitute may not be rostered that day (their Working With
 * Children Check), is on leave themselves, or already coaches a session at that time. The session
 * is marked as changed by hand, so generating the term's sessions again keeps the substitute.
 */
export async function assignSubstitute(
  db: Db,
  tenant: Tenant,
  sessionId: number,
  coachId: number,
): Promise<FormResponse> {
  return db.transaction(async (tx) => {
    const [session] = await tx
      .select()
      .from(classSessions)
      .where(tenant.byId(classSessions, sessionId))
      .for('update');
    if (!session) throw new NotFoundError();
    if (session.status !== 'scheduled') return refused('This session is cancelled.');
    const problem = await rosterProblem(tx, tenant, coachId, session.date);
    if (problem) return refused(problem);
    // One assignment per coach at a time, so two staff cannot give the same coach two sessions at
    // once (both would see the other's session as not yet assigned).
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`coach-roster:${tenant.companyId}:${coachId}`}))`,
    );
    const name = (await namesOfCoaches(tx, tenant, [coachId])).get(coachId) ?? 'This coach';
    const leave = await leaveOn(tx, tenant, coachId, session.date);
    if (leave) return refused(`${name} is on leave that day.`);
    const start = minutesOf(session.startTime);
    const end = start + session.durationMinutes;
    const sameDay = await tx
      .select({
        id: classSessions.id,
        startTime: classSessions.startTime,
        durationMinutes: classSessions.durationMinutes,
        className: termClasses.name,
      })
      .from(classSessions)
      .innerJoin(termClasses, tenant.where(termClasses, eq(termClasses.id, classSessions.termClassId)))
      .where(
        tenant.where(
          classSessions,
          eq(classSessions.date, session.date),
          eq(classSessions.status, 'scheduled'),
          ne(classSessions.id, session.id),
          or(eq(classSessions.coachId, coachId), sql`${coachId} = any(${termClasses.assistantCoachIds})`),
        ),
      );
    const clash = sameDay.find((other) => {
      const otherStart = minutesOf(other.startTime);
      return otherStart < end && start < otherStart + other.durationMinutes;
    });
    if (clash)
      return refused(`${name} is already coaching ${clash.className} at ${clash.startTime.slice(0, 5)}.`);
    await tx
      .update(classSessions)
      .set({ coachId, editedAt: new Date() })
      .where(tenant.byId(classSessions, session.id));
    return {
      valid: true,
      info: { title: 'Substitute assigned', message: `${name} now coaches this session.` },
    };
  });
}
