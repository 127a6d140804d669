import type { FormResponse } from '@tumble/contracts/http';
import { and, asc, eq, gte, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { AppError, NotFoundError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { leaveOn, leavesBetween, namesOfCoaches } from '../coaches/coaches.service.ts';
import { classSessions, termClasses } from './classes.tables.ts';
import { moveSession } from './sessions.service.ts';

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
  const leaves = await leavesBetween(db, tenant, today);
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

const refused = (message: string): FormResponse => ({
  valid: false,
  error: { html_message: message, element: [{ name: 'coach_id', messages: [message] }] },
});

/**
 * Makes `coachId` the coach of one session (a substitute for a coach on leave): a session move
 * that changes only the coach (sessions.service's `moveSession`: the roster check of the
 * substitute's Working With Children Check, the clash check against their other sessions under the
 * schedule lock, and the hand-edited mark that regeneration keeps), refused as well when the
 * substitute is on leave that day. Each refusal is a message on the coach field.
 */
export async function assignSubstitute(
  db: Db,
  tenant: Tenant,
  sessionId: number,
  coachId: number,
): Promise<FormResponse> {
  return db.transaction(async (tx) => {
    const [session] = await tx
      .select({ date: classSessions.date })
      .from(classSessions)
      .where(tenant.byId(classSessions, sessionId))
      .for('update');
    if (!session) throw new NotFoundError();
    if (await leaveOn(tx, tenant, coachId, session.date)) {
      const name = (await namesOfCoaches(tx, tenant, [coachId])).get(coachId) ?? 'This coach';
      return refused(`${name} is on leave that day.`);
    }
    try {
      await moveSession(tx, tenant, sessionId, { coachId });
    } catch (error) {
      // The move's refusals are checks made before it writes anything: say why, change nothing.
      if (error instanceof AppError && error.statusCode < 500 && !(error instanceof NotFoundError))
        return refused(error.message);
      throw error;
    }
    const name = (await namesOfCoaches(tx, tenant, [coachId])).get(coachId) ?? 'The substitute';
    return {
      valid: true,
      info: { title: 'Substitute assigned', message: `${name} now coaches this session.` },
    };
  });
}
