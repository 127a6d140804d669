import { and, asc, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import { randomToken } from '../../platform/secrets.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { publishedForm, recordAnomaly } from '../registration/registration.service.ts';
import { assertOwnChildren, childrenByIds } from '../students/children.service.ts';
import { childIdsOfParents } from '../students/family.service.ts';
import {
  fullPlacesIn,
  type LockedClass,
  lockClasses,
  placesInTerms,
  placesLeft,
} from './capacity.service.ts';
import { offeredClasses } from './class-finder.service.ts';
import { classWaitlist } from './class-waitlist.tables.ts';
import { classEnrolments, termClasses, terms } from './classes.tables.ts';
import { enrolmentSettingsOf } from './enrolment-purchases.service.ts';
import { holdPlaces } from './holds.service.ts';
import { nextSessionDate } from './sessions.service.ts';

/**
 * The class waitlist (issue 14). Children wait for a full class; when places free up, the next
 * family in priority order gets an offer: a pending place held for `offerHoldHours` with a
 * pay-to-accept link (holds.service.ts). Priority tiers, first come first served within a tier:
 */
export const TIERS = {
  /** The child has an active enrolment in another class of the same term. */
  current: 1,
  /** The child was enrolled in a class of an earlier term. */
  returning: 2,
  /** Another child of the same parent is enrolled this term. */
  sibling: 3,
  new: 4,
} as const;

export const ALREADY_WAITING = 'This child is already on the waitlist for this class.';
export const ALREADY_ENROLLED = 'This child is already enrolled in this class.';
export const NO_FREE_PLACE = 'This class has no free place to offer.';
export const NOT_WAITING = 'This family is no longer waiting for this class.';

/**
 * In the caller's transaction: puts children on a class's waitlist, one row each, sharing one
 * household key (offered together). Refuses a child already waiting, offered or enrolled there.
 */
export async function joinClassWaitlist(
  tx: Db,
  tenant: Tenant,
  entry: {
    termClassId: number;
    parentId: number;
    childIds: number[];
    anyNumber: boolean;
    source: 'public' | 'staff';
  },
): Promise<number[]> {
  const childIds = [...new Set(entry.childIds)];
  if (childIds.length === 0) throw new BadRequestError('Please choose at least one child.');
  const waiting = await tx
    .select({ id: classWaitlist.id })
    .from(classWaitlist)
    .where(
      tenant.where(
        classWaitlist,
        eq(classWaitlist.termClassId, entry.termClassId),
        inArray(classWaitlist.childId, childIds),
        inArray(classWaitlist.status, ['waiting', 'offered']),
      ),
    );
  if (waiting.length > 0) throw new ConflictError(ALREADY_WAITING);
  const enrolled = await fullPlacesIn(
    tx,
    tenant,
    entry.termClassId,
    childIds,
    isNull(classEnrolments.withdrawnFrom),
  );
  if (enrolled.length > 0) throw new ConflictError(ALREADY_ENROLLED);
  const householdKey = randomToken(9);
  const rows = await tx
    .insert(classWaitlist)
    .values(
      childIds.map((childId) =>
        tenant.values({
          termClassId: entry.termClassId,
          childId,
          parentId: entry.parentId,
          householdKey,
          anyNumber: entry.anyNumber,
          source: entry.source,
        }),
      ),
    )
    .returning({ id: classWaitlist.id });
  return rows.map((r) => r.id);
}

type WaitlistRow = typeof classWaitlist.$inferSelect;
export interface RankedEntry extends WaitlistRow {
  tier: number;
}

/** Children with an active full enrolment running on `today` or later in a class of the term. */
async function activeInTerm(db: Db, tenant: Tenant, termId: number, childIds: number[], today: string) {
  if (childIds.length === 0) return new Map<number, number[]>();
  const rows = await placesInTerms(
    db,
    tenant,
    childIds,
    [termId],
    eq(classEnrolments.kind, 'enrolled'),
    eq(classEnrolments.status, 'active'),
    or(isNull(classEnrolments.withdrawnFrom), gt(classEnrolments.withdrawnFrom, today)),
  );
  const byChild = new Map<number, number[]>();
  for (const r of rows) byChild.set(r.childId, [...(byChild.get(r.childId) ?? []), r.termClassId]);
  return byChild;
}

/** Each entry's priority tier (TIERS) for a class of `termId`. */
async function tiersOf(
  db: Db,
  tenant: Tenant,
  termClass: { id: number; termId: number },
  entries: WaitlistRow[],
  today: string,
): Promise<Map<number, number>> {
  const tiers = new Map<number, number>();
  if (entries.length === 0) return tiers;
  const [term] = await db
    .select({ startDate: terms.startDate })
    .from(terms)
    .where(tenant.byId(terms, termClass.termId));
  const childIds = entries.map((e) => e.childId);
  const siblings = await childIdsOfParents(
    db,
    tenant,
    entries.map((e) => e.parentId),
  );
  const family = [...new Set([...childIds, ...[...siblings.values()].flat()])];
  const active = await activeInTerm(db, tenant, termClass.termId, family, today);
  const earlier = term
    ? await db
        .selectDistinct({ childId: classEnrolments.childId })
        .from(classEnrolments)
        .innerJoin(
          termClasses,
          and(
            eq(termClasses.id, classEnrolments.termClassId),
            eq(termClasses.companyId, classEnrolments.companyId),
          ),
        )
        .innerJoin(terms, and(eq(terms.id, termClasses.termId), eq(terms.companyId, termClasses.companyId)))
        .where(
          tenant.where(
            classEnrolments,
            inArray(classEnrolments.childId, childIds),
            eq(classEnrolments.kind, 'enrolled'),
            inArray(classEnrolments.status, ['active', 'withdrawn']),
            lt(terms.startDate, term.startDate),
          ),
        )
    : [];
  const returning = new Set(earlier.map((r) => r.childId));
  for (const entry of entries) {
    const otherClasses = (active.get(entry.childId) ?? []).filter((id) => id !== termClass.id);
    const sibling = (siblings.get(entry.parentId) ?? []).some(
      (id) => id !== entry.childId && (active.get(id) ?? []).length > 0,
    );
    tiers.set(
      entry.id,
      otherClasses.length > 0
        ? TIERS.current
        : returning.has(entry.childId)
          ? TIERS.returning
          : sibling
            ? TIERS.sibling
            : TIERS.new,
    );
  }
  return tiers;
}

/** A household's entries, in the order they are offered places. */
interface Household {
  key: string;
  anyNumber: boolean;
  tier: number;
  entries: RankedEntry[];
}

/**
 * The class's entries with `statuses`, ranked: by household (children joined together), a
 * household by its best tier, then first come first served.
 */
async function rankedHouseholds(
  db: Db,
  tenant: Tenant,
  termClass: { id: number; termId: number },
  statuses: WaitlistRow['status'][],
  today: string,
): Promise<Household[]> {
  const rows = await db
    .select()
    .from(classWaitlist)
    .where(
      tenant.where(
        classWaitlist,
        eq(classWaitlist.termClassId, termClass.id),
        inArray(classWaitlist.status, statuses),
      ),
    )
    .orderBy(asc(classWaitlist.createdAt), asc(classWaitlist.id));
  const tiers = await tiersOf(db, tenant, termClass, rows, today);
  const households = new Map<string, Household>();
  for (const row of rows) {
    const tier = tiers.get(row.id) ?? TIERS.new;
    const household = households.get(row.householdKey) ?? {
      key: row.householdKey,
      anyNumber: row.anyNumber,
      tier,
      entries: [],
    };
    household.tier = Math.min(household.tier, tier);
    household.entries.push({ ...row, tier });
    households.set(row.householdKey, household);
  }
  // Stable sort: within a tier, the order the households joined in.
  return [...households.values()].sort((a, b) => a.tier - b.tier);
}

/**
 * Staff's list of a class's waitlist (waiting and offered first, in the order places go to them;
 * then the closed entries, newest first).
 */
export async function waitlistOf(
  db: Db,
  tenant: Tenant,
  termClassId: number,
): Promise<
  {
    id: number;
    childId: number;
    parentId: number;
    tier: number;
    status: string;
    anyNumber: boolean;
    householdKey: string;
    createdAt: Date;
    offerExpiresAt: Date | null;
  }[]
> {
  const [termClass] = await db
    .select({ id: termClasses.id, termId: termClasses.termId })
    .from(termClasses)
    .where(tenant.byId(termClasses, termClassId));
  if (!termClass) throw new NotFoundError();
  const company = await companyOf(db, tenant);
  const today = todayIn(company.timeZone);
  const open = await rankedHouseholds(db, tenant, termClass, ['offered', 'waiting'], today);
  const offeredFirst = [
    ...open.flatMap((h) => h.entries.filter((e) => e.status === 'offered')),
    ...open.flatMap((h) => h.entries.filter((e) => e.status === 'waiting')),
  ];
  const closed = await rankedHouseholds(
    db,
    tenant,
    termClass,
    ['accepted', 'declined', 'expired', 'removed'],
    today,
  );
  const closedEntries = closed
    .flatMap((h) => h.entries)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
  return [...offeredFirst, ...closedEntries].map((e) => ({
    id: e.id,
    childId: e.childId,
    parentId: e.parentId,
    tier: e.tier,
    status: e.status,
    anyNumber: e.anyNumber,
    householdKey: e.householdKey,
    createdAt: e.createdAt,
    offerExpiresAt: e.status === 'offered' ? e.offerExpiresAt : null,
  }));
}

/** In the caller's locked transaction: offers `entries` (one household) the places and marks them offered. */
async function offerTo(
  deps: AppDeps,
  tx: Db,
  tenant: Tenant,
  termClass: LockedClass,
  entries: WaitlistRow[],
  startsOn: string,
  hours: number,
) {
  const held = await holdPlaces(deps, tx, tenant, {
    termClassId: termClass.id,
    childIds: entries.map((e) => e.childId),
    startsOn,
    heldFor: 'offer',
    hours,
  });
  for (const [i, entry] of entries.entries())
    await tx
      .update(classWaitlist)
      .set({
        status: 'offered',
        enrolmentId: held.enrolmentIds[i],
        offeredAt: new Date(),
        offerExpiresAt: held.expiresAt,
      })
      .where(tenant.byId(classWaitlist, entry.id));
}

/**
 * After a commit that freed places (a checkout released, a withdrawal, a declined or lapsed hold,
 * a rollover deadline): offers the free places of these classes to their waitlists in priority
 * order, in its own transaction under the class locks. A household joined together is offered
 * places only when all its children fit, unless the parent said any number will do; a household
 * that does not fit is passed over for the next (the place never sits idle behind it).
 */
export async function offerFreedPlaces(deps: AppDeps, tenant: Tenant, termClassIds: number[]): Promise<void> {
  const ids = [...new Set(termClassIds)];
  if (ids.length === 0) return;
  const { db } = deps.database;
  // Nothing to do (the common case) without taking any lock.
  const anyWaiting = await db
    .select({ id: classWaitlist.id })
    .from(classWaitlist)
    .where(
      tenant.where(
        classWaitlist,
        inArray(classWaitlist.termClassId, ids),
        eq(classWaitlist.status, 'waiting'),
      ),
    )
    .limit(1);
  if (anyWaiting.length === 0) return;
  let offered = 0;
  await db.transaction(async (tx) => {
    const locked = (await lockClasses(tx, tenant, ids)).filter((c) => c.status === 'active');
    if (locked.length === 0) return;
    const company = await companyOf(tx, tenant);
    const today = todayIn(company.timeZone);
    const settings = await enrolmentSettingsOf(tx, tenant);
    const left = await placesLeft(
      tx,
      tenant,
      locked.map((c) => c.id),
      today,
    );
    for (const termClass of locked) {
      let free = left.get(termClass.id) ?? 0;
      if (free <= 0) continue;
      const startsOn = await nextSessionDate(tx, tenant, termClass.id, today);
      if (!startsOn) continue;
      for (const household of await rankedHouseholds(tx, tenant, termClass, ['waiting'], today)) {
        if (free <= 0) break;
        const fits = household.entries.length <= free;
        if (!fits && !household.anyNumber) continue;
        const taken = household.entries.slice(0, free);
        await offerTo(deps, tx, tenant, termClass, taken, startsOn, settings.offerHoldHours);
        free -= taken.length;
        offered++;
      }
    }
  });
  if (offered > 0) await deps.jobs.nudge(queues.mailDeliver);
}

/** Staff offer a place to one waiting child now, ahead of the queue; 409 when the class has no free place. */
export async function offerPlace(deps: AppDeps, tenant: Tenant, waitlistId: number): Promise<void> {
  await deps.database.db.transaction(async (tx) => {
    const [entry] = await tx.select().from(classWaitlist).where(tenant.byId(classWaitlist, waitlistId));
    if (!entry) throw new NotFoundError();
    const [termClass] = await lockClasses(tx, tenant, [entry.termClassId]);
    if (!termClass) throw new NotFoundError();
    // Read again under the lock: an offer made meanwhile is not made twice.
    const [current] = await tx
      .select()
      .from(classWaitlist)
      .where(tenant.byId(classWaitlist, waitlistId, eq(classWaitlist.status, 'waiting')));
    if (!current) throw new ConflictError(NOT_WAITING);
    const company = await companyOf(tx, tenant);
    const today = todayIn(company.timeZone);
    const free = (await placesLeft(tx, tenant, [termClass.id], today)).get(termClass.id) ?? 0;
    const startsOn = await nextSessionDate(tx, tenant, termClass.id, today);
    if (termClass.status !== 'active' || free <= 0 || !startsOn) throw new ConflictError(NO_FREE_PLACE);
    const settings = await enrolmentSettingsOf(tx, tenant);
    await offerTo(deps, tx, tenant, termClass, [current], startsOn, settings.offerHoldHours);
  });
  await deps.jobs.nudge(queues.mailDeliver);
}

/** In a locked transaction: the offers whose held places were released end as `status`. */
export async function closeOffers(
  tx: Db,
  tenant: Tenant,
  enrolmentIds: number[],
  status: 'declined' | 'expired',
): Promise<void> {
  if (enrolmentIds.length === 0) return;
  await tx
    .update(classWaitlist)
    .set({ status })
    .where(
      tenant.where(
        classWaitlist,
        inArray(classWaitlist.enrolmentId, enrolmentIds),
        eq(classWaitlist.status, 'offered'),
      ),
    );
}

/**
 * Offers whose held place has been settled elsewhere: paid for (the place became active: accepted)
 * or cancelled while a checkout had taken it over (expired). A checkout that ends unpaid gives the
 * place back to the offer while the offer's own hold lasts (the offer stays `offered`) and expires
 * the offer itself when that hold lapsed meanwhile (enrolment-sale.ts); a paid checkout that could
 * not be confirmed (refund_due) cancels the place, and this marks the offer expired.
 */
export async function settleOffers(db: Db, tenant: Tenant): Promise<void> {
  const settled = await db
    .select({ id: classWaitlist.id, place: classEnrolments.status })
    .from(classWaitlist)
    .innerJoin(
      classEnrolments,
      and(
        eq(classEnrolments.id, classWaitlist.enrolmentId),
        eq(classEnrolments.companyId, classWaitlist.companyId),
      ),
    )
    .where(
      tenant.where(
        classWaitlist,
        eq(classWaitlist.status, 'offered'),
        inArray(classEnrolments.status, ['active', 'cancelled']),
      ),
    );
  for (const status of ['accepted', 'expired'] as const) {
    const ids = settled.filter((s) => (s.place === 'active') === (status === 'accepted')).map((s) => s.id);
    if (ids.length === 0) continue;
    await db
      .update(classWaitlist)
      .set({ status })
      .where(
        tenant.where(classWaitlist, inArray(classWaitlist.id, ids), eq(classWaitlist.status, 'offered')),
      );
  }
}

export const waitlistMessages = {
  formNotFound: 'This registration form is not available.',
  classNotFound: 'This class is not offered on this form.',
  notFull: 'This class still has places: please enrol instead.',
  closed: 'This class is full and its waitlist is not open to online sign-ups. Please contact us.',
  joined: 'You are on the waitlist. We will email you as soon as a place frees up.',
};

/**
 * POST /api/v1/registration/waitlist: a signed-in parent waits for a full class of a form with
 * their children. Counted under the class's lock (a class with a free place is enrolled in, not
 * waited for); each child is recorded as a `class_full_waitlisted` anomaly for staff.
 */
export async function joinFromForm(
  deps: AppDeps,
  tenant: Tenant,
  parentId: number,
  input: { f: string; term_class_id: number; children: number[]; any_number: boolean },
): Promise<{ ids: number[]; message: string }> {
  const { db } = deps.database;
  const form = await publishedForm(db, tenant, input.f);
  if (!form) throw new NotFoundError(waitlistMessages.formNotFound);
  const [offered] = await offeredClasses(db, tenant, form, [input.term_class_id]);
  if (!offered) throw new NotFoundError(waitlistMessages.classNotFound);
  if (!(await enrolmentSettingsOf(db, tenant)).publicWaitlist)
    throw new ConflictError(waitlistMessages.closed);
  await assertOwnChildren(db, tenant, parentId, input.children);
  const kids = await childrenByIds(db, tenant, input.children);
  const ids = await db.transaction(async (tx) => {
    await lockClasses(tx, tenant, [offered.termClassId]);
    const today = todayIn((await companyOf(tx, tenant)).timeZone);
    const free = (await placesLeft(tx, tenant, [offered.termClassId], today)).get(offered.termClassId) ?? 0;
    if (free >= input.children.length) throw new ConflictError(waitlistMessages.notFull);
    const joined = await joinClassWaitlist(tx, tenant, {
      termClassId: offered.termClassId,
      parentId,
      childIds: input.children,
      anyNumber: input.any_number,
      source: 'public',
    });
    for (const kid of kids)
      await recordAnomaly(tx, tenant, {
        formId: form.id,
        kind: 'class_full_waitlisted',
        parentId,
        childId: kid.id,
        termClassId: offered.termClassId,
        detail: `${kid.firstName} ${kid.lastName} joined the waitlist of ${offered.name}: the class was full.`,
      });
    return joined;
  });
  // A household that takes any number of places gets the places that are free at once.
  await offerFreedPlaces(deps, tenant, [offered.termClassId]);
  return { ids, message: waitlistMessages.joined };
}
