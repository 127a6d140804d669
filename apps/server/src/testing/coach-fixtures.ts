import type { Db } from '../db/client.ts';
import { classSessions, classTypes, termClasses, terms } from '../features/classes/classes.tables.ts';
import { coaches, coachLeaves } from '../features/coaches/coaches.tables.ts';
import { createUser } from './factories.ts';

/** A coach (a companycoach user with a profile) whose check is cleared and current unless overridden. */
export async function createCoach(
  db: Db,
  companyId: number,
  overrides: Partial<typeof coaches.$inferInsert> & { fullName?: string } = {},
) {
  const { fullName = 'Casey Coach', ...check } = overrides;
  const user = await createUser(db, companyId, { role: 'companycoach', fullName });
  const [coach] = await db
    .insert(coaches)
    .values({
      companyId,
      userId: user.id,
      name: fullName,
      wwccNumber: 'WWC0123456E',
      wwccOutcome: 'cleared',
      wwccVerifiedOn: '2026-01-10',
      wwccExpiresOn: '2099-01-10',
      ...check,
    })
    .returning();
  return { user, coach: coach! };
}

export async function createLeave(
  db: Db,
  companyId: number,
  coachId: number,
  startDate: string,
  endDate: string,
) {
  const [leave] = await db
    .insert(coachLeaves)
    .values({ companyId, coachId, startDate, endDate, reason: 'Annual leave' })
    .returning();
  return leave!;
}

/**
 * A class (type, term, term class) with one scheduled session per date given, coached by `coachId`.
 * Dates must fall in 2026–2099; the term spans them.
 */
export async function createClassWithSessions(
  db: Db,
  companyId: number,
  options: { coachId: number | null; dates: string[]; startTime?: string; name?: string },
) {
  const startTime = options.startTime ?? '16:00';
  const [type] = await db.insert(classTypes).values({ companyId, name: 'Kinder Gym' }).returning();
  const sorted = [...options.dates].sort();
  const [term] = await db
    .insert(terms)
    .values({ companyId, name: 'Term', startDate: sorted[0]!, endDate: sorted.at(-1)!, status: 'open' })
    .returning();
  const [termClass] = await db
    .insert(termClasses)
    .values({
      companyId,
      termId: term!.id,
      classTypeId: type!.id,
      name: options.name ?? 'Kinder Gym Tuesday',
      weekday: 2,
      startTime,
      durationMinutes: 60,
      leadCoachId: options.coachId,
      capacity: 10,
    })
    .returning();
  const sessions = await db
    .insert(classSessions)
    .values(
      sorted.map((date) => ({
        companyId,
        termClassId: termClass!.id,
        slotDate: date,
        date,
        startTime,
        durationMinutes: 60,
        coachId: options.coachId,
      })),
    )
    .returning();
  return { type: type!, term: term!, termClass: termClass!, sessions };
}
