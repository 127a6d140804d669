import {
  type ChildChoice,
  type ClassStudent,
  type ClassStudentsResponse,
  type EnrolRequest,
  classStudentMessages as says,
  type TransferRequest,
  type WithdrawRequest,
} from '@tumble/contracts/class-students';
import { and, asc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { familyContacts } from '../accounts/families.service.ts';
import { searchChildren } from '../students/child-search.service.ts';
import { ageOn, childNames, childrenByIds } from '../students/children.service.ts';
import { enrolmentAdjustments } from './adjustments.tables.ts';
import { fullPlacesIn, lockClasses, placesLeft, takesPlace } from './capacity.service.ts';
import { offerFreedPlaces, offerPlace, waitlistOf } from './class-waitlist.service.ts';
import { classEnrolments, classSessions, classTypes, termClasses, terms } from './classes.tables.ts';
import { enrolmentFee, type PricedClass } from './enrolment-pricing.ts';
import { enrolmentSettingsOf } from './enrolment-purchases.service.ts';
import { companyToday } from './roll.service.ts';
import { nextSessionDate, scheduledSessionsOf } from './sessions.service.ts';
import { closuresOf } from './terms.service.ts';

/**
 * The staff side of enrolments (SPEC class-students, class-payments): a class's students, and
 * staff enrolling, transferring and withdrawing children. Every change that takes a place locks
 * the classes first and counts with the same transaction (capacity.service.ts, decision 013);
 * what it leaves owing either way is an `enrolment_adjustments` row (charge, credit, refund due)
 * that the billing issue will turn into invoices and refunds.
 */

type Enrolment = typeof classEnrolments.$inferSelect;
type AdjustmentKind = (typeof enrolmentAdjustments.kind.enumValues)[number];

/** The class of this company, or 404. */
async function classOf(db: Db, tenant: Tenant, termClassId: number) {
  const [row] = await db
    .select({
      id: termClasses.id,
      name: termClasses.name,
      termId: termClasses.termId,
      termName: terms.name,
      capacity: termClasses.capacity,
      status: termClasses.status,
      priceOverride: termClasses.priceOverride,
      price: classTypes.price,
      pricingModel: classTypes.pricingModel,
      trialPrice: classTypes.trialPrice,
    })
    .from(termClasses)
    .innerJoin(terms, and(eq(terms.id, termClasses.termId), eq(terms.companyId, termClasses.companyId)))
    .innerJoin(
      classTypes,
      and(eq(classTypes.id, termClasses.classTypeId), eq(classTypes.companyId, termClasses.companyId)),
    )
    .where(tenant.byId(termClasses, termClassId, isNull(termClasses.archivedAt)));
  if (!row) throw new NotFoundError();
  return row;
}

/** The class as the pricing module sees it: its price and its scheduled, chargeable sessions. */
export async function pricedClass(db: Db, tenant: Tenant, termClassId: number): Promise<PricedClass> {
  const cls = await classOf(db, tenant, termClassId);
  const sessions = await scheduledSessionsOf(db, tenant, [termClassId]);
  const closures = await closuresOf(db, tenant, cls.termId);
  return {
    termClassId,
    termId: cls.termId,
    name: cls.name,
    pricingModel: cls.pricingModel,
    price: cls.priceOverride ?? cls.price,
    trialPrice: cls.trialPrice,
    sessionDates: sessions.map((s) => s.date),
    billingOnly: closures.filter((c) => c.kind === 'billing_only'),
  };
}

const placeStatus = (row: Enrolment, today: string): ClassStudent['status'] => {
  if (row.status === 'pending') return 'pending';
  // Withdrawn once the date has come, or at once when it is on or before the first session.
  const counted = row.startsOn && row.startsOn > today ? row.startsOn : today;
  if (row.status === 'withdrawn' || (row.withdrawnFrom !== null && row.withdrawnFrom <= counted))
    return 'withdrawn';
  return row.kind === 'enrolled' ? 'active' : 'trial';
};

/**
 * Every child of a class: places (active, trial, live holds, withdrawn) and the waitlist, with
 * their families; and the places left for an enrolment from the next session.
 */
export async function classStudents(
  db: Db,
  tenant: Tenant,
  termClassId: number,
): Promise<ClassStudentsResponse> {
  const cls = await classOf(db, tenant, termClassId);
  const today = await companyToday(db, tenant);
  const next = await nextSessionDate(db, tenant, termClassId, today);
  const places = await db
    .select({ place: classEnrolments, sessionDate: classSessions.date })
    .from(classEnrolments)
    .leftJoin(
      classSessions,
      and(
        eq(classSessions.id, classEnrolments.sessionId),
        eq(classSessions.companyId, classEnrolments.companyId),
      ),
    )
    .where(
      tenant.where(
        classEnrolments,
        eq(classEnrolments.termClassId, termClassId),
        inArray(classEnrolments.kind, ['enrolled', 'trial']),
        // Lapsed holds and cancelled places are no one's place any more.
        or(
          eq(classEnrolments.status, 'active'),
          eq(classEnrolments.status, 'withdrawn'),
          and(eq(classEnrolments.status, 'pending'), takesPlace()),
        ),
      ),
    )
    .orderBy(asc(classEnrolments.id));
  // An offered entry already shows as its held place (pending, held for the offer).
  const waiting = (await waitlistOf(db, tenant, termClassId)).filter((w) => w.status === 'waiting');
  const kids = new Map(
    (
      await childrenByIds(db, tenant, [
        ...places.map((p) => p.place.childId),
        ...waiting.map((w) => w.childId),
      ])
    ).map((c) => [c.id, c]),
  );
  const families = await familyContacts(db, tenant, [
    ...[...kids.values()].map((c) => c.parentId),
    ...waiting.map((w) => w.parentId),
  ]);
  const about = (childId: number, parentId: number | undefined) => {
    const child = kids.get(childId);
    const family = families.get(parentId ?? child?.parentId ?? 0);
    return {
      child_id: childId,
      child_name: child ? `${child.firstName} ${child.lastName}` : '',
      age: child ? ageOn(child.dob, today) : null,
      parent_name: family?.fullName ?? '',
      phone: family?.phone ?? null,
      email: family?.email ?? null,
    };
  };
  const students: ClassStudent[] = [
    ...places.map(({ place, sessionDate }) => ({
      enrolment_id: place.id,
      waitlist_id: null,
      ...about(place.childId, undefined),
      status: placeStatus(place, today),
      held_for: place.status === 'pending' ? place.heldFor : null,
      hold_expires_at: place.status === 'pending' ? (place.holdExpiresAt?.toISOString() ?? null) : null,
      starts_on: place.kind === 'enrolled' ? place.startsOn : sessionDate,
      withdrawn_from: place.withdrawnFrom,
      tier: null,
      waitlist_status: null,
    })),
    ...waiting.map((entry) => ({
      enrolment_id: null,
      waitlist_id: entry.id,
      ...about(entry.childId, entry.parentId),
      status: 'waitlisted' as const,
      held_for: null,
      hold_expires_at: entry.offerExpiresAt?.toISOString() ?? null,
      starts_on: null,
      withdrawn_from: null,
      tier: entry.tier,
      waitlist_status: entry.status,
    })),
  ];
  const order = { active: 0, trial: 1, pending: 2, waitlisted: 3, withdrawn: 4 };
  students.sort((a, b) => order[a.status] - order[b.status] || a.child_name.localeCompare(b.child_name));
  const left = next ? ((await placesLeft(db, tenant, [termClassId], next)).get(termClassId) ?? 0) : 0;
  return {
    term_class: {
      id: cls.id,
      name: cls.name,
      term_id: cls.termId,
      term_name: cls.termName,
      capacity: cls.capacity,
    },
    today,
    next_session: next,
    places_left: left,
    students,
  };
}

/** Whether the child has a full enrolment in the class that takes a place on `date` or later. */
async function enrolmentCovering(tx: Db, tenant: Tenant, termClassId: number, childId: number, date: string) {
  const ids = await fullPlacesIn(
    tx,
    tenant,
    termClassId,
    [childId],
    or(isNull(classEnrolments.withdrawnFrom), gt(classEnrolments.withdrawnFrom, date)),
  );
  return ids.length > 0;
}

export async function recordAdjustment(
  tx: Db,
  auth: AuthContext,
  place: Pick<Enrolment, 'id' | 'childId' | 'termClassId'>,
  kind: AdjustmentKind,
  amount: number,
  reason: string,
) {
  if (amount <= 0) return null;
  const [child] = await childrenByIds(tx, auth.tenant, [place.childId]);
  if (!child) throw new NotFoundError(says.childNotFound);
  const [row] = await tx
    .insert(enrolmentAdjustments)
    .values(
      auth.tenant.values({
        parentId: child.parentId,
        childId: child.id,
        childName: `${child.firstName} ${child.lastName}`,
        termClassId: place.termClassId,
        enrolmentId: place.id,
        kind,
        amount,
        reason,
        createdBy: auth.userId,
      }),
    )
    .returning();
  return row!;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The sessions a place pays for from `from` (its own start when later), and what they cost. */
async function valueFrom(tx: Db, tenant: Tenant, termClassId: number, from: string) {
  return enrolmentFee(await pricedClass(tx, tenant, termClassId), from);
}

async function refuseThePast(db: Db, tenant: Tenant, date: string) {
  if (date < (await companyToday(db, tenant))) throw new ConflictError(says.pastDate);
}

/** The active full enrolment `enrolmentId` of this class, locked, or 404. */
async function placeInClass(tx: Db, tenant: Tenant, termClassId: number, enrolmentId: number) {
  const [place] = await tx
    .select()
    .from(classEnrolments)
    .where(
      tenant.byId(
        classEnrolments,
        enrolmentId,
        eq(classEnrolments.termClassId, termClassId),
        eq(classEnrolments.kind, 'enrolled'),
        eq(classEnrolments.status, 'active'),
      ),
    )
    .for('update');
  if (!place) throw new NotFoundError(says.enrolmentNotFound);
  return place;
}

/**
 * Staff enrol a child in a class from a date (the next session by default): under the class's
 * lock, it must fit from then on and the child must not already be in it. The fee of the sessions
 * left is recorded as a charge to invoice.
 */
export async function enrolChild(deps: AppDeps, auth: AuthContext, termClassId: number, input: EnrolRequest) {
  const { tenant } = auth;
  const { db } = deps.database;
  const cls = await classOf(db, tenant, termClassId);
  const [child] = await childrenByIds(db, tenant, [input.child_id]);
  if (!child) throw new NotFoundError(says.childNotFound);
  const childName = `${child.firstName} ${child.lastName}`;
  const today = await companyToday(db, tenant);
  const wanted = input.starts_on || today;
  if (wanted < today) throw new ConflictError(says.pastDate);
  const { currency } = await companyOf(db, tenant);
  return db.transaction(async (tx) => {
    const [locked] = await lockClasses(tx, tenant, [termClassId]);
    if (!locked) throw new NotFoundError();
    if (locked.status === 'cancelled') throw new ConflictError(says.classCancelled);
    // An enrolment starts at a session: the first one on or after the date asked for.
    const startsOn = await nextSessionDate(tx, tenant, termClassId, wanted);
    if (!startsOn) throw new ConflictError(says.noSessionsLeft);
    if (await enrolmentCovering(tx, tenant, termClassId, child.id, startsOn))
      throw new ConflictError(says.alreadyEnrolled(childName));
    const left = (await placesLeft(tx, tenant, [termClassId], startsOn)).get(termClassId) ?? 0;
    if (left < 1) throw new ConflictError(says.full(cls.name));
    const [place] = await tx
      .insert(classEnrolments)
      .values(
        tenant.values({
          termClassId,
          childId: child.id,
          kind: 'enrolled' as const,
          startsOn,
          status: 'active' as const,
        }),
      )
      .returning();
    const { fee, sessions } = await valueFrom(tx, tenant, termClassId, startsOn);
    await recordAdjustment(
      tx,
      auth,
      place!,
      'charge',
      fee,
      `Enrolled by staff from ${displayDate(startsOn)}: ${plural(sessions, 'session')}`,
    );
    await recordAudit(tx, auth, {
      action: 'enrol',
      entity: 'class-enrolments',
      entityId: place!.id,
      after: place,
    });
    const charge = fee > 0 ? ` ${formatMoney(fee, currency)} to invoice.` : '';
    return {
      message: `${childName} is enrolled from ${displayDate(startsOn)}.${charge}`,
      enrolmentId: place!.id,
    };
  });
}

/**
 * Moves a child to another class from a date, in one transaction: both classes locked (in id
 * order), the target must fit from then on; the old place ends the day before and the new one
 * starts. The difference in price of the sessions left is charged (dearer) or credited (cheaper).
 */
export async function transferChild(
  deps: AppDeps,
  auth: AuthContext,
  termClassId: number,
  input: TransferRequest,
) {
  const { tenant } = auth;
  const { db } = deps.database;
  const source = await classOf(db, tenant, termClassId);
  if (input.to_class_id === termClassId) throw new ConflictError(says.sameClass);
  const target = await classOf(db, tenant, input.to_class_id);
  await refuseThePast(db, tenant, input.from);
  const { currency } = await companyOf(db, tenant);
  const result = await db.transaction(async (tx) => {
    const locked = await lockClasses(tx, tenant, [termClassId, input.to_class_id]);
    if (locked.length !== 2) throw new NotFoundError();
    if (locked.some((c) => c.id === target.id && c.status === 'cancelled'))
      throw new ConflictError(says.classCancelled);
    const old = await placeInClass(tx, tenant, termClassId, input.enrolment_id);
    if (old.withdrawnFrom !== null && old.withdrawnFrom <= input.from)
      throw new ConflictError(says.alreadyWithdrawn(displayDate(old.withdrawnFrom)));
    const childName = (await childNames(tx, tenant, [old.childId])).get(old.childId) ?? '';
    const startsOn = await nextSessionDate(tx, tenant, target.id, input.from);
    if (!startsOn) throw new ConflictError(says.noSessionsLeft);
    if (await enrolmentCovering(tx, tenant, target.id, old.childId, startsOn))
      throw new ConflictError(says.alreadyEnrolled(childName));
    const left = (await placesLeft(tx, tenant, [target.id], startsOn)).get(target.id) ?? 0;
    if (left < 1) throw new ConflictError(says.full(target.name));

    // The old place is paid from its start; what it no longer runs is valued from the later date.
    const leaving = old.startsOn && old.startsOn > input.from ? old.startsOn : input.from;
    const [ended] = await tx
      .update(classEnrolments)
      .set({ withdrawnFrom: input.from })
      .where(tenant.byId(classEnrolments, old.id))
      .returning();
    const [moved] = await tx
      .insert(classEnrolments)
      .values(
        tenant.values({
          termClassId: target.id,
          childId: old.childId,
          kind: 'enrolled' as const,
          startsOn,
          status: 'active' as const,
        }),
      )
      .returning();
    const was = await valueFrom(tx, tenant, termClassId, leaving);
    const now = await valueFrom(tx, tenant, target.id, startsOn);
    const difference = now.fee - was.fee;
    const reason = `Transferred from ${source.name}: ${plural(now.sessions, 'session')} here for ${plural(was.sessions, 'session')} left there`;
    await recordAdjustment(
      tx,
      auth,
      moved!,
      difference > 0 ? 'charge' : 'credit',
      Math.abs(difference),
      reason,
    );
    await recordAudit(tx, auth, {
      action: 'transfer',
      entity: 'class-enrolments',
      entityId: old.id,
      before: old,
      after: { ...ended, transferredTo: moved!.id, toClassId: target.id },
    });
    const money =
      difference > 0
        ? ` ${formatMoney(difference, currency)} to invoice.`
        : difference < 0
          ? ` ${formatMoney(-difference, currency)} credited.`
          : '';
    return { message: `${childName} moves to ${target.name} from ${displayDate(startsOn)}.${money}` };
  });
  // The place left behind may go to the old class's waitlist.
  await offerFreedPlaces(deps, tenant, [termClassId]);
  return result;
}

/**
 * Withdraws a child from a date: the place ends then (the roll stops showing them), and the
 * sessions paid for and not run from that date are credited, owed back or kept by the company's
 * withdrawal policy. The freed place is then offered to the waitlist.
 */
export async function withdrawChild(
  deps: AppDeps,
  auth: AuthContext,
  termClassId: number,
  input: WithdrawRequest,
) {
  const { tenant } = auth;
  const { db } = deps.database;
  await classOf(db, tenant, termClassId);
  await refuseThePast(db, tenant, input.from);
  const { currency } = await companyOf(db, tenant);
  const { withdrawalPolicy } = await enrolmentSettingsOf(db, tenant);
  const result = await db.transaction(async (tx) => {
    const [locked] = await lockClasses(tx, tenant, [termClassId]);
    if (!locked) throw new NotFoundError();
    const place = await placeInClass(tx, tenant, termClassId, input.enrolment_id);
    if (place.withdrawnFrom !== null && place.withdrawnFrom <= input.from)
      throw new ConflictError(says.alreadyWithdrawn(displayDate(place.withdrawnFrom)));
    const childName = (await childNames(tx, tenant, [place.childId])).get(place.childId) ?? '';
    const leaving = place.startsOn && place.startsOn > input.from ? place.startsOn : input.from;
    // A withdrawal already set for a later date has its sessions after that date valued already.
    const paid = await valueFrom(tx, tenant, termClassId, leaving);
    const beyond = place.withdrawnFrom
      ? await valueFrom(tx, tenant, termClassId, place.withdrawnFrom)
      : { fee: 0, sessions: 0 };
    const value = paid.fee - beyond.fee;
    const sessions = paid.sessions - beyond.sessions;
    const [ended] = await tx
      .update(classEnrolments)
      .set({ withdrawnFrom: input.from })
      .where(tenant.byId(classEnrolments, place.id))
      .returning();
    const kind = { credit: 'credit', refund: 'refund_due', none: null }[
      withdrawalPolicy
    ] as AdjustmentKind | null;
    const reason = `Withdrawn from ${displayDate(input.from)}: ${plural(sessions, 'session')} not run`;
    if (kind) await recordAdjustment(tx, auth, place, kind, value, reason);
    await recordAudit(tx, auth, {
      action: 'withdraw',
      entity: 'class-enrolments',
      entityId: place.id,
      before: place,
      after: ended,
    });
    const money =
      !kind || value <= 0
        ? ''
        : kind === 'credit'
          ? ` ${formatMoney(value, currency)} credited to the family.`
          : ` ${formatMoney(value, currency)} to refund.`;
    return { message: `${childName} is withdrawn from ${displayDate(input.from)}.${money}` };
  });
  await offerFreedPlaces(deps, tenant, [termClassId]);
  return result;
}

/** Staff offer a waitlisted child of this class a place now (class-waitlist.service.ts decides). */
export async function offerToWaitlisted(
  deps: AppDeps,
  auth: AuthContext,
  termClassId: number,
  waitlistId: number,
) {
  const { db } = deps.database;
  const entry = (await waitlistOf(db, auth.tenant, termClassId)).find((w) => w.id === waitlistId);
  if (!entry) throw new NotFoundError(says.waitlistNotFound);
  await offerPlace(deps, auth.tenant, waitlistId);
  const childName = (await childNames(db, auth.tenant, [entry.childId])).get(entry.childId);
  return {
    message: `A place has been offered to ${childName ?? 'the family'}.`,
  };
}

/** Children to enrol: the company's children whose names start with what staff typed, with their parent. */
export async function childChoices(db: Db, tenant: Tenant, q: string): Promise<ChildChoice[]> {
  if (q.trim() === '') return [];
  const found = await searchChildren(db, tenant, q);
  const families = await familyContacts(
    db,
    tenant,
    found.map((c) => c.parentId),
  );
  return found.map((c) => ({
    id: c.id,
    name: `${c.firstName} ${c.lastName}`,
    dob: c.dob,
    parent_name: families.get(c.parentId)?.fullName ?? '',
  }));
}
