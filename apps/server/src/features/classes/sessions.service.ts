import type {
  ClassCopy,
  PlannedSession,
  SessionGeneration,
  TermGeneration,
} from '@tumble/contracts/class-sessions';
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { readTogether } from '../../platform/reads.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate, todayIn, zonedInstant } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { contactsByIds } from '../accounts/profile.service.ts';
import { namesOfCoaches, rosterProblem } from '../coaches/coaches.service.ts';
import { childrenByIds } from '../students/children.service.ts';
import { roomNames } from '../venues/room-names.service.ts';
import { restrictedDatesFor } from '../venues/venues.service.ts';
import {
  attendance,
  classEnrolments,
  classSessions,
  termClasses,
  termClosures,
  terms,
} from './classes.tables.ts';
import { creditCancelledSession } from './makeups.service.ts';
import {
  type Closure,
  closedOn,
  overlaps,
  restrictedOn,
  type Slot,
  sessionDates,
  slotText,
} from './session-dates.ts';

type TermClass = typeof termClasses.$inferSelect;
type Term = typeof terms.$inferSelect;
type Session = typeof classSessions.$inferSelect;

const hhmm = (time: string) => time.slice(0, 5);

/**
 * Serialises the writes that could double-book these rooms and coaches of the company: two staff
 * moving sessions onto the same room at the same moment check one after the other, each seeing
 * the other's committed change. Transaction-scoped advisory locks (two-int form, a key space
 * nothing else uses: company, then +room id / -coach id), taken in one fixed order so two callers
 * cannot deadlock. Call inside the transaction, before checking for clashes.
 */
export async function lockSchedule(tx: Db, tenant: Tenant, roomIds: number[], coachIds: number[]) {
  const keys = [...new Set([...roomIds.map((id) => id), ...coachIds.map((id) => -id)])].sort((a, b) => a - b);
  for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(${tenant.companyId}, ${key})`);
}

/** A scheduled session as the clash check sees it: when, where and who coaches (lead and assistants). */
export interface Booked extends Slot {
  id: number | null;
  termClassId: number;
  className: string;
  roomId: number | null;
  coachIds: number[];
}

/** The scheduled sessions of the company between two dates, with their classes' assistant coaches. */
async function bookedBetween(db: Db, tenant: Tenant, from: string, to: string): Promise<Booked[]> {
  const rows = await db
    .select({
      id: classSessions.id,
      termClassId: classSessions.termClassId,
      className: termClasses.name,
      date: classSessions.date,
      startTime: classSessions.startTime,
      durationMinutes: classSessions.durationMinutes,
      roomId: classSessions.roomId,
      coachId: classSessions.coachId,
      assistants: termClasses.assistantCoachIds,
    })
    .from(classSessions)
    .innerJoin(termClasses, tenant.where(termClasses, eq(termClasses.id, classSessions.termClassId)))
    .where(
      tenant.where(
        classSessions,
        eq(classSessions.status, 'scheduled'),
        gte(classSessions.date, from),
        lte(classSessions.date, to),
      ),
    );
  return rows.map(({ coachId, assistants, ...row }) => ({
    ...row,
    coachIds: [...(coachId ? [coachId] : []), ...assistants],
  }));
}

/** Names for rooms and coaches in messages, read once per call. */
interface Names {
  rooms: Map<number, string>;
  coaches: Map<number, string>;
}

async function namesFor(db: Db, tenant: Tenant, roomIds: number[], coachIds: number[]): Promise<Names> {
  const [rooms, coaches] = await readTogether(db, [
    () => roomNames(db, tenant, roomIds),
    () => namesOfCoaches(db, tenant, coachIds),
  ]);
  return { rooms, coaches };
}

/**
 * Why `planned` cannot happen beside the sessions already booked: the room or one of its coaches
 * has an overlapping scheduled session that day. Each message names the clash.
 */
function clashesOf(planned: Booked, booked: readonly Booked[], names: Names): string[] {
  const out: string[] = [];
  for (const other of booked) {
    if (other.id !== null && other.id === planned.id) continue;
    if (!overlaps(planned, other)) continue;
    if (planned.roomId !== null && other.roomId === planned.roomId)
      out.push(
        `${names.rooms.get(planned.roomId) ?? 'The room'} is already booked for ${other.className} on ${slotText(other)}.`,
      );
    for (const coachId of planned.coachIds)
      if (other.coachIds.includes(coachId))
        out.push(
          `${names.coaches.get(coachId) ?? 'The coach'} already coaches ${other.className} on ${slotText(other)}.`,
        );
  }
  return out;
}

async function termOf(db: Db, tenant: Tenant, termId: number): Promise<Term> {
  const [term] = await db.select().from(terms).where(tenant.byId(terms, termId));
  if (!term) throw new NotFoundError();
  return term;
}

async function closuresOf(db: Db, tenant: Tenant, termId: number) {
  return db
    .select({
      startDate: termClosures.startDate,
      endDate: termClosures.endDate,
      kind: termClosures.kind,
      reason: termClosures.reason,
    })
    .from(termClosures)
    .where(tenant.where(termClosures, eq(termClosures.termId, termId)))
    .orderBy(asc(termClosures.startDate));
}

/**
 * Restricted dates close classes as they close events: `all` and `events` ones (the restricted
 * dates resource offers events and parties only; classes follow events).
 */
const classRestrictedDates = (db: Db, tenant: Tenant) => restrictedDatesFor(db, tenant, 'events');

/** The dates a class meets in its term (for the roster check of the class form, and generation). */
export async function classDates(db: Db, tenant: Tenant, termId: number, weekday: number): Promise<string[]> {
  const [term, closures, restricted] = await readTogether(db, [
    () => termOf(db, tenant, termId),
    () => closuresOf(db, tenant, termId),
    () => classRestrictedDates(db, tenant),
  ]);
  return sessionDates(term, weekday, closures as Closure[], restricted);
}

/** Roster answers already asked in one call, by coach and day (a term's classes share coaches). */
export type RosterMemo = Map<string, Promise<string | null>>;

/** The coaches of a class who cannot be rostered on its first or last date, as messages. */
export async function coachProblems(
  db: Db,
  tenant: Tenant,
  coachIds: number[],
  dates: string[],
  memo: RosterMemo = new Map(),
) {
  // A check's only date-dependent rule is its expiry: clear on the first and the last date, clear
  // on every date between.
  const days = [...new Set([dates[0], dates.at(-1)])].filter((d): d is string => d !== undefined);
  const problems: string[] = [];
  for (const coachId of new Set(coachIds))
    for (const day of days) {
      const key = `${coachId}|${day}`;
      if (!memo.has(key)) memo.set(key, rosterProblem(db, tenant, coachId, day));
      const problem = await memo.get(key)!;
      if (problem) {
        problems.push(problem);
        break;
      }
    }
  return problems;
}

interface GenerationContext {
  timeZone: string;
  today: string;
  term: Term;
  closures: Closure[];
  restricted: { date: string; recurringYearly: boolean }[];
  /** Every scheduled session of the company in the term, plus sessions planned earlier in this call. */
  booked: Booked[];
  roster: RosterMemo;
  /** The sessions each class being generated has now, by class id. */
  existing: Map<number, Session[]>;
  /** Of those, the ones attendance or a single-session booking points at. */
  inUse: Set<number>;
  names: Names;
}

/** Everything generating these classes reads, in a few queries for the whole term. */
async function generationContext(
  db: Db,
  tenant: Tenant,
  term: Term,
  classes: TermClass[],
): Promise<GenerationContext> {
  const classIds = classes.map((c) => c.id);
  const [company, closures, restricted, booked, sessions] = await readTogether(db, [
    () => companyOf(db, tenant),
    () => closuresOf(db, tenant, term.id),
    () => classRestrictedDates(db, tenant),
    () => bookedBetween(db, tenant, term.startDate, term.endDate),
    () =>
      classIds.length === 0
        ? Promise.resolve([] as Session[])
        : db
            .select()
            .from(classSessions)
            .where(tenant.where(classSessions, inArray(classSessions.termClassId, classIds)))
            .orderBy(asc(classSessions.slotDate)),
  ]);
  const existing = new Map<number, Session[]>();
  for (const session of sessions)
    existing.set(session.termClassId, [...(existing.get(session.termClassId) ?? []), session]);
  const ids = sessions.map((s) => s.id);
  const inUse = new Set<number>();
  if (ids.length > 0) {
    const marked = await db
      .selectDistinct({ id: attendance.sessionId })
      .from(attendance)
      .where(tenant.where(attendance, inArray(attendance.sessionId, ids)));
    const single = await db
      .selectDistinct({ id: classEnrolments.sessionId })
      .from(classEnrolments)
      .where(tenant.where(classEnrolments, inArray(classEnrolments.sessionId, ids)));
    for (const row of [...marked, ...single]) if (row.id !== null) inUse.add(row.id);
  }
  const names = await namesFor(
    db,
    tenant,
    [...classes.map((c) => c.roomId), ...sessions.map((s) => s.roomId)].filter(
      (id): id is number => id !== null,
    ),
    [
      ...classes.flatMap((c) => [c.leadCoachId, ...c.assistantCoachIds]),
      ...sessions.map((s) => s.coachId),
    ].filter((id): id is number => id !== null),
  );
  return {
    timeZone: company.timeZone,
    today: todayIn(company.timeZone),
    term,
    closures: closures as Closure[],
    restricted,
    booked,
    roster: new Map(),
    existing,
    inUse,
    names,
  };
}

/** The difference for one class, and the rows it would write; nothing is written here. */
async function diffOf(db: Db, tenant: Tenant, ctx: GenerationContext, termClass: TermClass) {
  const running = termClass.status === 'active' && termClass.archivedAt === null;
  const wanted = running ? sessionDates(ctx.term, termClass.weekday, ctx.closures, ctx.restricted) : [];
  const existing = ctx.existing.get(termClass.id) ?? [];
  const { inUse, names } = ctx;
  const target = {
    startTime: hhmm(termClass.startTime),
    durationMinutes: termClass.durationMinutes,
    roomId: termClass.roomId,
    coachId: termClass.leadCoachId,
  };
  const same = (s: Session) =>
    hhmm(s.startTime) === target.startTime &&
    s.durationMinutes === target.durationMinutes &&
    s.roomId === target.roomId &&
    s.coachId === target.coachId;

  const wantedSet = new Set(wanted);
  const have = new Set(existing.map((s) => s.slotDate));
  type Plan = typeof target & { id: number | null; date: string };
  const add: Plan[] = wanted.filter((d) => !have.has(d)).map((date) => ({ id: null, date, ...target }));
  const update: Plan[] = [];
  const remove: Session[] = [];
  const unchanged: Session[] = [];
  const kept: (Session & { why: 'edited' | 'past' | 'in_use' })[] = [];
  for (const s of existing) {
    if (s.editedAt) kept.push({ ...s, why: 'edited' });
    else if (wantedSet.has(s.slotDate)) {
      if (same(s)) unchanged.push(s);
      else if (s.date < ctx.today) kept.push({ ...s, why: 'past' });
      else update.push({ id: s.id, date: s.date, ...target });
    } else if (s.date < ctx.today) kept.push({ ...s, why: 'past' });
    else if (inUse.has(s.id)) kept.push({ ...s, why: 'in_use' });
    else remove.push(s);
  }

  // Clashes with other classes' sessions (and those planned earlier in this call), and coaches.
  const planned: Booked[] = [...add, ...update].map((p) => ({
    ...p,
    termClassId: termClass.id,
    className: termClass.name,
    coachIds: [...(p.coachId ? [p.coachId] : []), ...termClass.assistantCoachIds],
  }));
  const others = ctx.booked.filter((b) => b.termClassId !== termClass.id);
  const problems = [
    ...new Set([
      ...planned.flatMap((p) => clashesOf(p, others, names)),
      ...(await coachProblems(
        db,
        tenant,
        planned[0]?.coachIds ?? [],
        planned.map((p) => p.date).sort(),
        ctx.roster,
      )),
    ]),
  ];

  const shown = (s: {
    id: number | null;
    date: string;
    startTime: string;
    durationMinutes: number;
    roomId: number | null;
    coachId: number | null;
  }): PlannedSession => ({
    id: s.id,
    date: s.date,
    start_time: hhmm(s.startTime),
    duration_minutes: s.durationMinutes,
    starts_at: zonedInstant(s.date, hhmm(s.startTime), ctx.timeZone).toISOString(),
    room: s.roomId === null ? null : (names.rooms.get(s.roomId) ?? null),
    coach: s.coachId === null ? null : (names.coaches.get(s.coachId) ?? null),
  });
  const diff: SessionGeneration = {
    term_class: { id: termClass.id, name: termClass.name },
    add: add.map(shown),
    update: update.map(shown),
    remove: remove.map(shown),
    unchanged: unchanged.map(shown),
    kept: kept.map((k) => ({ ...shown(k), why: k.why })),
    problems,
  };
  return { diff, add, update, remove, planned };
}

async function classOf(db: Db, tenant: Tenant, id: number, lock = false): Promise<TermClass> {
  const query = db.select().from(termClasses).where(tenant.byId(termClasses, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new NotFoundError();
  return row;
}

async function classesOfTerm(db: Db, tenant: Tenant, termId: number, lock = false) {
  const query = db
    .select()
    .from(termClasses)
    .where(tenant.where(termClasses, eq(termClasses.termId, termId)))
    .orderBy(asc(termClasses.id));
  return lock ? query.for('update') : query;
}

/** Runs the generation of these classes: a preview (`apply` false) or the same difference written. */
async function generate(
  db: Db,
  tenant: Tenant,
  term: Term,
  classes: TermClass[],
  apply: boolean,
): Promise<SessionGeneration[]> {
  if (apply) {
    const rooms = classes.map((c) => c.roomId).filter((id): id is number => id !== null);
    const coaches = classes.flatMap((c) => [
      ...(c.leadCoachId ? [c.leadCoachId] : []),
      ...c.assistantCoachIds,
    ]);
    await lockSchedule(db, tenant, rooms, coaches);
  }
  const ctx = await generationContext(db, tenant, term, classes);
  const results: Awaited<ReturnType<typeof diffOf>>[] = [];
  for (const termClass of classes) {
    const result = await diffOf(db, tenant, ctx, termClass);
    results.push(result);
    // Later classes of the same call must not clash with these either.
    ctx.booked = [
      ...ctx.booked.filter(
        (b) => !(b.termClassId === termClass.id && result.remove.some((r) => r.id === b.id)),
      ),
      ...result.planned,
    ];
  }
  if (!apply) return results.map((r) => r.diff);
  const problems = results.flatMap((r) =>
    r.diff.problems.map((p) => (classes.length > 1 ? `${r.diff.term_class.name}: ${p}` : p)),
  );
  if (problems.length > 0) throw new ConflictError(problems.join('\n'));
  const removed = results.flatMap((r) => r.remove.map((s) => s.id));
  if (removed.length > 0)
    await db.delete(classSessions).where(tenant.where(classSessions, inArray(classSessions.id, removed)));
  for (const u of results.flatMap((r) => r.update))
    await db
      .update(classSessions)
      .set({
        startTime: u.startTime,
        durationMinutes: u.durationMinutes,
        roomId: u.roomId,
        coachId: u.coachId,
      })
      .where(tenant.byId(classSessions, u.id!));
  const added = results.flatMap((r, i) =>
    r.add.map((a) =>
      tenant.values({
        termClassId: classes[i]!.id,
        slotDate: a.date,
        date: a.date,
        startTime: a.startTime,
        durationMinutes: a.durationMinutes,
        roomId: a.roomId,
        coachId: a.coachId,
      }),
    ),
  );
  // In chunks: one statement's parameters are limited (65,535).
  for (let at = 0; at < added.length; at += 1000)
    await db.insert(classSessions).values(added.slice(at, at + 1000));
  return results.map((r) => r.diff);
}

/** The difference regenerating one class's sessions would make. */
export async function previewClassSessions(db: Db, tenant: Tenant, termClassId: number) {
  const termClass = await classOf(db, tenant, termClassId);
  const [diff] = await generate(db, tenant, await termOf(db, tenant, termClass.termId), [termClass], false);
  return diff!;
}

/** Makes the preview's difference in one transaction, or refuses with the problems. */
export async function applyClassSessions(db: Db, tenant: Tenant, termClassId: number) {
  return db.transaction(async (tx) => {
    const termClass = await classOf(tx, tenant, termClassId, true);
    const [diff] = await generate(tx, tenant, await termOf(tx, tenant, termClass.termId), [termClass], true);
    return diff!;
  });
}

export async function previewTermSessions(db: Db, tenant: Tenant, termId: number): Promise<TermGeneration> {
  const term = await termOf(db, tenant, termId);
  const classes = await classesOfTerm(db, tenant, termId);
  return {
    term: { id: term.id, name: term.name },
    classes: await generate(db, tenant, term, classes, false),
  };
}

export async function applyTermSessions(db: Db, tenant: Tenant, termId: number): Promise<TermGeneration> {
  return db.transaction(async (tx) => {
    const term = await termOf(tx, tenant, termId);
    const classes = await classesOfTerm(tx, tenant, termId, true);
    return {
      term: { id: term.id, name: term.name },
      classes: await generate(tx, tenant, term, classes, true),
    };
  });
}

/** The scheduled sessions of these classes, in date and time order. */
export async function scheduledSessionsOf(db: Db, tenant: Tenant, termClassIds: number[]) {
  if (termClassIds.length === 0) return [];
  return db
    .select({
      id: classSessions.id,
      termClassId: classSessions.termClassId,
      date: classSessions.date,
      startTime: classSessions.startTime,
      durationMinutes: classSessions.durationMinutes,
    })
    .from(classSessions)
    .where(
      tenant.where(
        classSessions,
        inArray(classSessions.termClassId, termClassIds),
        eq(classSessions.status, 'scheduled'),
      ),
    )
    .orderBy(asc(classSessions.date), asc(classSessions.startTime));
}

/** The date of the class's first scheduled session on or after `from`; null when none is left. */
export async function nextSessionDate(db: Db, tenant: Tenant, termClassId: number, from: string) {
  const [session] = await db
    .select({ date: classSessions.date })
    .from(classSessions)
    .where(
      tenant.where(
        classSessions,
        eq(classSessions.termClassId, termClassId),
        eq(classSessions.status, 'scheduled'),
        gte(classSessions.date, from),
      ),
    )
    .orderBy(asc(classSessions.date))
    .limit(1);
  return session?.date ?? null;
}

async function sessionOf(tx: Db, tenant: Tenant, sessionId: number) {
  const [session] = await tx
    .select()
    .from(classSessions)
    .where(tenant.byId(classSessions, sessionId))
    .for('update');
  if (!session) throw new NotFoundError();
  return session;
}

export interface SessionMove {
  date?: string | null;
  startTime?: string | null;
  roomId?: number | null;
  coachId?: number | null;
}

/**
 * Moves one session (date, time, room, coach; a value left out stays), marking it edited by hand so
 * regeneration keeps it. Refused with a message when the new date is outside the term or a closure,
 * the coach cannot be rostered that day, or the room or a coach already has an overlapping session.
 * Call inside a transaction.
 */
export async function moveSession(
  tx: Db,
  tenant: Tenant,
  sessionId: number,
  move: SessionMove,
): Promise<string> {
  const session = await sessionOf(tx, tenant, sessionId);
  if (session.status === 'cancelled') throw new BadRequestError('A cancelled session cannot be moved.');
  const termClass = await classOf(tx, tenant, session.termClassId);
  const term = await termOf(tx, tenant, termClass.termId);
  const next = {
    date: move.date ?? session.date,
    startTime: hhmm(move.startTime ?? session.startTime),
    roomId: move.roomId ?? session.roomId,
    coachId: move.coachId ?? session.coachId,
  };
  if (next.date < term.startDate || next.date > term.endDate)
    throw new BadRequestError(
      `Choose a date within ${term.name} (${displayDate(term.startDate)} to ${displayDate(term.endDate)}).`,
    );
  const closures = await closuresOf(tx, tenant, term.id);
  const closure = closures.find((c) => closedOn(next.date, [c as Closure]));
  if (closure)
    throw new BadRequestError(`${term.name} is closed on ${displayDate(next.date)} (${closure.reason}).`);
  if (restrictedOn(next.date, await classRestrictedDates(tx, tenant)))
    throw new BadRequestError(`${displayDate(next.date)} is a restricted date.`);
  if (next.roomId !== null && !(await roomNames(tx, tenant, [next.roomId])).has(next.roomId))
    throw new BadRequestError('Choose a room of this company.');
  if (next.coachId !== null) {
    const problem = await rosterProblem(tx, tenant, next.coachId, next.date);
    if (problem) throw new BadRequestError(problem);
  }
  const coachIds = [...(next.coachId ? [next.coachId] : []), ...termClass.assistantCoachIds];
  await lockSchedule(tx, tenant, next.roomId ? [next.roomId] : [], coachIds);
  const booked = await bookedBetween(tx, tenant, next.date, next.date);
  const planned: Booked = {
    id: session.id,
    termClassId: termClass.id,
    className: termClass.name,
    date: next.date,
    startTime: next.startTime,
    durationMinutes: session.durationMinutes,
    roomId: next.roomId,
    coachIds,
  };
  const names = await namesFor(tx, tenant, next.roomId ? [next.roomId] : [], coachIds);
  const clashes = clashesOf(planned, booked, names);
  if (clashes.length > 0) throw new ConflictError(clashes.join('\n'));
  await tx
    .update(classSessions)
    .set({ ...next, editedAt: sql`now()` })
    .where(tenant.byId(classSessions, session.id));
  return `The session has been moved to ${slotText(planned)}.`;
}

/**
 * Cancels one session with a reason and mails the families of the children expected at it
 * (enrolled in the class by then, or booked into this session). Returns how many mails were
 * queued; nudge the mail queue after commit. Call inside a transaction.
 */
export async function cancelSession(
  tx: Db,
  tenant: Tenant,
  config: Config,
  sessionId: number,
  reason: string,
): Promise<number> {
  const session = await sessionOf(tx, tenant, sessionId);
  if (session.status === 'cancelled') throw new BadRequestError('This session is already cancelled.');
  if (!reason.trim()) throw new BadRequestError('Please give a reason.');
  const termClass = await classOf(tx, tenant, session.termClassId);
  await tx
    .update(classSessions)
    .set({ status: 'cancelled', cancelReason: reason.trim(), editedAt: sql`now()` })
    .where(tenant.byId(classSessions, session.id));
  const expected = await tx
    .select({ childId: classEnrolments.childId })
    .from(classEnrolments)
    .where(
      tenant.where(
        classEnrolments,
        eq(classEnrolments.termClassId, termClass.id),
        eq(classEnrolments.status, 'active'),
        or(
          and(
            eq(classEnrolments.kind, 'enrolled'),
            or(isNull(classEnrolments.startsOn), lte(classEnrolments.startsOn, session.date)),
            or(isNull(classEnrolments.withdrawnFrom), gt(classEnrolments.withdrawnFrom, session.date)),
          ),
          eq(classEnrolments.sessionId, session.id),
        ),
      ),
    );
  await creditCancelledSession(tx, tenant, {
    sessionId: session.id,
    termId: termClass.termId,
    classTypeId: termClass.classTypeId,
    childIds: expected.map((e) => e.childId),
    sessionDate: session.date,
  });
  const kids = await childrenByIds(
    tx,
    tenant,
    expected.map((e) => e.childId),
  );
  const byParent = new Map<number, string[]>();
  for (const child of kids)
    byParent.set(child.parentId, [...(byParent.get(child.parentId) ?? []), child.firstName]);
  const contacts = await contactsByIds(tx, tenant, [...byParent.keys()]);
  const company = await companyOf(tx, tenant);
  let mails = 0;
  for (const [parentId, names] of byParent) {
    const contact = contacts.get(parentId);
    if (!contact) continue;
    await queueMail(tx, tenant, config, 'class-session-cancelled', contact.email, {
      name: contact.fullName,
      company: company.name,
      class: termClass.name,
      children: names.join(', '),
      date: displayDate(session.date),
      time: hhmm(session.startTime),
      reason: reason.trim(),
    });
    mails++;
  }
  return mails;
}

/** The term before this one (the latest that starts earlier), or null. */
async function previousTerm(db: Db, tenant: Tenant, term: Term): Promise<Term | null> {
  const [previous] = await db
    .select()
    .from(terms)
    .where(
      tenant.where(
        terms,
        lt(terms.startDate, term.startDate),
        ne(terms.id, term.id),
        isNull(terms.archivedAt),
      ),
    )
    .orderBy(desc(terms.startDate), desc(terms.id))
    .limit(1);
  return previous ?? null;
}

/** A term classes may still be added to: not archived, not closed. */
export function termClosedProblem(term: Pick<Term, 'status' | 'archivedAt' | 'name'>): string | null {
  if (term.archivedAt) return `${term.name} is archived: choose another term.`;
  if (term.status === 'closed') return `${term.name} is closed: choose a term that is not closed.`;
  return null;
}

/**
 * The previous term's classes created again in this term (same type, weekday, time, room, coaches,
 * capacity): a preview, or (`apply`) the same classes created in one transaction. A class the term
 * already has (same type, weekday, time and room) is not copied twice; a coach who cannot be
 * rostered on the new term's first day is left off with a note.
 */
export async function copyPreviousTerm(
  db: Db,
  tenant: Tenant,
  termId: number,
  apply: boolean,
): Promise<ClassCopy> {
  const run = async (tx: Db): Promise<ClassCopy> => {
    const query = tx.select().from(terms).where(tenant.byId(terms, termId));
    const [term] = apply ? await query.for('update') : await query;
    if (!term) throw new NotFoundError();
    const closed = termClosedProblem(term);
    if (closed) throw new BadRequestError(closed);
    const from = await previousTerm(tx, tenant, term);
    const result: ClassCopy = {
      from: from ? { id: from.id, name: from.name } : null,
      to: { id: term.id, name: term.name },
      classes: [],
    };
    if (!from) return result;
    const [sources, present] = await readTogether(tx, [
      () =>
        tx
          .select()
          .from(termClasses)
          .where(
            tenant.where(
              termClasses,
              eq(termClasses.termId, from.id),
              eq(termClasses.status, 'active'),
              isNull(termClasses.archivedAt),
            ),
          )
          .orderBy(asc(termClasses.weekday), asc(termClasses.startTime), asc(termClasses.id)),
      () => classesOfTerm(tx, tenant, term.id),
    ]);
    const names = await namesFor(
      tx,
      tenant,
      sources.map((s) => s.roomId).filter((id): id is number => id !== null),
      sources.flatMap((s) => (s.leadCoachId ? [s.leadCoachId] : [])),
    );
    const cleared = new Map<number, string | null>();
    const problemOf = async (coachId: number) => {
      if (!cleared.has(coachId))
        cleared.set(coachId, await rosterProblem(tx, tenant, coachId, term.startDate));
      return cleared.get(coachId) ?? null;
    };
    for (const source of sources) {
      const exists = present.some(
        (p) =>
          p.archivedAt === null &&
          p.classTypeId === source.classTypeId &&
          p.weekday === source.weekday &&
          p.startTime === source.startTime &&
          p.roomId === source.roomId,
      );
      const notes: string[] = [];
      let lead = source.leadCoachId;
      if (lead) {
        const problem = await problemOf(lead);
        if (problem) {
          notes.push(`${problem} Copied without a lead coach.`);
          lead = null;
        }
      }
      const assistants: number[] = [];
      for (const id of source.assistantCoachIds) {
        const problem = await problemOf(id);
        if (problem) notes.push(`${problem} Left off the assistants.`);
        else assistants.push(id);
      }
      let newId: number | null = null;
      if (apply && !exists) {
        const { id: _id, companyId: _company, termId: _term, ...copied } = source;
        const [created] = await tx
          .insert(termClasses)
          .values(
            tenant.values({ ...copied, termId: term.id, leadCoachId: lead, assistantCoachIds: assistants }),
          )
          .returning({ id: termClasses.id });
        newId = created!.id;
      }
      result.classes.push({
        source_id: source.id,
        name: source.name,
        weekday: source.weekday,
        start_time: hhmm(source.startTime),
        room: source.roomId === null ? null : (names.rooms.get(source.roomId) ?? null),
        coach: lead === null ? null : (names.coaches.get(lead) ?? null),
        capacity: source.capacity,
        outcome: exists ? 'exists' : 'copy',
        note: exists || notes.length === 0 ? null : notes.join(' '),
        new_id: newId,
      });
    }
    return result;
  };
  return apply ? db.transaction(run) : run(db);
}
