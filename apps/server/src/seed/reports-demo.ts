import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { classEnrolments, classSessions, termClasses, terms } from '../features/classes/classes.tables.ts';
import { children } from '../features/students/students.tables.ts';
import { addDays, isoWeekday } from '../platform/time.ts';
import type { DemoScope } from './demo-scope.ts';

/** The demo's earlier term (the enrolment comparison compares the current term with it). */
export const DEMO_PREVIOUS_TERM = 'Last term';

/**
 * What the class reports need in a demo company: the term before the classes demo's term, ten
 * weeks ending a fortnight before it, with the first four classes again, most of their children (the
 * rest are the current term's new students), and two trials a class in its third week: one child
 * enrolled from the next week (a conversion), one did not. Once: skipped when the term exists or
 * the classes demo has not run.
 */
export async function seedReportsDemo(db: Db, { tenant }: DemoScope): Promise<void> {
  await db.transaction(async (tx) => {
    const [done] = await tx
      .select({ id: terms.id })
      .from(terms)
      .where(tenant.where(terms, eq(terms.name, DEMO_PREVIOUS_TERM)));
    const [current] = await tx
      .select()
      .from(terms)
      .where(tenant.where(terms))
      .orderBy(asc(terms.id))
      .limit(1);
    if (done || !current) return;
    const endDate = addDays(current.startDate, -14);
    const startDate = addDays(endDate, -69);
    const [previous] = await tx
      .insert(terms)
      .values(tenant.values({ name: DEMO_PREVIOUS_TERM, startDate, endDate, status: 'closed' as const }))
      .returning();
    const classes = await tx
      .select()
      .from(termClasses)
      .where(tenant.where(termClasses, eq(termClasses.termId, current.id)))
      .orderBy(asc(termClasses.id))
      .limit(4);
    const places = await tx
      .select({ termClassId: classEnrolments.termClassId, childId: classEnrolments.childId })
      .from(classEnrolments)
      .where(
        tenant.where(
          classEnrolments,
          inArray(
            classEnrolments.termClassId,
            classes.map((c) => c.id),
          ),
          eq(classEnrolments.kind, 'enrolled'),
        ),
      )
      .orderBy(asc(classEnrolments.id));
    const everyChild = (
      await tx
        .select({ id: children.id })
        .from(children)
        .where(tenant.where(children))
        .orderBy(asc(children.id))
    ).map((c) => c.id);
    for (const [index, klass] of classes.entries()) {
      const { id: _, termId: __, ...copy } = klass;
      const [earlier] = await tx
        .insert(termClasses)
        .values(tenant.values({ ...copy, termId: previous!.id }))
        .returning();
      let first = startDate;
      while (isoWeekday(first) !== String(klass.weekday)) first = addDays(first, 1);
      const dates = Array.from({ length: 10 }, (_, week) => addDays(first, week * 7)).filter(
        (d) => d <= endDate,
      );
      const sessions = await tx
        .insert(classSessions)
        .values(
          dates.map((date) =>
            tenant.values({
              termClassId: earlier!.id,
              slotDate: date,
              date,
              startTime: klass.startTime,
              durationMinutes: klass.durationMinutes,
              roomId: klass.roomId,
              coachId: klass.leadCoachId,
            }),
          ),
        )
        .returning();
      // Everyone but the class's last child was here last term too.
      const kids = places.filter((p) => p.termClassId === klass.id).map((p) => p.childId);
      const returning = kids.slice(0, -1);
      if (returning.length)
        await tx.insert(classEnrolments).values(
          returning.map((childId) =>
            tenant.values({
              termClassId: earlier!.id,
              childId,
              kind: 'enrolled' as const,
              startsOn: startDate,
            }),
          ),
        );
      // Two trials in week three by children not in this class: the first enrols from week four.
      const trialSession = sessions[2];
      const others = everyChild.filter((id) => !kids.includes(id));
      const triers = [others[index * 2], others[index * 2 + 1]].filter(
        (id): id is number => id !== undefined,
      );
      if (!trialSession || !sessions[3]) continue;
      for (const [n, childId] of triers.entries()) {
        await tx.insert(classEnrolments).values(
          tenant.values({
            termClassId: earlier!.id,
            childId,
            kind: 'trial' as const,
            sessionId: trialSession.id,
            createdAt: new Date(`${addDays(trialSession.date, -5)}T01:00:00Z`),
          }),
        );
        if (n === 0)
          await tx.insert(classEnrolments).values(
            tenant.values({
              termClassId: earlier!.id,
              childId,
              kind: 'enrolled' as const,
              startsOn: sessions[3].date,
              createdAt: new Date(`${addDays(trialSession.date, 2)}T01:00:00Z`),
            }),
          );
      }
    }
  });
}
