import type { FormResponse } from '@tumble/contracts/http';
import type {
  RollChild,
  RollDayResponse,
  RollMarkRequest,
  RollResponse,
  RollSession,
} from '@tumble/contracts/roll';
import { and, asc, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { familiesWithFailedAutopay } from '../billing/autopay.service.ts';
import { coachIdOfUser, namesOfCoaches } from '../coaches/coaches.service.ts';
import { ageOn, rollChildren } from '../students/children.service.ts';
import { rollFlagsOf } from '../students/flags.service.ts';
import { roomNames } from '../venues/room-names.service.ts';
import { attendance, classEnrolments, classSessions, termClasses } from './classes.tables.ts';
import { takeBackAbsenceCredit } from './makeups.service.ts';

/** Who asks: company staff see every session; a coach only the sessions they coach. */
type Viewer = Pick<AuthContext, 'tenant' | 'userId' | 'role'>;

type SessionRow = Awaited<ReturnType<typeof sessionsWhere>>[number];
type Expected = { childId: number; kind: RollChild['kind'] };

export const NOT_EXPECTED = 'This child is not expected in this session.';
export const SESSION_CANCELLED = 'This session was cancelled, so its roll cannot be marked.';

function sessionsWhere(db: Db, tenant: Tenant, ...conditions: (SQL | undefined)[]) {
  return db
    .select({
      id: classSessions.id,
      termClassId: classSessions.termClassId,
      date: classSessions.date,
      startTime: classSessions.startTime,
      durationMinutes: classSessions.durationMinutes,
      roomId: classSessions.roomId,
      coachId: classSessions.coachId,
      status: classSessions.status,
      cancelReason: classSessions.cancelReason,
      className: termClasses.name,
    })
    .from(classSessions)
    .innerJoin(termClasses, eq(termClasses.id, classSessions.termClassId))
    .where(tenant.where(classSessions, ...conditions))
    .orderBy(
      asc(classSessions.date),
      asc(classSessions.startTime),
      asc(termClasses.name),
      asc(classSessions.id),
    );
}

/** The coach whose sessions this viewer is limited to: undefined for staff, null for a coach without a profile. */
async function coachScope(db: Db, viewer: Viewer): Promise<number | null | undefined> {
  if (viewer.role !== 'companycoach') return undefined;
  return coachIdOfUser(db, viewer.tenant, viewer.userId);
}

/**
 * A session the viewer may take the roll of. Another company's session, and for a coach a session
 * somebody else coaches, is not found: a 404 says nothing about whether it exists.
 */
async function visibleSession(db: Db, viewer: Viewer, sessionId: number): Promise<SessionRow> {
  // Side by side, not one after the other: a coach's roll waits for one round trip, not two.
  const [[session], scope] = await Promise.all([
    sessionsWhere(db, viewer.tenant, eq(classSessions.id, sessionId)),
    coachScope(db, viewer),
  ]);
  if (!session || (scope !== undefined && (scope === null || session.coachId !== scope)))
    throw new NotFoundError('That session could not be found.');
  return session;
}

/**
 * Who is expected in each session: the class's `enrolled` children (active, from `startsOn`) and
 * the `trial`, `makeup` and `casual` children booked into that one session. A child listed twice
 * (enrolled and also a casual) counts once, as enrolled.
 */
async function expectedBySession(db: Db, tenant: Tenant, sessions: SessionRow[]) {
  const result = new Map<number, Expected[]>(sessions.map((s) => [s.id, []]));
  if (sessions.length === 0) return result;
  const rows = await db
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
          and(
            ne(classEnrolments.kind, 'enrolled'),
            inArray(
              classEnrolments.sessionId,
              sessions.map((s) => s.id),
            ),
          ),
        ),
      ),
    )
    .orderBy(sql`${classEnrolments.kind} = 'enrolled' desc`, asc(classEnrolments.id));
  for (const session of sessions) {
    const list = result.get(session.id)!;
    const seen = new Set<number>();
    for (const row of rows) {
      const expected =
        row.kind === 'enrolled'
          ? row.termClassId === session.termClassId &&
            (row.startsOn === null || row.startsOn <= session.date) &&
            (row.withdrawnFrom === null || row.withdrawnFrom > session.date)
          : row.sessionId === session.id;
      if (!expected || seen.has(row.childId)) continue;
      seen.add(row.childId);
      list.push({ childId: row.childId, kind: row.kind });
    }
  }
  return result;
}

async function marksOf(db: Db, tenant: Tenant, sessionIds: number[]) {
  if (sessionIds.length === 0) return [];
  return db
    .select({
      sessionId: attendance.sessionId,
      childId: attendance.childId,
      status: attendance.status,
      note: attendance.note,
      markedAt: attendance.markedAt,
    })
    .from(attendance)
    .where(tenant.where(attendance, inArray(attendance.sessionId, sessionIds)));
}

const hhmm = (time: string) => time.slice(0, 5);

function endTime(start: string, minutes: number): string {
  const [h, m] = start.split(':').map(Number) as [number, number];
  const total = (h * 60 + m + minutes) % (24 * 60);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** The sessions as the roll lists them, with how many children are expected and marked. */
async function describe(db: Db, tenant: Tenant, sessions: SessionRow[]) {
  const [expected, marks, rooms, coaches] = await Promise.all([
    expectedBySession(db, tenant, sessions),
    marksOf(
      db,
      tenant,
      sessions.map((s) => s.id),
    ),
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
  const list: RollSession[] = sessions.map((s) => {
    const children = expected.get(s.id) ?? [];
    const markedIds = new Set(marks.filter((m) => m.sessionId === s.id).map((m) => m.childId));
    return {
      id: s.id,
      class_name: s.className,
      date: s.date,
      start_time: hhmm(s.startTime),
      end_time: endTime(s.startTime, s.durationMinutes),
      room: s.roomId ? (rooms.get(s.roomId) ?? null) : null,
      coach: s.coachId ? coaches.get(s.coachId) || null : null,
      status: s.status,
      cancel_reason: s.cancelReason,
      expected: children.length,
      marked: children.filter((c) => markedIds.has(c.childId)).length,
    };
  });
  return { list, expected, marks };
}

/** The company's today, the day the roll opens on. */
export async function companyToday(db: Db, tenant: Tenant): Promise<string> {
  return todayIn((await companyOf(db, tenant)).timeZone);
}

/** The class sessions of a day, cancelled ones included (they show as cancelled). */
export async function rollDay(db: Db, viewer: Viewer, date: string | undefined): Promise<RollDayResponse> {
  const day = date ?? (await companyToday(db, viewer.tenant));
  const scope = await coachScope(db, viewer);
  if (scope === null) return { date: day, sessions: [] };
  const sessions = await sessionsWhere(
    db,
    viewer.tenant,
    eq(classSessions.date, day),
    scope === undefined ? undefined : eq(classSessions.coachId, scope),
  );
  return { date: day, sessions: (await describe(db, viewer.tenant, sessions)).list };
}

/** Sessions with their expected children and marks, for the roll screen and the daily-roll report. */
async function rollsOf(db: Db, tenant: Tenant, sessions: SessionRow[]): Promise<RollResponse[]> {
  const { list, expected, marks } = await describe(db, tenant, sessions);
  const childIds = [...expected.values()].flatMap((e) => e.map((c) => c.childId));
  // The children (then their families' failed autopay) beside their flags, which need only the
  // ids: four round trips after `describe` become two, on a screen coaches reload after each tap.
  const childrenAndOverdue = async () => {
    const people = await rollChildren(db, tenant, childIds);
    const parentIds = people.map((child) => child.parentId);
    return { people, overdue: await familiesWithFailedAutopay(db, tenant, parentIds) };
  };
  const [{ people, overdue }, flags] = await Promise.all([
    childrenAndOverdue(),
    rollFlagsOf(db, tenant, childIds),
  ]);
  return list.map((session, i) => {
    const kinds = new Map((expected.get(session.id) ?? []).map((c) => [c.childId, c.kind]));
    const date = sessions[i]!.date;
    return {
      session,
      children: people.flatMap((child) => {
        const kind = kinds.get(child.id);
        if (!kind) return [];
        const mark = marks.find((m) => m.sessionId === session.id && m.childId === child.id);
        return [
          {
            id: child.id,
            first_name: child.firstName,
            last_name: child.lastName,
            age: ageOn(child.dob, date),
            photo_consent: child.consent,
            medical_notes: child.medicalNotes,
            kind,
            mark: mark
              ? { status: mark.status, note: mark.note, marked_at: mark.markedAt.toISOString() }
              : null,
            payment_overdue: overdue.has(child.parentId),
            flags: flags.get(child.id) ?? [],
          },
        ];
      }),
    };
  });
}

/** One session's roll; another company's, or another coach's, is not found. */
export async function rollOf(db: Db, viewer: Viewer, sessionId: number): Promise<RollResponse> {
  const session = await visibleSession(db, viewer, sessionId);
  return (await rollsOf(db, viewer.tenant, [session]))[0]!;
}

/** Every session of a day with its children and marks (the daily-roll report; staff only). */
export async function dayRolls(db: Db, tenant: Tenant, date: string): Promise<RollResponse[]> {
  return rollsOf(db, tenant, await sessionsWhere(db, tenant, eq(classSessions.date, date)));
}

const refused = (name: string, message: string): FormResponse => ({
  valid: false,
  error: { html_message: message, element: [{ name, messages: [message] }] },
});

/**
 * One tap on the roll. An upsert on (company, session, child): the same tap twice changes nothing,
 * and when two devices mark the same child the row lock orders them and the later one stays.
 * Without a note the mark keeps the note it had.
 */
export async function markRoll(
  db: Db,
  viewer: Viewer,
  sessionId: number,
  input: { child_id: number; status: RollMarkRequest['status']; note?: string | null },
): Promise<FormResponse> {
  const { tenant } = viewer;
  const session = await visibleSession(db, viewer, sessionId);
  if (session.status === 'cancelled') return refused('_form', SESSION_CANCELLED);
  const expected = (await expectedBySession(db, tenant, [session])).get(session.id) ?? [];
  if (!expected.some((c) => c.childId === input.child_id)) return refused('child_id', NOT_EXPECTED);
  const note = input.note === undefined ? undefined : input.note || null;
  await db.transaction(async (tx) => {
    await tx
      .insert(attendance)
      .values(
        tenant.values({
          sessionId,
          childId: input.child_id,
          status: input.status,
          note: note ?? null,
          markedBy: viewer.userId,
        }),
      )
      .onConflictDoUpdate({
        target: [attendance.companyId, attendance.sessionId, attendance.childId],
        set: {
          status: input.status,
          ...(note === undefined ? {} : { note }),
          markedBy: viewer.userId,
          markedAt: sql`now()`,
        },
      });
    // The child came after all: the credit an absence issued goes back unless it was used.
    if (input.status === 'present' || input.status === 'late')
      await takeBackAbsenceCredit(tx, tenant, { sessionId, childId: input.child_id });
  });
  return { valid: true };
}
