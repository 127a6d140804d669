import type { FormResponse } from '@tumble/contracts/http';
import {
  type MakeupCredit,
  type MakeupOption,
  type MyClass,
  type MyClassesResponse,
  type MySession,
  makeupMessages,
} from '@tumble/contracts/makeups';
import { and, asc, eq, gte, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { addDays, todayIn, zonedInstant } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { namesOfCoaches } from '../coaches/coaches.service.ts';
import { assertOwnChildren, childrenByIds } from '../students/children.service.ts';
import { childIdsOfParents } from '../students/family.service.ts';
import { venueOf } from '../venues/venues.service.ts';
import { lockClasses, sessionPlacesLeft } from './capacity.service.ts';
import {
  attendance,
  classEnrolments,
  classSessions,
  classTypes,
  termClasses,
  terms,
} from './classes.tables.ts';
import { enrolmentSettingsOf } from './enrolment-purchases.service.ts';
import { makeupCredits } from './makeups.tables.ts';

/**
 * Absences and makeups (SPEC students/absence-day). A parent marks a child absent from a future
 * session before the company's cutoff; when the class type allows makeups that absence becomes a
 * credit (class type's expiry, capped per child, term and class type). A credit books one place
 * in a session of the same class type and level with a free place, under the class lock like
 * every other place (decision 013); the earliest-expiring usable credit goes first. A session the
 * gym cancels credits every child expected in it, uncapped. A credit is usable until its expiry
 * date (inclusive) in the company's time zone.
 */

type Parent = Pick<AuthContext, 'tenant' | 'userId'>;

/** The note on an attendance mark a parent made. */
export const PARENT_ABSENCE_NOTE = 'Marked absent by parent';
/** How long an expired credit stays in the wallet (greyed) before it is no longer shown. */
const EXPIRED_SHOWN_DAYS = 60;
/** How many upcoming sessions the parent's page lists per child. */
const UPCOMING_SESSIONS = 12;

const hhmm = (time: string) => time.slice(0, 5);

function endTime(start: string, minutes: number): string {
  const [h, m] = start.split(':').map(Number) as [number, number];
  const total = (h * 60 + m + minutes) % (24 * 60);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

const refused = (message: string, name = '_form'): FormResponse => ({
  valid: false,
  error: { html_message: message, element: [{ name, messages: [message] }] },
});
const done = (message: string): FormResponse => ({ valid: true, info: { title: 'Done', message } });

/** The level a class teaches: its own, else its type's. */
const classLevel = sql<string | null>`coalesce(${termClasses.level}, ${classTypes.level})`;

/** Sessions with their class, class type (makeup policy) and term. */
function sessionsWhere(db: Db, tenant: Tenant, ...conditions: (SQL | undefined)[]) {
  return db
    .select({
      id: classSessions.id,
      termClassId: classSessions.termClassId,
      date: classSessions.date,
      startTime: classSessions.startTime,
      durationMinutes: classSessions.durationMinutes,
      status: classSessions.status,
      cancelReason: classSessions.cancelReason,
      coachId: classSessions.coachId,
      className: termClasses.name,
      classStatus: termClasses.status,
      classArchivedAt: termClasses.archivedAt,
      venueId: termClasses.venueId,
      classTypeId: termClasses.classTypeId,
      termId: termClasses.termId,
      level: classLevel,
      makeupAllowed: classTypes.makeupAllowed,
      makeupExpiry: classTypes.makeupExpiry,
      makeupExpiryDays: classTypes.makeupExpiryDays,
      makeupCapPerTerm: classTypes.makeupCapPerTerm,
      termEnd: terms.endDate,
    })
    .from(classSessions)
    .innerJoin(termClasses, tenant.where(termClasses, eq(termClasses.id, classSessions.termClassId)))
    .innerJoin(classTypes, tenant.where(classTypes, eq(classTypes.id, termClasses.classTypeId)))
    .innerJoin(terms, tenant.where(terms, eq(terms.id, termClasses.termId)))
    .where(tenant.where(classSessions, ...conditions))
    .orderBy(asc(classSessions.date), asc(classSessions.startTime), asc(classSessions.id));
}
type SessionRow = Awaited<ReturnType<typeof sessionsWhere>>[number];

async function sessionOf(db: Db, tenant: Tenant, sessionId: number): Promise<SessionRow> {
  const [session] = await sessionsWhere(db, tenant, eq(classSessions.id, sessionId));
  if (!session) throw new NotFoundError('That session could not be found.');
  return session;
}

/** Throws 404 unless the session is the company's: a bad body on another company's id still answers 404. */
export async function assertSession(db: Db, tenant: Tenant, sessionId: number): Promise<void> {
  await sessionOf(db, tenant, sessionId);
}

/** The condition of an `enrolled` place that covers a session date. */
const enrolledOn = (date: SQL | string) =>
  and(
    eq(classEnrolments.kind, 'enrolled'),
    or(isNull(classEnrolments.startsOn), lte(classEnrolments.startsOn, date)),
    or(isNull(classEnrolments.withdrawnFrom), sql`${classEnrolments.withdrawnFrom} > ${date}`),
  );

/** The child's active place in a session (the class enrolment first, then a one-session place), or null. */
async function placeIn(db: Db, tenant: Tenant, session: SessionRow, childId: number) {
  const [place] = await db
    .select({ id: classEnrolments.id, kind: classEnrolments.kind })
    .from(classEnrolments)
    .where(
      tenant.where(
        classEnrolments,
        eq(classEnrolments.childId, childId),
        eq(classEnrolments.status, 'active'),
        or(
          and(eq(classEnrolments.termClassId, session.termClassId), enrolledOn(session.date)),
          eq(classEnrolments.sessionId, session.id),
        ),
      ),
    )
    .orderBy(sql`${classEnrolments.kind} = 'enrolled' desc`, asc(classEnrolments.id))
    .limit(1);
  return place ?? null;
}

/** The company's zone, today there, and how many hours before a session parents' changes close. */
async function rules(db: Db, tenant: Tenant) {
  const [company, settings] = await Promise.all([companyOf(db, tenant), enrolmentSettingsOf(db, tenant)]);
  return {
    timeZone: company.timeZone,
    today: todayIn(company.timeZone),
    cutoffHours: settings.absenceCutoffHours,
  };
}
type Rules = Awaited<ReturnType<typeof rules>>;

const startsAt = (session: Pick<SessionRow, 'date' | 'startTime'>, timeZone: string) =>
  zonedInstant(session.date, hhmm(session.startTime), timeZone).getTime();

/** Still before the cutoff: an absence may be marked or undone, a makeup cancelled. */
function changeable(session: Pick<SessionRow, 'date' | 'startTime'>, r: Rules, now = Date.now()): boolean {
  return now < startsAt(session, r.timeZone) - r.cutoffHours * 3_600_000;
}

/** When a credit for missing this session expires: the class type's days, else the term's end. */
function expiryOf(session: SessionRow): string {
  if (session.makeupExpiry === 'days' && session.makeupExpiryDays !== null)
    return addDays(session.date, session.makeupExpiryDays);
  return session.termEnd;
}

/**
 * Serialises the credit changes of one child, so two absences marked at once cannot both slip
 * under the cap. Transaction-scoped; a key space of its own (hashed name, then the child).
 */
async function lockChildCredits(tx: Db, tenant: Tenant, childId: number) {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`makeup-credits:${tenant.companyId}`}), ${childId})`,
  );
}

/**
 * Whether a parent may mark or undo their child's absence from the session now: their own child
 * with a place in it (else 404), the session not cancelled and its cutoff not passed (else the
 * refusal to answer with).
 */
async function absenceChange(db: Db, parent: Parent, sessionId: number, childId: number, now: number) {
  const { tenant } = parent;
  await assertOwnChildren(db, tenant, parent.userId, [childId]);
  const session = await sessionOf(db, tenant, sessionId);
  const place = await placeIn(db, tenant, session, childId);
  if (!place) throw new NotFoundError('That session could not be found.');
  if (session.status === 'cancelled') return { refusal: refused(makeupMessages.cancelledSession) };
  const r = await rules(db, tenant);
  if (!changeable(session, r, now)) return { refusal: refused(makeupMessages.tooLate(r.cutoffHours)) };
  return { refusal: null, session, place };
}

/** Marks the child absent from a future session; the class type's policy may add a credit. */
export async function markAbsent(
  db: Db,
  parent: Parent,
  sessionId: number,
  childId: number,
  now = Date.now(),
): Promise<FormResponse> {
  const { tenant } = parent;
  const change = await absenceChange(db, parent, sessionId, childId, now);
  if (change.refusal) return change.refusal;
  const { session, place } = change;
  return db.transaction(async (tx) => {
    await lockChildCredits(tx, tenant, childId);
    await tx
      .insert(attendance)
      .values(
        tenant.values({
          sessionId,
          childId,
          status: 'absent' as const,
          note: PARENT_ABSENCE_NOTE,
          markedBy: parent.userId,
        }),
      )
      .onConflictDoUpdate({
        target: [attendance.companyId, attendance.sessionId, attendance.childId],
        set: { status: 'absent', note: PARENT_ABSENCE_NOTE, markedBy: parent.userId, markedAt: sql`now()` },
      });
    // A makeup, trial or casual visit missed is not made up again; the class's own sessions are.
    if (place.kind !== 'enrolled' || !session.makeupAllowed) return done(makeupMessages.absenceMarked);
    const [live] = await tx
      .select({ id: makeupCredits.id })
      .from(makeupCredits)
      .where(
        tenant.where(
          makeupCredits,
          eq(makeupCredits.childId, childId),
          eq(makeupCredits.sessionId, sessionId),
          isNull(makeupCredits.revokedAt),
        ),
      );
    if (live) return done(makeupMessages.absenceCredited);
    if (session.makeupCapPerTerm !== null) {
      const [issued] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(makeupCredits)
        .where(
          tenant.where(
            makeupCredits,
            eq(makeupCredits.childId, childId),
            eq(makeupCredits.termId, session.termId),
            eq(makeupCredits.classTypeId, session.classTypeId),
            eq(makeupCredits.reason, 'absence'),
            isNull(makeupCredits.revokedAt),
          ),
        );
      if (issued!.count >= session.makeupCapPerTerm)
        return done(makeupMessages.capReached(session.makeupCapPerTerm));
    }
    await tx.insert(makeupCredits).values(
      tenant.values({
        childId,
        reason: 'absence' as const,
        sessionId,
        termId: session.termId,
        classTypeId: session.classTypeId,
        level: session.level,
        expiresOn: expiryOf(session),
      }),
    );
    return done(makeupMessages.absenceCredited);
  });
}

/** Undoes a parent's absence before the cutoff: the mark goes, and its credit if it was not used. */
export async function undoAbsence(
  db: Db,
  parent: Parent,
  sessionId: number,
  childId: number,
  now = Date.now(),
): Promise<FormResponse> {
  const { tenant } = parent;
  const change = await absenceChange(db, parent, sessionId, childId, now);
  if (change.refusal) return change.refusal;
  return db.transaction(async (tx) => {
    await lockChildCredits(tx, tenant, childId);
    const [mark] = await tx
      .select({ status: attendance.status })
      .from(attendance)
      .where(tenant.where(attendance, eq(attendance.sessionId, sessionId), eq(attendance.childId, childId)))
      .for('update');
    if (mark?.status !== 'absent') return refused(makeupMessages.notAbsent);
    const [credit] = await tx
      .select({ id: makeupCredits.id, usedAt: makeupCredits.usedAt })
      .from(makeupCredits)
      .where(
        tenant.where(
          makeupCredits,
          eq(makeupCredits.childId, childId),
          eq(makeupCredits.sessionId, sessionId),
          eq(makeupCredits.reason, 'absence'),
          isNull(makeupCredits.revokedAt),
        ),
      )
      .for('update');
    if (credit?.usedAt) return refused(makeupMessages.creditUsed);
    if (credit)
      await tx
        .update(makeupCredits)
        .set({ revokedAt: sql`now()` })
        .where(tenant.byId(makeupCredits, credit.id));
    await tx
      .delete(attendance)
      .where(tenant.where(attendance, eq(attendance.sessionId, sessionId), eq(attendance.childId, childId)));
    return done(makeupMessages.absenceUndone);
  });
}

/**
 * The roll says the child came after all (absent → present): the credit that absence issued is
 * taken back unless it was already used for a makeup, which the family keeps. Call inside the
 * roll's transaction. Returns whether a credit was taken back.
 */
export async function takeBackAbsenceCredit(
  tx: Db,
  tenant: Tenant,
  input: { sessionId: number; childId: number },
): Promise<boolean> {
  const taken = await tx
    .update(makeupCredits)
    .set({ revokedAt: sql`now()` })
    .where(
      tenant.where(
        makeupCredits,
        eq(makeupCredits.childId, input.childId),
        eq(makeupCredits.sessionId, input.sessionId),
        eq(makeupCredits.reason, 'absence'),
        isNull(makeupCredits.revokedAt),
        isNull(makeupCredits.usedAt),
      ),
    )
    .returning({ id: makeupCredits.id });
  return taken.length > 0;
}

/**
 * The gym cancelled a session: every child expected in it with a class enrolment or a makeup
 * place gets a credit, whatever the cap and the class type's makeup policy (a trial or a casual
 * visit is not a class to make up). A child who already held a credit for it (marked absent
 * before) keeps that one, now counted as the gym's, so it no longer counts toward the cap. Call
 * inside the cancellation's transaction.
 */
export async function creditCancelledSession(
  tx: Db,
  tenant: Tenant,
  input: { sessionId: number; termId: number; classTypeId: number; childIds: number[]; sessionDate: string },
): Promise<number> {
  const ids = [...new Set(input.childIds)];
  if (ids.length === 0) return 0;
  const session = await sessionOf(tx, tenant, input.sessionId);
  const places = await tx
    .select({ childId: classEnrolments.childId })
    .from(classEnrolments)
    .where(
      tenant.where(
        classEnrolments,
        inArray(classEnrolments.childId, ids),
        eq(classEnrolments.status, 'active'),
        or(
          and(eq(classEnrolments.termClassId, session.termClassId), enrolledOn(input.sessionDate)),
          and(eq(classEnrolments.kind, 'makeup'), eq(classEnrolments.sessionId, input.sessionId)),
        ),
      ),
    );
  const credited = [...new Set(places.map((p) => p.childId))];
  if (credited.length === 0) return 0;
  await tx
    .update(makeupCredits)
    .set({ reason: 'cancelled' })
    .where(
      tenant.where(
        makeupCredits,
        inArray(makeupCredits.childId, credited),
        eq(makeupCredits.sessionId, input.sessionId),
        isNull(makeupCredits.revokedAt),
      ),
    );
  const expiresOn = expiryOf({ ...session, date: input.sessionDate });
  const inserted = await tx
    .insert(makeupCredits)
    .values(
      credited.map((childId) =>
        tenant.values({
          childId,
          reason: 'cancelled' as const,
          sessionId: input.sessionId,
          termId: input.termId,
          classTypeId: input.classTypeId,
          level: session.level,
          expiresOn,
        }),
      ),
    )
    .onConflictDoNothing()
    .returning({ id: makeupCredits.id });
  return inserted.length;
}

/** The conditions of the credits that can book a place now: unused, not taken back, not expired. */
const usable = (childId: number, today: string) => [
  eq(makeupCredits.childId, childId),
  isNull(makeupCredits.usedAt),
  isNull(makeupCredits.revokedAt),
  gte(makeupCredits.expiresOn, today),
];

/**
 * A child's unused credits, earliest expiry first, with expired ones (up to `EXPIRED_SHOWN_DAYS`
 * ago) flagged: the parent's wallet, and staff's read of a child's credits.
 */
export async function creditsOf(db: Db, tenant: Tenant, childId: number): Promise<MakeupCredit[]> {
  const { today } = await rules(db, tenant);
  return walletOf(db, tenant, [childId], today).then((w) => w.get(childId) ?? []);
}

async function walletOf(db: Db, tenant: Tenant, childIds: number[], today: string) {
  const wallet = new Map<number, MakeupCredit[]>(childIds.map((id) => [id, []]));
  if (childIds.length === 0) return wallet;
  const rows = await db
    .select({
      id: makeupCredits.id,
      childId: makeupCredits.childId,
      reason: makeupCredits.reason,
      classType: classTypes.name,
      level: makeupCredits.level,
      missedDate: classSessions.date,
      expiresOn: makeupCredits.expiresOn,
    })
    .from(makeupCredits)
    .innerJoin(classTypes, tenant.where(classTypes, eq(classTypes.id, makeupCredits.classTypeId)))
    .innerJoin(classSessions, tenant.where(classSessions, eq(classSessions.id, makeupCredits.sessionId)))
    .where(
      tenant.where(
        makeupCredits,
        inArray(makeupCredits.childId, childIds),
        isNull(makeupCredits.usedAt),
        isNull(makeupCredits.revokedAt),
        gte(makeupCredits.expiresOn, addDays(today, -EXPIRED_SHOWN_DAYS)),
      ),
    )
    .orderBy(asc(makeupCredits.expiresOn), asc(makeupCredits.id));
  for (const row of rows)
    wallet.get(row.childId)?.push({
      id: row.id,
      reason: row.reason,
      class_type: row.classType,
      level: row.level,
      missed_date: row.missedDate,
      expires_on: row.expiresOn,
      expired: row.expiresOn < today,
    });
  return wallet;
}

/**
 * The sessions a child's credits can book: of a class of the same type and level as a usable
 * credit, scheduled, from now until that credit's expiry, with a free place, and not one the
 * child is already in. Earliest first.
 */
export async function makeupOptions(db: Db, parent: Parent, childId: number): Promise<MakeupOption[]> {
  const { tenant } = parent;
  await assertOwnChildren(db, tenant, parent.userId, [childId]);
  const r = await rules(db, tenant);
  const credits = await db
    .select({
      classTypeId: makeupCredits.classTypeId,
      level: makeupCredits.level,
      until: sql<string>`max(${makeupCredits.expiresOn})::text`,
    })
    .from(makeupCredits)
    .where(tenant.where(makeupCredits, ...usable(childId, r.today)))
    .groupBy(makeupCredits.classTypeId, makeupCredits.level);
  if (credits.length === 0) return [];
  const candidates = await sessionsWhere(
    db,
    tenant,
    eq(classSessions.status, 'scheduled'),
    eq(termClasses.status, 'active'),
    isNull(termClasses.archivedAt),
    gte(classSessions.date, r.today),
    or(
      ...credits.map((c) =>
        and(
          eq(termClasses.classTypeId, c.classTypeId),
          sql`${classLevel} is not distinct from ${c.level}`,
          lte(classSessions.date, c.until),
        ),
      ),
    ),
  );
  const now = Date.now();
  const future = candidates.filter((s) => startsAt(s, r.timeZone) > now);
  if (future.length === 0) return [];
  const mine = await db
    .select({
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
        eq(classEnrolments.childId, childId),
        inArray(classEnrolments.status, ['active', 'pending']),
      ),
    );
  const inIt = (s: SessionRow) =>
    mine.some((p) =>
      p.kind === 'enrolled'
        ? p.termClassId === s.termClassId &&
          (p.startsOn === null || p.startsOn <= s.date) &&
          (p.withdrawnFrom === null || p.withdrawnFrom > s.date)
        : p.sessionId === s.id,
    );
  const open = future.filter((s) => !inIt(s)).slice(0, 60);
  const [left, coaches, venues] = await Promise.all([
    sessionPlacesLeft(db, tenant, open),
    namesOfCoaches(
      db,
      tenant,
      open.flatMap((s) => (s.coachId ? [s.coachId] : [])),
    ),
    venueNames(
      db,
      tenant,
      open.map((s) => s.venueId),
    ),
  ]);
  return open.flatMap((s) => {
    const places = left.get(s.id) ?? 0;
    if (places <= 0) return [];
    return [
      {
        session_id: s.id,
        class_name: s.className,
        date: s.date,
        start_time: hhmm(s.startTime),
        end_time: endTime(s.startTime, s.durationMinutes),
        venue: s.venueId ? (venues.get(s.venueId) ?? null) : null,
        coach: s.coachId ? coaches.get(s.coachId) || null : null,
        places_left: places,
      },
    ];
  });
}

/**
 * Books a makeup place with the earliest-expiring usable credit: one transaction that locks the
 * session's class, counts its places with the same transaction, then writes the place and marks
 * the credit (locked) used. Two families racing for the last place: one gets it, the other is told
 * the session is full.
 */
export async function bookMakeup(
  db: Db,
  parent: Parent,
  input: { childId: number; sessionId: number },
  now = Date.now(),
): Promise<FormResponse> {
  const { tenant } = parent;
  await assertOwnChildren(db, tenant, parent.userId, [input.childId]);
  const session = await sessionOf(db, tenant, input.sessionId);
  const r = await rules(db, tenant);
  if (
    session.status !== 'scheduled' ||
    session.classStatus !== 'active' ||
    session.classArchivedAt !== null ||
    startsAt(session, r.timeZone) <= now
  )
    return refused(makeupMessages.unavailable, 'session_id');
  return db.transaction(async (tx) => {
    await lockClasses(tx, tenant, [session.termClassId]);
    if (await placeIn(tx, tenant, session, input.childId))
      return refused(makeupMessages.alreadyIn, 'session_id');
    const left = await sessionPlacesLeft(tx, tenant, [session]);
    if ((left.get(session.id) ?? 0) <= 0) return refused(makeupMessages.full, 'session_id');
    const [credit] = await tx
      .select({ id: makeupCredits.id })
      .from(makeupCredits)
      .where(
        tenant.where(
          makeupCredits,
          ...usable(input.childId, r.today),
          eq(makeupCredits.classTypeId, session.classTypeId),
          sql`${makeupCredits.level} is not distinct from ${session.level}`,
          gte(makeupCredits.expiresOn, session.date),
        ),
      )
      .orderBy(asc(makeupCredits.expiresOn), asc(makeupCredits.id))
      .limit(1)
      .for('update');
    if (!credit) return refused(makeupMessages.noCredit, 'session_id');
    const [place] = await tx
      .insert(classEnrolments)
      .values(
        tenant.values({
          termClassId: session.termClassId,
          childId: input.childId,
          kind: 'makeup' as const,
          sessionId: session.id,
          status: 'active' as const,
        }),
      )
      .returning({ id: classEnrolments.id });
    await tx
      .update(makeupCredits)
      .set({ usedAt: sql`now()`, usedEnrolmentId: place!.id })
      .where(tenant.byId(makeupCredits, credit.id));
    return done(makeupMessages.makeupBooked);
  });
}

/** Cancels a makeup place before the cutoff; its credit comes back (with its own expiry). */
export async function cancelMakeup(
  db: Db,
  parent: Parent,
  enrolmentId: number,
  now = Date.now(),
): Promise<FormResponse> {
  const { tenant } = parent;
  const [place] = await db
    .select({
      id: classEnrolments.id,
      childId: classEnrolments.childId,
      sessionId: classEnrolments.sessionId,
      status: classEnrolments.status,
    })
    .from(classEnrolments)
    .where(tenant.byId(classEnrolments, enrolmentId, eq(classEnrolments.kind, 'makeup')));
  if (!place?.sessionId) throw new NotFoundError('That makeup could not be found.');
  await assertOwnChildren(db, tenant, parent.userId, [place.childId]);
  if (place.status !== 'active') return done(makeupMessages.makeupCancelled);
  const session = await sessionOf(db, tenant, place.sessionId);
  const r = await rules(db, tenant);
  if (!changeable(session, r, now)) return refused(makeupMessages.tooLate(r.cutoffHours));
  return db.transaction(async (tx) => {
    await lockClasses(tx, tenant, [session.termClassId]);
    const cancelled = await tx
      .update(classEnrolments)
      .set({ status: 'cancelled' })
      .where(tenant.byId(classEnrolments, place.id, eq(classEnrolments.status, 'active')))
      .returning({ id: classEnrolments.id });
    if (cancelled.length > 0)
      await tx
        .update(makeupCredits)
        .set({ usedAt: null, usedEnrolmentId: null })
        .where(tenant.where(makeupCredits, eq(makeupCredits.usedEnrolmentId, place.id)));
    return done(makeupMessages.makeupCancelled);
  });
}

async function venueNames(db: Db, tenant: Tenant, ids: (number | null)[]): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (const id of new Set(ids.filter((v): v is number => v !== null))) {
    const venue = await venueOf(db, tenant, id);
    if (venue) names.set(id, venue.name);
  }
  return names;
}

/**
 * The parent's "My classes": per child, the classes they are enrolled in (terms not yet over),
 * their next sessions with their state, and their credit wallet.
 */
export async function myClasses(db: Db, parent: Parent, now = Date.now()): Promise<MyClassesResponse> {
  const { tenant } = parent;
  const r = await rules(db, tenant);
  const kids = await childrenByIds(
    db,
    tenant,
    (await childIdsOfParents(db, tenant, [parent.userId])).get(parent.userId) ?? [],
  );
  const childIds = kids.map((k) => k.id);
  if (childIds.length === 0) return { today: r.today, cutoff_hours: r.cutoffHours, children: [] };

  const places = await db
    .select({
      id: classEnrolments.id,
      childId: classEnrolments.childId,
      termClassId: classEnrolments.termClassId,
      kind: classEnrolments.kind,
      sessionId: classEnrolments.sessionId,
      startsOn: classEnrolments.startsOn,
      withdrawnFrom: classEnrolments.withdrawnFrom,
      className: termClasses.name,
      classType: classTypes.name,
      level: classLevel,
      weekday: termClasses.weekday,
      startTime: termClasses.startTime,
      durationMinutes: termClasses.durationMinutes,
      venueId: termClasses.venueId,
      coachId: termClasses.leadCoachId,
      term: terms.name,
      termStart: terms.startDate,
      termEnd: terms.endDate,
    })
    .from(classEnrolments)
    .innerJoin(termClasses, tenant.where(termClasses, eq(termClasses.id, classEnrolments.termClassId)))
    .innerJoin(classTypes, tenant.where(classTypes, eq(classTypes.id, termClasses.classTypeId)))
    .innerJoin(terms, tenant.where(terms, eq(terms.id, termClasses.termId)))
    .where(
      tenant.where(
        classEnrolments,
        inArray(classEnrolments.childId, childIds),
        eq(classEnrolments.status, 'active'),
        gte(terms.endDate, r.today),
      ),
    )
    .orderBy(
      asc(terms.startDate),
      asc(termClasses.weekday),
      asc(termClasses.startTime),
      asc(classEnrolments.id),
    );

  const enrolled = places.filter(
    (p) => p.kind === 'enrolled' && (p.withdrawnFrom === null || p.withdrawnFrom > r.today),
  );
  const single = places.filter((p) => p.kind !== 'enrolled' && p.sessionId !== null);
  const sessions =
    places.length === 0
      ? []
      : await sessionsWhere(
          db,
          tenant,
          gte(classSessions.date, r.today),
          or(
            enrolled.length > 0
              ? inArray(
                  classSessions.termClassId,
                  enrolled.map((p) => p.termClassId),
                )
              : undefined,
            single.length > 0
              ? inArray(
                  classSessions.id,
                  single.map((p) => p.sessionId!),
                )
              : undefined,
          ),
        );
  const marks =
    sessions.length === 0
      ? []
      : await db
          .select({ sessionId: attendance.sessionId, childId: attendance.childId, status: attendance.status })
          .from(attendance)
          .where(
            tenant.where(
              attendance,
              inArray(
                attendance.sessionId,
                sessions.map((s) => s.id),
              ),
              inArray(attendance.childId, childIds),
            ),
          );
  const [coaches, venues, wallet] = await Promise.all([
    namesOfCoaches(
      db,
      tenant,
      places.flatMap((p) => (p.coachId ? [p.coachId] : [])),
    ),
    venueNames(
      db,
      tenant,
      places.map((p) => p.venueId),
    ),
    walletOf(db, tenant, childIds, r.today),
  ]);
  const venueOfPlace = (venueId: number | null) => (venueId ? (venues.get(venueId) ?? null) : null);

  return {
    today: r.today,
    cutoff_hours: r.cutoffHours,
    children: kids.map((kid) => {
      const classes: MyClass[] = enrolled
        .filter((p) => p.childId === kid.id)
        .map((p) => ({
          enrolment_id: p.id,
          class_name: p.className,
          class_type: p.classType,
          level: p.level,
          weekday: p.weekday,
          start_time: hhmm(p.startTime),
          end_time: endTime(p.startTime, p.durationMinutes),
          venue: venueOfPlace(p.venueId),
          coach: p.coachId ? coaches.get(p.coachId) || null : null,
          term: p.term,
          term_start: p.termStart,
          term_end: p.termEnd,
        }));
      const upcoming: MySession[] = [];
      for (const s of sessions) {
        if (startsAt(s, r.timeZone) + s.durationMinutes * 60_000 <= now) continue;
        const place =
          enrolled.find(
            (p) =>
              p.childId === kid.id &&
              p.termClassId === s.termClassId &&
              (p.startsOn === null || p.startsOn <= s.date) &&
              (p.withdrawnFrom === null || p.withdrawnFrom > s.date),
          ) ?? single.find((p) => p.childId === kid.id && p.sessionId === s.id);
        if (!place) continue;
        const mark = marks.find((m) => m.sessionId === s.id && m.childId === kid.id);
        upcoming.push({
          session_id: s.id,
          enrolment_id: place.id,
          kind: place.kind,
          class_name: s.className,
          date: s.date,
          start_time: hhmm(s.startTime),
          end_time: endTime(s.startTime, s.durationMinutes),
          venue: venueOfPlace(s.venueId),
          state: s.status === 'cancelled' ? 'cancelled' : mark?.status === 'absent' ? 'absent' : 'coming',
          cancel_reason: s.status === 'cancelled' ? s.cancelReason : null,
          changeable: s.status === 'scheduled' && changeable(s, r, now),
        });
        if (upcoming.length >= UPCOMING_SESSIONS) break;
      }
      return {
        id: kid.id,
        first_name: kid.firstName,
        last_name: kid.lastName,
        classes,
        sessions: upcoming,
        credits: wallet.get(kid.id) ?? [],
      };
    }),
  };
}
