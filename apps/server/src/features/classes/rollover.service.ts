import type {
  MyReEnrolment,
  RolloverItemState,
  RolloverOutcome,
  RolloverPlan,
  RolloverPlanItem,
  RolloverRequest,
  RolloverRun,
  TermRollovers,
} from '@tumble/contracts/rollover';
import { and, asc, desc, eq, gt, inArray, isNull, min, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { AppError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { randomToken } from '../../platform/secrets.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate, displayInstant, zonedInstant } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { contactsByIds } from '../accounts/profile.service.ts';
import { parentsWithUnpaidBookings } from '../bookings/unpaid-bookings.service.ts';
import { ageOn, childNames, childrenByIds } from '../students/children.service.ts';
import { lockClasses, placesLeft, takesPlace } from './capacity.service.ts';
import { classEnrolments, classSessions, classTypes, termClasses, terms } from './classes.tables.ts';
import { parentsWithUnpaidPurchases } from './enrolment-purchases.service.ts';
import { acceptLink } from './holds.service.ts';
import { rolloverItems, rollovers } from './rollover.tables.ts';
import { termClosedProblem } from './sessions.service.ts';

/**
 * Re-enrolment (SPEC students/re-enroll, decision 013): every enrolled place of term A that runs to
 * A's end is held in the class of term B with the same class type, weekday and start time, until a
 * deadline staff choose (the priority window). The family confirms through the accept page (the one
 * checkout, with the hold's token) or releases; the holds job releases what is left at the deadline.
 *
 * The dry run and the commit are one computation (`rollBatch`), so they cannot disagree: the
 * commit only adds the class locks and the writes. A place is rolled into a term once while its run
 * is live (unique index), so committing again holds nothing twice; it resumes an interrupted run.
 */

/** Items written per transaction: small enough that checkouts waiting for a class lock wait little. */
const BATCH = 250;

const WEEKDAYS = ['', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'];

export const SAME_TERM = 'Please choose another term to roll into.';
export const DEADLINE_PAST = 'The deadline must be in the future.';
export const DEADLINE_AFTER_TERM = 'The deadline must be before the end of the term you roll into.';
export const STILL_RUNNING = 'This rollover is still running. Please wait until it has finished.';
export const ALREADY_UNDONE = 'This rollover has already been undone.';
export const WINDOW_ENDED = 'The deadline has passed, so this rollover can no longer be undone.';

type Term = typeof terms.$inferSelect;

interface ClassInfo {
  id: number;
  name: string;
  weekday: number;
  startTime: string;
  classTypeId: number;
  venueId: number | null;
  ageMinMonths: number | null;
  ageMaxMonths: number | null;
  /** The class's first scheduled session in term B (the term's start when it has none yet). */
  firstDate: string;
}

interface Source {
  enrolmentId: number;
  childId: number;
  fromClass: ClassInfo;
}

/** An enrolment of term A with where it goes; `to` is null when no class of B matches. */
interface Candidate extends Source {
  childName: string;
  parentId: number;
  to: ClassInfo | null;
  /** Known before counting places; null: it would be held if its class has room. */
  conflict: Exclude<RolloverOutcome, 'hold' | 'full'> | null;
}

const hhmm = (time: string) => time.slice(0, 5);
const classRef = (c: ClassInfo) => ({
  id: c.id,
  name: c.name,
  weekday: c.weekday,
  start_time: hhmm(c.startTime),
});

async function termOrNotFound(db: Db, tenant: Tenant, id: number): Promise<Term> {
  const [term] = await db.select().from(terms).where(tenant.byId(terms, id));
  if (!term) throw new NotFoundError('That term could not be found.');
  return term;
}

/** The classes of a term with their age range (the class's own, else its type's) and first session date. */
async function classesOf(db: Db, tenant: Tenant, term: Term, activeOnly: boolean): Promise<ClassInfo[]> {
  const rows = await db
    .select({
      id: termClasses.id,
      name: termClasses.name,
      weekday: termClasses.weekday,
      startTime: termClasses.startTime,
      classTypeId: termClasses.classTypeId,
      venueId: termClasses.venueId,
      ageMinMonths: sql<number | null>`coalesce(${termClasses.ageMinMonths}, ${classTypes.ageMinMonths})`,
      ageMaxMonths: sql<number | null>`coalesce(${termClasses.ageMaxMonths}, ${classTypes.ageMaxMonths})`,
    })
    .from(termClasses)
    .innerJoin(
      classTypes,
      and(eq(classTypes.id, termClasses.classTypeId), eq(classTypes.companyId, termClasses.companyId)),
    )
    .where(
      tenant.where(
        termClasses,
        eq(termClasses.termId, term.id),
        activeOnly ? eq(termClasses.status, 'active') : undefined,
        activeOnly ? isNull(termClasses.archivedAt) : undefined,
      ),
    )
    .orderBy(asc(termClasses.id));
  if (rows.length === 0) return [];
  const firsts = await db
    .select({ termClassId: classSessions.termClassId, first: min(classSessions.date) })
    .from(classSessions)
    .where(
      tenant.where(
        classSessions,
        inArray(
          classSessions.termClassId,
          rows.map((r) => r.id),
        ),
        eq(classSessions.status, 'scheduled'),
      ),
    )
    .groupBy(classSessions.termClassId);
  const firstOf = new Map(firsts.map((f) => [f.termClassId, f.first]));
  return rows.map((r) => ({ ...r, firstDate: firstOf.get(r.id) ?? term.startDate }));
}

/** Of B's classes with the same type, weekday and start time: the one at the same venue, then by name, then the oldest. */
function matchOf(from: ClassInfo, targets: ClassInfo[]): ClassInfo | null {
  const same = targets.filter(
    (t) => t.classTypeId === from.classTypeId && t.weekday === from.weekday && t.startTime === from.startTime,
  );
  const rank = (t: ClassInfo) => (t.venueId === from.venueId ? 0 : 2) + (t.name === from.name ? 0 : 1);
  return same.sort((a, b) => rank(a) - rank(b) || a.id - b.id)[0] ?? null;
}

/** A child too young or too old for the class on its first session. */
function agesOut(dob: string, to: ClassInfo): boolean {
  const { years, months } = ageOn(dob, to.firstDate);
  const age = years * 12 + months;
  return (
    (to.ageMinMonths !== null && age < to.ageMinMonths) || (to.ageMaxMonths !== null && age > to.ageMaxMonths)
  );
}

/**
 * Every enrolled place of term A that runs to A's end, mapped to term B, with the conflicts known
 * before counting places (in enrolment order, the order places are given in).
 */
async function candidatesOf(db: Db, tenant: Tenant, from: Term, to: Term): Promise<Candidate[]> {
  const [fromClasses, toClasses] = await Promise.all([
    classesOf(db, tenant, from, false),
    classesOf(db, tenant, to, true),
  ]);
  if (fromClasses.length === 0) return [];
  const fromById = new Map(fromClasses.map((c) => [c.id, c]));
  const sources = await db
    .select({
      enrolmentId: classEnrolments.id,
      childId: classEnrolments.childId,
      classId: classEnrolments.termClassId,
    })
    .from(classEnrolments)
    .where(
      tenant.where(
        classEnrolments,
        inArray(classEnrolments.termClassId, [...fromById.keys()]),
        eq(classEnrolments.kind, 'enrolled'),
        eq(classEnrolments.status, 'active'),
        or(isNull(classEnrolments.withdrawnFrom), gt(classEnrolments.withdrawnFrom, from.endDate)),
      ),
    )
    .orderBy(asc(classEnrolments.id));
  if (sources.length === 0) return [];

  const toIds = toClasses.map((c) => c.id);
  const [kids, held, placed] = await Promise.all([
    childrenByIds(
      db,
      tenant,
      sources.map((s) => s.childId),
    ),
    db
      .select({ fromEnrolmentId: rolloverItems.fromEnrolmentId, toClassId: rolloverItems.toClassId })
      .from(rolloverItems)
      .where(tenant.where(rolloverItems, eq(rolloverItems.toTermId, to.id), isNull(rolloverItems.undoneAt))),
    toIds.length === 0
      ? Promise.resolve([])
      : db
          .select({ childId: classEnrolments.childId, classId: classEnrolments.termClassId })
          .from(classEnrolments)
          .where(
            tenant.where(
              classEnrolments,
              inArray(classEnrolments.termClassId, toIds),
              eq(classEnrolments.kind, 'enrolled'),
              takesPlace(),
            ),
          ),
  ]);
  const childById = new Map(kids.map((k) => [k.id, k]));
  const parentIds = kids.map((k) => k.parentId);
  const [unpaidClasses, unpaidEvents] = await Promise.all([
    parentsWithUnpaidPurchases(db, tenant, parentIds),
    parentsWithUnpaidBookings(db, tenant, parentIds),
  ]);
  const unpaid = new Set([...unpaidClasses, ...unpaidEvents]);
  const heldTo = new Map(held.map((h) => [h.fromEnrolmentId, h.toClassId]));
  const toById = new Map(toClasses.map((c) => [c.id, c]));
  const inClass = new Set(placed.map((p) => `${p.childId}:${p.classId}`));

  return sources.map((s) => {
    const child = childById.get(s.childId)!;
    const fromClass = fromById.get(s.classId)!;
    const base = {
      enrolmentId: s.enrolmentId,
      childId: s.childId,
      childName: `${child.firstName} ${child.lastName}`,
      parentId: child.parentId,
      fromClass,
    };
    const heldIn = heldTo.get(s.enrolmentId);
    if (heldIn !== undefined)
      return { ...base, to: toById.get(heldIn) ?? null, conflict: 'already_held' as const };
    const target = matchOf(fromClass, toClasses);
    const conflict = !target
      ? ('not_offered' as const)
      : inClass.has(`${s.childId}:${target.id}`)
        ? ('already_enrolled' as const)
        : agesOut(child.dob, target)
          ? ('ages_out' as const)
          : unpaid.has(child.parentId)
            ? ('unpaid' as const)
            : null;
    return { ...base, to: target, conflict };
  });
}

/** The places still to give, grouped so that each class's places are counted in one batch. */
function batchesOf(open: Candidate[]): Candidate[][] {
  const byClass = new Map<number, Candidate[]>();
  for (const c of open) byClass.set(c.to!.id, [...(byClass.get(c.to!.id) ?? []), c]);
  const batches: Candidate[][] = [];
  let batch: Candidate[] = [];
  for (const group of byClass.values()) {
    if (batch.length > 0 && batch.length + group.length > BATCH) {
      batches.push(batch);
      batch = [];
    }
    batch.push(...group);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

interface Writing {
  rolloverId: number;
  toTermId: number;
  deadline: Date;
  /** The family's token in this run (one link for all their places), filled as families appear. */
  tokens: Map<number, string>;
}

/**
 * One batch: counts the places left in its classes and gives them in enrolment order; a class
 * without room answers `full`. With `writing`, it first locks the classes (so nobody takes a place
 * between the count and the write), skips places another run of the same pair held meanwhile, and
 * writes a pending place (held for the rollover until the deadline) and its item per place.
 */
async function rollBatch(
  tx: Db,
  tenant: Tenant,
  batch: Candidate[],
  toTerm: Term,
  writing: Writing | null,
): Promise<{ candidate: Candidate; outcome: RolloverOutcome }[]> {
  const classIds = [...new Set(batch.map((c) => c.to!.id))];
  let open = batch;
  if (writing) {
    await lockClasses(tx, tenant, classIds);
    const taken = await tx
      .select({ id: rolloverItems.fromEnrolmentId })
      .from(rolloverItems)
      .where(
        tenant.where(
          rolloverItems,
          eq(rolloverItems.toTermId, writing.toTermId),
          isNull(rolloverItems.undoneAt),
          inArray(
            rolloverItems.fromEnrolmentId,
            batch.map((c) => c.enrolmentId),
          ),
        ),
      );
    const gone = new Set(taken.map((t) => t.id));
    open = batch.filter((c) => !gone.has(c.enrolmentId));
  }
  const left = await placesLeft(tx, tenant, classIds, toTerm.startDate);
  const decided = open.map((candidate) => {
    const free = left.get(candidate.to!.id) ?? 0;
    if (free <= 0) return { candidate, outcome: 'full' as const };
    left.set(candidate.to!.id, free - 1);
    return { candidate, outcome: 'hold' as const };
  });
  if (writing) {
    const holds = decided.filter((d) => d.outcome === 'hold').map((d) => d.candidate);
    if (holds.length > 0) {
      for (const h of holds)
        if (!writing.tokens.has(h.parentId)) writing.tokens.set(h.parentId, randomToken(24));
      const places = await tx
        .insert(classEnrolments)
        .values(
          holds.map((h) =>
            tenant.values({
              termClassId: h.to!.id,
              childId: h.childId,
              kind: 'enrolled' as const,
              startsOn: h.to!.firstDate,
              status: 'pending' as const,
              holdExpiresAt: writing.deadline,
              heldFor: 'rollover' as const,
              holdToken: writing.tokens.get(h.parentId)!,
            }),
          ),
        )
        .returning({ id: classEnrolments.id });
      await tx.insert(rolloverItems).values(
        holds.map((h, i) =>
          tenant.values({
            rolloverId: writing.rolloverId,
            fromEnrolmentId: h.enrolmentId,
            toEnrolmentId: places[i]!.id,
            toTermId: writing.toTermId,
            toClassId: h.to!.id,
            childId: h.childId,
            parentId: h.parentId,
            holdToken: writing.tokens.get(h.parentId)!,
          }),
        ),
      );
    }
    await tx
      .update(rollovers)
      .set({ done: sql`${rollovers.done} + ${batch.length}` })
      .where(tenant.byId(rollovers, writing.rolloverId));
  }
  return decided;
}

async function termsOfRequest(db: Db, tenant: Tenant, fromTermId: number, input: RolloverRequest) {
  const from = await termOrNotFound(db, tenant, fromTermId);
  const to = await termOrNotFound(db, tenant, input.to_term_id);
  if (from.id === to.id) throw new AppError(400, SAME_TERM);
  const closed = termClosedProblem(to);
  if (closed) throw new AppError(400, closed);
  const { timeZone } = await companyOf(db, tenant);
  const deadline = zonedInstant(input.deadline_date, input.deadline_time, timeZone);
  if (deadline.getTime() <= Date.now()) throw new AppError(400, DEADLINE_PAST);
  if (input.deadline_date > to.endDate) throw new AppError(400, DEADLINE_AFTER_TERM);
  return { from, to, deadline, timeZone };
}

function planItem(c: Candidate, outcome: RolloverOutcome): RolloverPlanItem {
  return {
    enrolment_id: c.enrolmentId,
    child: { id: c.childId, name: c.childName },
    from_class: classRef(c.fromClass),
    to_class: c.to ? classRef(c.to) : null,
    outcome,
  };
}

/** The dry run: what committing now would do, enrolment by enrolment. Writes nothing. */
export async function previewRollover(
  db: Db,
  tenant: Tenant,
  fromTermId: number,
  input: RolloverRequest,
): Promise<RolloverPlan> {
  const { from, to, deadline, timeZone } = await termsOfRequest(db, tenant, fromTermId, input);
  const candidates = await candidatesOf(db, tenant, from, to);
  const outcomes = new Map<number, RolloverOutcome>();
  for (const c of candidates) if (c.conflict) outcomes.set(c.enrolmentId, c.conflict);
  for (const batch of batchesOf(candidates.filter((c) => !c.conflict))) {
    // Read-only: the same count as the commit, without its locks (a preview never blocks a checkout).
    const decided = await db.transaction((tx) => rollBatch(tx, tenant, batch, to, null));
    for (const d of decided) outcomes.set(d.candidate.enrolmentId, d.outcome);
  }
  const items = candidates.map((c) => planItem(c, outcomes.get(c.enrolmentId)!));
  const count = (o: RolloverOutcome) => items.filter((i) => i.outcome === o).length;
  return {
    from: { id: from.id, name: from.name },
    to: { id: to.id, name: to.name },
    deadline: deadline.toISOString(),
    deadline_display: displayInstant(deadline, timeZone),
    items,
    totals: {
      enrolments: items.length,
      hold: count('hold'),
      already_held: count('already_held'),
      conflicts: items.length - count('hold') - count('already_held'),
    },
  };
}

/**
 * Commits: one run per pair of terms (a live one is resumed, keeping its deadline), then the places
 * in batches, each its own locking transaction that advances `done`; then one mail per family with
 * new places. Returns at once with the run's id; `finished` settles when the run is done.
 */
export async function commitRollover(
  deps: AppDeps,
  tenant: Tenant,
  userId: number | null,
  fromTermId: number,
  input: RolloverRequest,
): Promise<{ id: number; finished: Promise<void> }> {
  const { db } = deps.database;
  const { from, to, deadline } = await termsOfRequest(db, tenant, fromTermId, input);
  const candidates = await candidatesOf(db, tenant, from, to);
  const open = candidates.filter((c) => !c.conflict);
  const run = await db.transaction(async (tx) => {
    // One writer per pair of terms decides between resuming the live run and starting one.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`rollover:${tenant.companyId}:${from.id}:${to.id}`}))`,
    );
    const [live] = await tx
      .select()
      .from(rollovers)
      .where(
        tenant.where(
          rollovers,
          eq(rollovers.fromTermId, from.id),
          eq(rollovers.toTermId, to.id),
          ne(rollovers.status, 'undone'),
        ),
      );
    if (live) {
      const [resumed] = await tx
        .update(rollovers)
        .set({ status: 'running', total: open.length, done: 0, finishedAt: null })
        .where(tenant.byId(rollovers, live.id))
        .returning();
      return resumed!;
    }
    const [created] = await tx
      .insert(rollovers)
      .values(
        tenant.values({
          fromTermId: from.id,
          toTermId: to.id,
          deadline,
          total: open.length,
          createdBy: userId,
        }),
      )
      .returning();
    return created!;
  });
  const finished = finishRun(deps, tenant, run, open, to);
  return { id: run.id, finished };
}

async function finishRun(
  deps: AppDeps,
  tenant: Tenant,
  run: typeof rollovers.$inferSelect,
  open: Candidate[],
  to: Term,
): Promise<void> {
  const { db } = deps.database;
  const existing = await db
    .select({ parentId: rolloverItems.parentId, holdToken: rolloverItems.holdToken })
    .from(rolloverItems)
    .where(tenant.where(rolloverItems, eq(rolloverItems.rolloverId, run.id), isNull(rolloverItems.undoneAt)));
  const writing: Writing = {
    rolloverId: run.id,
    toTermId: to.id,
    deadline: run.deadline,
    tokens: new Map(existing.map((e) => [e.parentId, e.holdToken])),
  };
  const held: Candidate[] = [];
  for (const batch of batchesOf(open)) {
    const decided = await db.transaction((tx) => rollBatch(tx, tenant, batch, to, writing));
    for (const d of decided) if (d.outcome === 'hold') held.push(d.candidate);
  }
  await db.transaction(async (tx) => {
    await mailFamilies(deps, tx, tenant, run.deadline, to, held, writing.tokens);
    await tx
      .update(rollovers)
      .set({ status: 'done', finishedAt: new Date() })
      .where(tenant.byId(rollovers, run.id, eq(rollovers.status, 'running')));
  });
  if (held.length > 0) await deps.jobs.nudge(queues.mailDeliver);
}

/** One mail per family with places held by this commit: the places, the deadline, confirm and release links. */
async function mailFamilies(
  deps: AppDeps,
  tx: Db,
  tenant: Tenant,
  deadline: Date,
  to: Term,
  held: Candidate[],
  tokens: Map<number, string>,
) {
  if (held.length === 0) return;
  const company = await companyOf(tx, tenant);
  const contacts = await contactsByIds(
    tx,
    tenant,
    held.map((h) => h.parentId),
  );
  const byParent = new Map<number, Candidate[]>();
  for (const h of held) byParent.set(h.parentId, [...(byParent.get(h.parentId) ?? []), h]);
  for (const [parentId, places] of byParent) {
    const contact = contacts.get(parentId);
    if (!contact) continue;
    await queueMail(tx, tenant, deps.config, 're-enrolment', contact.email, {
      name: contact.fullName,
      company: company.name,
      term: to.name,
      deadline: displayInstant(deadline, company.timeZone),
      places: places
        .map(
          (p) =>
            `${p.childName}: ${p.to!.name}, ${WEEKDAYS[p.to!.weekday]} ${hhmm(p.to!.startTime)} from ${displayDate(p.to!.firstDate)}`,
        )
        .join('\n'),
      // The accept page: it signs the parent in, then pays (the one checkout) or says No thanks.
      link: acceptLink(deps, company.authhash, tokens.get(parentId)!),
      release_link: acceptLink(deps, company.authhash, tokens.get(parentId)!, true),
    });
  }
}

async function runRow(db: Db, tenant: Tenant, id: number) {
  const [run] = await db.select().from(rollovers).where(tenant.byId(rollovers, id));
  if (!run) throw new NotFoundError('That rollover could not be found.');
  return run;
}

/** A place's state, read from the place itself: confirmed once active; released once cancelled or lapsed. */
function stateOf(place: { status: string; holdExpiresAt: Date | null }, undone: boolean): RolloverItemState {
  if (place.status === 'active') return 'confirmed';
  if (
    place.status === 'pending' &&
    (place.holdExpiresAt === null || place.holdExpiresAt.getTime() > Date.now())
  )
    return 'held';
  return undone ? 'undone' : 'released';
}

/** A run with its progress and every place it held, in child order. */
export async function rolloverOf(db: Db, tenant: Tenant, id: number): Promise<RolloverRun> {
  const run = await runRow(db, tenant, id);
  const { timeZone } = await companyOf(db, tenant);
  const [from, to] = await Promise.all([
    termOrNotFound(db, tenant, run.fromTermId),
    termOrNotFound(db, tenant, run.toTermId),
  ]);
  const rows = await db
    .select({
      id: rolloverItems.id,
      childId: rolloverItems.childId,
      undoneAt: rolloverItems.undoneAt,
      status: classEnrolments.status,
      holdExpiresAt: classEnrolments.holdExpiresAt,
      classId: termClasses.id,
      className: termClasses.name,
      weekday: termClasses.weekday,
      startTime: termClasses.startTime,
    })
    .from(rolloverItems)
    .innerJoin(
      classEnrolments,
      and(
        eq(classEnrolments.id, rolloverItems.toEnrolmentId),
        eq(classEnrolments.companyId, rolloverItems.companyId),
      ),
    )
    .innerJoin(
      termClasses,
      and(eq(termClasses.id, rolloverItems.toClassId), eq(termClasses.companyId, rolloverItems.companyId)),
    )
    .where(tenant.where(rolloverItems, eq(rolloverItems.rolloverId, run.id)))
    .orderBy(asc(rolloverItems.id));
  const kids = await childNames(
    db,
    tenant,
    rows.map((r) => r.childId),
  );
  const items = rows
    .map((r) => ({
      id: r.id,
      child: { id: r.childId, name: kids.get(r.childId) ?? '' },
      to_class: { id: r.classId, name: r.className, weekday: r.weekday, start_time: hhmm(r.startTime) },
      state: stateOf(r, r.undoneAt !== null),
    }))
    .sort((a, b) => a.child.name.localeCompare(b.child.name) || a.id - b.id);
  const count = (s: RolloverItemState) => items.filter((i) => i.state === s).length;
  return {
    id: run.id,
    from: { id: from.id, name: from.name },
    to: { id: to.id, name: to.name },
    deadline: run.deadline.toISOString(),
    deadline_display: displayInstant(run.deadline, timeZone),
    status: run.status,
    total: run.total,
    done: run.done,
    created_at: run.createdAt.toISOString(),
    undone_at: run.undoneAt?.toISOString() ?? null,
    can_undo: run.status === 'done' && run.deadline.getTime() > Date.now(),
    counts: {
      held: count('held'),
      confirmed: count('confirmed'),
      released: count('released'),
      undone: count('undone'),
    },
    items,
  };
}

/** A term's rollovers so far and the later terms it can roll into. */
export async function rolloversOfTerm(db: Db, tenant: Tenant, termId: number): Promise<TermRollovers> {
  const term = await termOrNotFound(db, tenant, termId);
  const { timeZone } = await companyOf(db, tenant);
  const [later, runs] = await Promise.all([
    db
      .select({ id: terms.id, name: terms.name, start_date: terms.startDate })
      .from(terms)
      // The terms it can roll into: later, neither archived nor closed.
      .where(
        tenant.where(
          terms,
          gt(terms.startDate, term.startDate),
          isNull(terms.archivedAt),
          ne(terms.status, 'closed'),
        ),
      )
      .orderBy(asc(terms.startDate), asc(terms.id)),
    db
      .select({
        id: rollovers.id,
        toId: terms.id,
        toName: terms.name,
        deadline: rollovers.deadline,
        status: rollovers.status,
        total: rollovers.total,
        done: rollovers.done,
        createdAt: rollovers.createdAt,
      })
      .from(rollovers)
      .innerJoin(terms, and(eq(terms.id, rollovers.toTermId), eq(terms.companyId, rollovers.companyId)))
      .where(tenant.where(rollovers, eq(rollovers.fromTermId, term.id)))
      .orderBy(desc(rollovers.createdAt), desc(rollovers.id)),
  ]);
  return {
    term: { id: term.id, name: term.name },
    next_terms: later,
    runs: runs.map((r) => ({
      id: r.id,
      to: { id: r.toId, name: r.toName },
      deadline: r.deadline.toISOString(),
      deadline_display: displayInstant(r.deadline, timeZone),
      status: r.status,
      total: r.total,
      done: r.done,
      created_at: r.createdAt.toISOString(),
    })),
  };
}

/**
 * Undo before the deadline: the run's places still held for the rollover are cancelled (confirmed
 * ones stay: the family has paid), its items leave the live set, and the run is `undone`, so the
 * classes of term B count as before and a new run may start. Returns the classes whose places were
 * freed, for the waitlist.
 */
export async function undoRollover(db: Db, tenant: Tenant, id: number): Promise<number[]> {
  return db.transaction(async (tx) => {
    const [run] = await tx.select().from(rollovers).where(tenant.byId(rollovers, id)).for('update');
    if (!run) throw new NotFoundError('That rollover could not be found.');
    if (run.status === 'undone') throw new ConflictError(ALREADY_UNDONE);
    if (run.status === 'running') throw new ConflictError(STILL_RUNNING);
    if (run.deadline.getTime() <= Date.now()) throw new ConflictError(WINDOW_ENDED);
    const items = await tx
      .select({ toEnrolmentId: rolloverItems.toEnrolmentId, toClassId: rolloverItems.toClassId })
      .from(rolloverItems)
      .where(
        tenant.where(rolloverItems, eq(rolloverItems.rolloverId, run.id), isNull(rolloverItems.undoneAt)),
      );
    const classIds = [...new Set(items.map((i) => i.toClassId))];
    await lockClasses(tx, tenant, classIds);
    const freed =
      items.length === 0
        ? []
        : await tx
            .update(classEnrolments)
            .set({ status: 'cancelled' })
            .where(
              tenant.where(
                classEnrolments,
                inArray(
                  classEnrolments.id,
                  items.map((i) => i.toEnrolmentId),
                ),
                eq(classEnrolments.status, 'pending'),
                eq(classEnrolments.heldFor, 'rollover'),
              ),
            )
            .returning({ termClassId: classEnrolments.termClassId });
    await tx
      .update(rolloverItems)
      .set({ undoneAt: new Date() })
      .where(
        tenant.where(rolloverItems, eq(rolloverItems.rolloverId, run.id), isNull(rolloverItems.undoneAt)),
      );
    await tx
      .update(rollovers)
      .set({ status: 'undone', undoneAt: new Date() })
      .where(tenant.byId(rollovers, run.id));
    return [...new Set(freed.map((f) => f.termClassId))];
  });
}

/** The parent's places held in a priority window, by link (one per run), with its deadline. */
export async function myReEnrolment(deps: AppDeps, tenant: Tenant, parentId: number): Promise<MyReEnrolment> {
  const { db } = deps.database;
  const rows = await db
    .select({
      token: rolloverItems.holdToken,
      enrolmentId: classEnrolments.id,
      childId: rolloverItems.childId,
      startsOn: classEnrolments.startsOn,
      holdExpiresAt: classEnrolments.holdExpiresAt,
      className: termClasses.name,
      weekday: termClasses.weekday,
      startTime: termClasses.startTime,
      term: terms.name,
    })
    .from(rolloverItems)
    .innerJoin(
      classEnrolments,
      and(
        eq(classEnrolments.id, rolloverItems.toEnrolmentId),
        eq(classEnrolments.companyId, rolloverItems.companyId),
      ),
    )
    .innerJoin(
      termClasses,
      and(eq(termClasses.id, rolloverItems.toClassId), eq(termClasses.companyId, rolloverItems.companyId)),
    )
    .innerJoin(terms, and(eq(terms.id, rolloverItems.toTermId), eq(terms.companyId, rolloverItems.companyId)))
    .where(
      tenant.where(
        rolloverItems,
        eq(rolloverItems.parentId, parentId),
        isNull(rolloverItems.undoneAt),
        eq(classEnrolments.status, 'pending'),
        eq(classEnrolments.heldFor, 'rollover'),
        gt(classEnrolments.holdExpiresAt, new Date()),
      ),
    )
    .orderBy(asc(classEnrolments.holdExpiresAt), asc(rolloverItems.id));
  if (rows.length === 0) return { holds: [] };
  const company = await companyOf(db, tenant);
  const kids = await childNames(
    db,
    tenant,
    rows.map((r) => r.childId),
  );
  const holds = new Map<string, MyReEnrolment['holds'][number]>();
  for (const r of rows) {
    let hold = holds.get(r.token);
    if (!hold) {
      hold = {
        token: r.token,
        term: r.term,
        deadline: r.holdExpiresAt!.toISOString(),
        deadline_display: displayInstant(r.holdExpiresAt!, company.timeZone),
        confirm_url: `/registration/accept/?token=${r.token}&authhash=${encodeURIComponent(company.authhash)}`,
        places: [],
      };
      holds.set(r.token, hold);
    }
    hold.places.push({
      enrolment_id: r.enrolmentId,
      child: kids.get(r.childId) ?? '',
      class_name: r.className,
      weekday: r.weekday,
      start_time: hhmm(r.startTime),
      starts_on: r.startsOn,
    });
  }
  return { holds: [...holds.values()] };
}

/** Whether this token holds rollover places of this parent (a release of someone else's link is a 404). */
export async function ownsRolloverToken(
  db: Db,
  tenant: Tenant,
  parentId: number,
  token: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: rolloverItems.id })
    .from(rolloverItems)
    .where(
      tenant.where(
        rolloverItems,
        eq(rolloverItems.parentId, parentId),
        eq(rolloverItems.holdToken, token),
        isNull(rolloverItems.undoneAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}
