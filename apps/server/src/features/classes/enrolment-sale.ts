import { childrenErrors } from '@tumble/contracts/booking';
import type { EnrolmentCheckoutRequest, EnrolmentQuoteRequest } from '@tumble/contracts/registration';
import { and, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { type Company, companyOf } from '../accounts/accounts.service.ts';
import { surchargeFor } from '../billing/billing.service.ts';
import type { FoundDiscounts } from '../billing/discounts.service.ts';
import { HOLD_MINUTES } from '../bookings/booking.service.ts';
import type { PlanBase, Priced, SaleKind } from '../checkout/sale-kind.ts';
import { recordAnomalyOnce } from '../registration/payment-anomalies.service.ts';
import { publishedForm, type RegistrationForm, recordAnomaly } from '../registration/registration.service.ts';
import { childLike } from '../students/child-matches.service.ts';
import { assertOwnChildren, childrenByIds } from '../students/children.service.ts';
import { childIdsOfParents } from '../students/family.service.ts';
import { lockClasses, placesInTerms, placesLeft, sessionLoads, takesPlace } from './capacity.service.ts';
import {
  ageFits,
  monthsOld,
  nextSession,
  type OfferedClass,
  offeredClasses,
  upcomingSessions,
  wallClock,
} from './class-finder.service.ts';
import { closeOffers, offerFreedPlaces } from './class-waitlist.service.ts';
import { classEnrolments } from './classes.tables.ts';
import { queueEnrolmentConfirmation } from './enrolment-mail.ts';
import {
  type EnrolmentPrice,
  type PlaceRequest,
  priceEnrolment,
  voucherPeriodOf,
} from './enrolment-pricing.ts';
import { enrolmentSettingsOf, placesOf } from './enrolment-purchases.service.ts';
import { assertAdmitted } from './enrolment-queue.service.ts';
import { enrolmentVouchers } from './enrolment-vouchers.tables.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from './enrolments.tables.ts';

/**
 * Class enrolments as a kind of sale (decision 013, the pipeline of decision 010): full enrolments
 * and trials in the classes a registration form offers. Each place is a `class_enrolments` row,
 * `pending` (held for the checkout) until paid, then `active`. Counted under the classes' locks.
 */

export const enrolmentMessages = {
  formNotFound: 'This registration form is not available.',
  classNotFound: 'That class could not be found.',
  childForEachChoice: 'Please choose a child for each class.',
  chooseTrialSession: (name: string) => `Please choose the session of the trial in ${name}.`,
  trialsNotOffered: (name: string) => `Trials are not offered for ${name}.`,
  noSessionsLeft: (name: string) => `${name} has no sessions left this term.`,
  full: (name: string) => `Sorry, ${name} is now full.`,
  twice: (child: string, name: string) => `${child} already has a place in ${name}.`,
  chosenTwice: (child: string, name: string) => `${name} is chosen twice for ${child}.`,
  answer: (label: string, child: string) => `Please answer “${label}” for ${child}.`,
  holdLapsed: 'This held place has expired or was already taken up.',
} as const;

/** The holds a checkout with `hold_token` takes up (and gives back when it ends unpaid). */
const TAKEN_UP = ['offer', 'trial_conversion', 'rollover'] as const;

/** A place the purchase takes: a new row, or a held row of the family (a hold token) taken up. */
export interface PlannedPlace {
  child: number;
  termClassId: number;
  kind: 'enrolled' | 'trial';
  sessionId: number | null;
  /** Full enrolments: the first date charged and attended; trials: the session's date. */
  from: string;
  /** The first session's date (the age check's day). */
  firstDate: string;
  /** A held place of the family being taken up (already counted: not counted again). */
  heldId: number | null;
}

export interface EnrolmentPlan extends PlanBase {
  form: RegistrationForm;
  input: EnrolmentQuoteRequest;
  today: string;
  classes: Map<number, OfferedClass>;
  places: PlannedPlace[];
  childNames: string[];
  childDobs: string[];
  /** A key per child for the family discounts: `id:<id>` or `new:<index>`. */
  childKeys: string[];
  existing: { childKey: string; termId: number; termClassId: number }[];
  voucherUsedBy: string[];
  siblingDiscountPercent: number;
  multiClassDiscountPercent: number;
}

interface EnrolmentPriced extends Priced {
  price: EnrolmentPrice;
}

/** Reads the form, the classes and the family, and checks the selection (no locks, no writes). */
export async function planEnrolment(
  deps: AppDeps,
  tenant: Tenant,
  parentId: number | null,
  input: EnrolmentQuoteRequest,
): Promise<EnrolmentPlan> {
  const { db } = deps.database;
  const form = await publishedForm(db, tenant, input.f);
  if (!form) throw new NotFoundError(enrolmentMessages.formNotFound);
  const ids = [...new Set(input.choices.map((c) => c.term_class_id))];
  const offered = await offeredClasses(db, tenant, form, ids);
  if (offered.length !== ids.length) throw new NotFoundError(enrolmentMessages.classNotFound);
  const classes = new Map(offered.map((c) => [c.termClassId, c]));
  // Enrolment day: while a term's public enrolment queue runs, only admitted browsers check out.
  // A family taking up places held for them (an offer, a trial's link, a rollover) does not queue
  // for those: they are checked once the held places are known, below.
  const admitted = () =>
    assertAdmitted(db, tenant, {
      termIds: [...new Set(offered.map((c) => c.termId))],
      queueToken: input.queue_token ?? null,
    });
  if (!input.hold_token) await admitted();

  const problems = childrenErrors(
    input.children.map((c) => ({ ...c, insurance_ids: [] })),
    false,
    { insuranceOffered: false },
  );
  if (problems.length > 0) throw new BadRequestError(problems.join(' '));
  const existingIds = input.children.map((c) => c.id).filter((id): id is number => id !== undefined);
  if (parentId !== null) await assertOwnChildren(db, tenant, parentId, existingIds);
  else if (existingIds.length > 0) throw new NotFoundError('That child could not be found.');
  const known = new Map((await childrenByIds(db, tenant, existingIds)).map((c) => [c.id, c]));
  const childNames = input.children.map((c) =>
    c.id !== undefined ? known.get(c.id)!.firstName : c.first_name || 'New child',
  );
  const childDobs = input.children.map((c) => (c.id !== undefined ? known.get(c.id)!.dob : c.dob));
  const childKeys = input.children.map((c, i) => (c.id !== undefined ? `id:${c.id}` : `new:${i}`));

  // The form's questions, for every child with a class.
  const chosenChildren = [...new Set(input.choices.map((c) => c.child))];
  for (const index of chosenChildren) {
    if (index >= input.children.length) throw new BadRequestError(enrolmentMessages.childForEachChoice);
    for (const q of form.questions)
      if (q.required && !input.answers[index]?.[q.key]?.trim())
        throw new BadRequestError(enrolmentMessages.answer(q.label, childNames[index]!));
  }

  const company = await companyOf(db, tenant);
  const clock = wallClock(company.timeZone);
  const held = parentId !== null && input.hold_token ? await heldPlaces(db, tenant, input.hold_token) : [];
  if (input.hold_token && held.length === 0) throw new ConflictError(enrolmentMessages.holdLapsed);
  const taken = new Set<number>();
  const seen = new Set<string>();
  const places: PlannedPlace[] = input.choices.map((choice) => {
    const cls = classes.get(choice.term_class_id)!;
    const name = cls.name;
    const key = `${choice.child}|${cls.termClassId}|${choice.kind}`;
    if (seen.has(key))
      throw new BadRequestError(enrolmentMessages.chosenTwice(childNames[choice.child]!, name));
    seen.add(key);
    const childId = input.children[choice.child]!.id;
    const hold = held.find(
      (h) =>
        !taken.has(h.id) &&
        h.childId === childId &&
        h.termClassId === cls.termClassId &&
        h.kind === choice.kind,
    );
    if (hold) {
      taken.add(hold.id);
      const next = nextSession(cls, clock)?.date ?? clock.date;
      const first = hold.startsOn && hold.startsOn > next ? hold.startsOn : next;
      return {
        child: choice.child,
        termClassId: cls.termClassId,
        kind: choice.kind,
        sessionId: hold.sessionId,
        from: first,
        firstDate: first,
        heldId: hold.id,
      };
    }
    if (choice.kind === 'trial') {
      if (!form.trialsOffered || !cls.trialAllowed)
        throw new BadRequestError(enrolmentMessages.trialsNotOffered(name));
      const session = upcomingSessions(cls, clock).find((s) => s.id === choice.session_id);
      if (!session) throw new BadRequestError(enrolmentMessages.chooseTrialSession(name));
      return {
        child: choice.child,
        termClassId: cls.termClassId,
        kind: 'trial',
        sessionId: session.id,
        from: session.date,
        firstDate: session.date,
        heldId: null,
      };
    }
    const first = nextSession(cls, clock);
    if (!first) throw new ConflictError(enrolmentMessages.noSessionsLeft(name));
    return {
      child: choice.child,
      termClassId: cls.termClassId,
      kind: 'enrolled',
      sessionId: null,
      from: first.date,
      firstDate: first.date,
      heldId: null,
    };
  });
  if (input.hold_token && places.some((p) => p.heldId === null)) await admitted();

  // The family: who is already in these terms (discounts), and who already used a voucher.
  const family =
    parentId === null ? [] : ((await childIdsOfParents(db, tenant, [parentId])).get(parentId) ?? []);
  const termIds = [...new Set(offered.map((c) => c.termId))];
  const existingRows = await placesInTerms(db, tenant, family, termIds, takesPlace());
  const heldIds = new Set(places.map((p) => p.heldId).filter((id): id is number => id !== null));
  const existing = existingRows
    .filter((r) => r.kind === 'enrolled' && !heldIds.has(r.id))
    .map((r) => ({ childKey: `id:${r.childId}`, termId: r.termId, termClassId: r.termClassId }));
  const voucherUsedBy =
    input.nsw_coupon_code && existingIds.length > 0
      ? await voucherUsers(
          db,
          tenant,
          places
            .filter((p) => p.kind === 'enrolled' && input.children[p.child]!.id !== undefined)
            .map((p) => ({ childId: input.children[p.child]!.id!, period: voucherPeriodOf(p.from) })),
        )
      : [];

  const settings = await enrolmentSettingsOf(db, tenant);
  return {
    company,
    parentId: parentId ?? 0,
    couponCode: input.coupon_code,
    nswCode: input.nsw_coupon_code,
    scope: { kind: 'classes' },
    clientAmount: 'amount' in input ? Number((input as EnrolmentCheckoutRequest).amount) : 0,
    children: input.children.map((c) =>
      c.id !== undefined
        ? { id: c.id }
        : { firstName: c.first_name, lastName: c.last_name, dob: c.dob, consent: c.consent === 1 },
    ),
    form,
    input,
    today: clock.date,
    classes,
    places,
    childNames,
    childDobs,
    childKeys,
    existing,
    voucherUsedBy: voucherUsedBy.map((id) => `id:${id}`),
    siblingDiscountPercent: settings.siblingDiscountPercent,
    multiClassDiscountPercent: settings.multiClassDiscountPercent,
  };
}

/** The server's price of a plan with the codes found. */
export async function priceOfPlan(db: Db, tenant: Tenant, plan: EnrolmentPlan, discounts: FoundDiscounts) {
  const surcharge = await surchargeFor(db, tenant, plan.company.paymentMethod);
  const requests: PlaceRequest[] = plan.places.map((p) => ({
    childKey: plan.childKeys[p.child]!,
    childName: plan.childNames[p.child]!,
    termClassId: p.termClassId,
    kind: p.kind,
    from: p.from,
  }));
  return priceEnrolment({
    places: requests,
    classes: [...plan.classes.values()],
    existing: plan.existing,
    siblingDiscountPercent: plan.siblingDiscountPercent,
    multiClassDiscountPercent: plan.multiClassDiscountPercent,
    coupon: discounts.code,
    voucher: discounts.voucher
      ? { code: discounts.voucher.code, value: discounts.voucher.valuePerChild }
      : null,
    voucherUsedBy: plan.voucherUsedBy,
    surcharge,
    currency: plan.company.currency,
  });
}

/** The family's places held for a link (an offer, a trial's "enrol" link, a rollover), not lapsed. */
async function heldPlaces(db: Db, tenant: Tenant, token: string) {
  return db
    .select({
      id: classEnrolments.id,
      childId: classEnrolments.childId,
      termClassId: classEnrolments.termClassId,
      kind: classEnrolments.kind,
      sessionId: classEnrolments.sessionId,
      startsOn: classEnrolments.startsOn,
    })
    .from(classEnrolments)
    .where(
      tenant.where(
        classEnrolments,
        eq(classEnrolments.holdToken, token),
        eq(classEnrolments.status, 'pending'),
        inArray(classEnrolments.heldFor, TAKEN_UP),
        gt(classEnrolments.holdExpiresAt, sql`now()`),
      ),
    );
}

/** Which of these children used an NSW voucher in that period (on a purchase still alive). */
async function voucherUsers(db: Db, tenant: Tenant, wanted: { childId: number; period: string }[]) {
  if (wanted.length === 0) return [];
  const rows = await db
    .select({ childId: enrolmentVouchers.childId, period: enrolmentVouchers.period })
    .from(enrolmentVouchers)
    .where(
      tenant.where(
        enrolmentVouchers,
        inArray(
          enrolmentVouchers.childId,
          wanted.map((w) => w.childId),
        ),
      ),
    );
  return wanted
    .filter((w) => rows.some((r) => r.childId === w.childId && r.period === w.period))
    .map((w) => w.childId);
}

/**
 * In the releasing transaction of a purchase that ends unpaid: each held place it took up goes back
 * on its own hold (offer, trial link, rollover place: same expiry, same token, kept on the row)
 * while that hold has not lapsed; every other place is cancelled, and an offer whose place is
 * cancelled has expired. The freed places are offered on after commit (afterRelease).
 */
async function endPlaces(tx: Db, tenant: Tenant, purchaseId: number) {
  const items = await tx
    .select({
      enrolmentId: enrolmentPurchaseItems.enrolmentId,
      priorHeldFor: enrolmentPurchaseItems.priorHeldFor,
      priorHoldExpiresAt: enrolmentPurchaseItems.priorHoldExpiresAt,
      termClassId: classEnrolments.termClassId,
      startsOn: classEnrolments.startsOn,
      holdExpiresAt: classEnrolments.holdExpiresAt,
    })
    .from(enrolmentPurchaseItems)
    .innerJoin(
      classEnrolments,
      and(
        eq(classEnrolments.id, enrolmentPurchaseItems.enrolmentId),
        eq(classEnrolments.companyId, enrolmentPurchaseItems.companyId),
      ),
    )
    .where(
      tenant.where(
        enrolmentPurchaseItems,
        eq(enrolmentPurchaseItems.purchaseId, purchaseId),
        eq(classEnrolments.status, 'pending'),
      ),
    );
  const now = Date.now();
  const restorable = items.filter(
    (i) => i.priorHeldFor !== null && i.priorHoldExpiresAt !== null && i.priorHoldExpiresAt.getTime() > now,
  );
  // A checkout hold that lapsed stopped counting at once, and its place may have been sold since:
  // such a place goes back on its hold only when it is still free (counted under the lock).
  if (restorable.length > 0)
    await lockClasses(tx, tenant, [...new Set(restorable.map((i) => i.termClassId))]);
  const cancelled: number[] = [];
  for (const item of items) {
    let restore = restorable.includes(item);
    if (restore && (item.holdExpiresAt === null || item.holdExpiresAt.getTime() <= now)) {
      const from = item.startsOn ?? todayIn((await companyOf(tx, tenant)).timeZone);
      restore = ((await placesLeft(tx, tenant, [item.termClassId], from)).get(item.termClassId) ?? 0) > 0;
    }
    await tx
      .update(classEnrolments)
      .set(
        restore
          ? { heldFor: item.priorHeldFor, holdExpiresAt: item.priorHoldExpiresAt }
          : { status: 'cancelled', heldFor: null, holdExpiresAt: null },
      )
      .where(tenant.byId(classEnrolments, item.enrolmentId));
    if (!restore) cancelled.push(item.enrolmentId);
  }
  await closeOffers(tx, tenant, cancelled, 'expired');
}

/** Whether any of these places is also in another purchase that is live or paid. */
async function inOtherPurchase(tx: Db, tenant: Tenant, purchaseId: number, enrolmentIds: number[]) {
  if (enrolmentIds.length === 0) return false;
  const [other] = await tx
    .select({ id: enrolmentPurchaseItems.id })
    .from(enrolmentPurchaseItems)
    .innerJoin(
      enrolmentPurchases,
      and(
        eq(enrolmentPurchases.id, enrolmentPurchaseItems.purchaseId),
        eq(enrolmentPurchases.companyId, enrolmentPurchaseItems.companyId),
      ),
    )
    .where(
      tenant.where(
        enrolmentPurchaseItems,
        inArray(enrolmentPurchaseItems.enrolmentId, enrolmentIds),
        ne(enrolmentPurchaseItems.purchaseId, purchaseId),
        inArray(enrolmentPurchases.status, ['pending', 'confirmed']),
      ),
    )
    .limit(1);
  return other !== undefined;
}

/**
 * Under the classes' locks (or, before them, as a quick answer in a rush): every new place must
 * fit. A full enrolment needs a free place in every scheduled session from its start; a trial in its
 * session. Held places taken up are already counted.
 */
async function assertFits(db: Db, tenant: Tenant, plan: EnrolmentPlan) {
  const fresh = plan.places.filter((p) => p.heldId === null);
  if (fresh.length === 0) return;
  const ids = [...new Set(fresh.map((p) => p.termClassId))];
  const from = fresh.map((p) => p.from).sort()[0]!;
  const loads = await sessionLoads(db, tenant, ids, from);
  for (const load of loads) {
    const wanted = fresh.filter(
      (p) =>
        p.termClassId === load.termClassId &&
        (p.kind === 'enrolled' ? p.from <= load.date : p.sessionId === load.sessionId),
    ).length;
    if (wanted > 0 && load.taken + wanted > load.capacity)
      throw new ConflictError(enrolmentMessages.full(plan.classes.get(load.termClassId)!.name));
  }
}

/**
 * A child cannot take a second place of the same kind in a class (a trial also not once enrolled):
 * the family is told, and staff see it among the anomalies.
 */
async function assertNotTwice(db: Db, tenant: Tenant, plan: EnrolmentPlan) {
  const ids = plan.input.children.map((c) => c.id).filter((id): id is number => id !== undefined);
  if (ids.length === 0) return;
  const rows = await db
    .select({
      id: classEnrolments.id,
      childId: classEnrolments.childId,
      termClassId: classEnrolments.termClassId,
      kind: classEnrolments.kind,
    })
    .from(classEnrolments)
    .where(
      tenant.where(
        classEnrolments,
        inArray(classEnrolments.childId, ids),
        inArray(classEnrolments.termClassId, [...plan.classes.keys()]),
        inArray(classEnrolments.kind, ['enrolled', 'trial']),
        takesPlace(),
      ),
    );
  for (const place of plan.places) {
    const childId = plan.input.children[place.child]!.id;
    const twice = rows.find(
      (r) =>
        r.id !== place.heldId &&
        r.childId === childId &&
        r.termClassId === place.termClassId &&
        (r.kind === 'enrolled' || place.kind === 'trial'),
    );
    if (!twice) continue;
    const name = plan.classes.get(place.termClassId)!.name;
    await recordAnomaly(db, tenant, {
      formId: plan.form.id,
      kind: 'family_signed_up_twice',
      parentId: plan.parentId,
      childId: childId ?? null,
      termClassId: place.termClassId,
      otherId: twice.id,
      detail: `${plan.childNames[place.child]} was signed up again for ${name}, where they already have a place.`,
    });
    throw new ConflictError(enrolmentMessages.twice(plan.childNames[place.child]!, name));
  }
}

/** The anomalies of a purchase staff should look at (the enrolment goes through). */
async function recordAnomalies(
  tx: Db,
  tenant: Tenant,
  plan: EnrolmentPlan,
  purchaseId: number,
  childIds: number[],
) {
  for (const place of plan.places) {
    const cls = plan.classes.get(place.termClassId)!;
    const months = monthsOld(plan.childDobs[place.child]!, place.firstDate);
    if (!ageFits(months, cls.ageMinMonths, cls.ageMaxMonths))
      await recordAnomaly(tx, tenant, {
        formId: plan.form.id,
        kind: 'age_outside_range',
        parentId: plan.parentId,
        childId: childIds[place.child]!,
        termClassId: cls.termClassId,
        purchaseId,
        detail: `${plan.childNames[place.child]} is ${Math.floor(months / 12)} years ${months % 12} months old on ${place.firstDate}, outside the age range of ${cls.name}.`,
      });
  }
  for (const [i, child] of plan.input.children.entries()) {
    if (child.id !== undefined) continue;
    const like = await childLike(
      tx,
      tenant,
      { firstName: child.first_name, lastName: child.last_name, dob: child.dob },
      childIds[i]!,
    );
    if (like)
      await recordAnomaly(tx, tenant, {
        formId: plan.form.id,
        kind: 'possible_duplicate_child',
        parentId: plan.parentId,
        childId: childIds[i]!,
        purchaseId,
        otherId: like.id,
        detail: `${child.first_name} ${child.last_name} (born ${child.dob}) looks like a child the company already has.`,
      });
  }
}

export const enrolmentSale: SaleKind<EnrolmentCheckoutRequest, EnrolmentPlan> = {
  kind: 'enrolment',
  codePrefix: 'EN',
  holdMinutes: HOLD_MINUTES,

  async plan(deps, tenant, parentId, input) {
    const plan = await planEnrolment(deps, tenant, parentId, input);
    await assertNotTwice(deps.database.db, tenant, plan);
    // In a rush for the last places most checkouts arrive after they are gone: say so before
    // pricing and without queueing for the classes' locks. The count under the locks decides.
    await assertFits(deps.database.db, tenant, plan);
    return plan;
  },

  async price(deps, tenant, plan, discounts) {
    const price = await priceOfPlan(deps.database.db, tenant, plan, discounts);
    if (price.voucherError) throw new BadRequestError(price.voucherError);
    return { lines: price.lines, amountDue: price.total, price } as EnrolmentPriced;
  },

  priceChanged: (amount, company: Company) =>
    `The price has changed to ${formatMoney(amount, company.currency)}. Please check the summary and confirm again.`,

  async lock(tx, tenant, plan) {
    const locked = await lockClasses(tx, tenant, [...plan.classes.keys()]);
    const cancelled = locked.find((c) => c.status !== 'active');
    if (locked.length !== plan.classes.size || cancelled)
      throw new ConflictError(
        enrolmentMessages.full(plan.classes.get(cancelled?.id ?? 0)?.name ?? 'this class'),
      );
    await assertFits(tx, tenant, plan);
    // One live purchase per held place (the items' index is not unique: a place released by an
    // unpaid checkout can be taken up again). Read again under the classes' locks: a checkout of the
    // same link that committed meanwhile has moved the rows to `checkout`, and this one is refused.
    const heldIds = plan.places.map((p) => p.heldId).filter((id): id is number => id !== null);
    if (heldIds.length > 0) {
      const stillHeld = await tx
        .select({ id: classEnrolments.id })
        .from(classEnrolments)
        .where(
          tenant.where(
            classEnrolments,
            inArray(classEnrolments.id, heldIds),
            eq(classEnrolments.status, 'pending'),
            inArray(classEnrolments.heldFor, TAKEN_UP),
            gt(classEnrolments.holdExpiresAt, sql`now()`),
          ),
        );
      if (stillHeld.length !== heldIds.length) throw new ConflictError(enrolmentMessages.holdLapsed);
    }
  },

  async insert(tx, tenant, plan, priced, hold) {
    const { price } = priced as EnrolmentPriced;
    const [purchase] = await tx
      .insert(enrolmentPurchases)
      .values(
        tenant.values({
          parentId: hold.parentId,
          reference: hold.reference,
          code: hold.code,
          status: hold.status,
          pricing: Object.fromEntries(price.lines.map((l) => [l.key, l.value])),
          total: price.total,
          couponCode: plan.couponCode ? plan.couponCode.trim().toUpperCase() : null,
          nswCode: plan.nswCode || null,
          registrationFormId: plan.form.id,
          answers: Object.fromEntries(
            plan.input.answers
              .map((a, i) => [String(hold.childIds[i] ?? i), a] as const)
              .filter(([, a]) => a),
          ),
          holdExpiresAt: hold.holdExpiresAt,
          confirmedAt: hold.status === 'confirmed' ? new Date() : null,
        }),
      )
      .returning({ id: enrolmentPurchases.id, reference: enrolmentPurchases.reference });
    const id = purchase!.id;
    for (const [i, place] of plan.places.entries()) {
      let enrolmentId = place.heldId;
      let prior: { heldFor: (typeof TAKEN_UP)[number]; holdExpiresAt: Date } | null = null;
      if (enrolmentId !== null) {
        // The held place becomes this checkout's: it holds as long as the card payment is open. Its
        // own hold (and token, kept on the row) is given back if the checkout ends unpaid.
        const [before] = await tx
          .select({ heldFor: classEnrolments.heldFor, holdExpiresAt: classEnrolments.holdExpiresAt })
          .from(classEnrolments)
          .where(tenant.byId(classEnrolments, enrolmentId));
        prior = {
          heldFor: before!.heldFor as (typeof TAKEN_UP)[number],
          holdExpiresAt: before!.holdExpiresAt!,
        };
        await tx
          .update(classEnrolments)
          .set({ heldFor: 'checkout', holdExpiresAt: hold.holdExpiresAt })
          .where(tenant.byId(classEnrolments, enrolmentId));
      } else {
        const [row] = await tx
          .insert(classEnrolments)
          .values(
            tenant.values({
              termClassId: place.termClassId,
              childId: hold.childIds[place.child]!,
              kind: place.kind,
              sessionId: place.sessionId,
              startsOn: place.kind === 'enrolled' ? place.from : null,
              status: 'pending' as const,
              heldFor: 'checkout' as const,
              holdExpiresAt: hold.holdExpiresAt,
            }),
          )
          .returning({ id: classEnrolments.id });
        enrolmentId = row!.id;
      }
      await tx.insert(enrolmentPurchaseItems).values(
        tenant.values({
          purchaseId: id,
          enrolmentId,
          amount: price.placeAmounts[i]!,
          priorHeldFor: prior?.heldFor ?? null,
          priorHoldExpiresAt: prior?.holdExpiresAt ?? null,
        }),
      );
    }
    if (price.voucherChildKey && plan.nswCode) {
      const index = plan.childKeys.indexOf(price.voucherChildKey);
      const place = plan.places.find((p) => p.child === index && p.kind === 'enrolled')!;
      const used = await tx
        .insert(enrolmentVouchers)
        .values(
          tenant.values({
            childId: hold.childIds[index]!,
            period: voucherPeriodOf(place.from),
            code: plan.nswCode,
            purchaseId: id,
          }),
        )
        // The unique index decides between two checkouts for one child at once.
        .onConflictDoNothing()
        .returning({ id: enrolmentVouchers.id });
      if (used.length === 0)
        throw new ConflictError('This child has already used an NSW voucher this voucher period.');
    }
    await recordAnomalies(tx, tenant, plan, id, hold.childIds);
    return { id, reference: hold.reference };
  },

  cardPayment(plan, _priced, reference) {
    const n = plan.places.length;
    const query = `f=${encodeURIComponent(plan.form.key)}&authhash=${encodeURIComponent(plan.company.authhash)}&status=true&purchase=${encodeURIComponent(reference)}`;
    // A held place returns to its link: paid, it shows the confirmation there; cancelled on the
    // card page (`status=cancelled`), the link shows the place still held until its deadline.
    const token = plan.input.hold_token;
    return {
      description: `${plan.form.name} (${n} ${n === 1 ? 'class' : 'classes'})`,
      // The purchase's reference: a form paid from inside a provider's website comes back to a
      // full page that has neither the frame's sign-in nor its remembered purchase.
      returnPath: token
        ? `/registration/accept/?token=${encodeURIComponent(token)}&${query}`
        : `/registration/?${query}`,
    };
  },

  async lockPurchase(tx, tenant, id) {
    const [row] = await tx
      .select({
        status: enrolmentPurchases.status,
        holdExpiresAt: enrolmentPurchases.holdExpiresAt,
        reference: enrolmentPurchases.reference,
      })
      .from(enrolmentPurchases)
      .where(tenant.where(enrolmentPurchases, eq(enrolmentPurchases.id, id)))
      .for('update');
    return row ?? null;
  },

  async stillFree(tx, tenant, id) {
    const all = await placesOf(tx, tenant, [id]);
    const places = all.filter((p) => p.status !== 'active');
    const ids = [...new Set(all.map((p) => p.termClassId))];
    await lockClasses(tx, tenant, ids);
    // A late payment of a released purchase whose held place was given back and then taken up by
    // another checkout (live or paid): the place is that purchase's now.
    if (
      await inOtherPurchase(
        tx,
        tenant,
        id,
        all.map((p) => p.enrolmentId),
      )
    )
      return false;
    if (places.length === 0) return true;
    const from = places.map((p) => p.startsOn ?? '0000-01-01').sort()[0]!;
    const mine = new Set(places.map((p) => p.enrolmentId));
    const loads = await sessionLoads(tx, tenant, ids, from);
    // A lapsed hold no longer counts; a pending one of this purchase would be counted twice.
    const stillHeld = await tx
      .select({ id: classEnrolments.id })
      .from(classEnrolments)
      .where(tenant.where(classEnrolments, inArray(classEnrolments.id, [...mine]), takesPlace()));
    const counted = new Set(stillHeld.map((r) => r.id));
    return loads.every((load) => {
      const wanted = places.filter(
        (p) =>
          !counted.has(p.enrolmentId) &&
          p.termClassId === load.termClassId &&
          (p.kind === 'enrolled' ? (p.startsOn ?? '') <= load.date : p.sessionId === load.sessionId),
      ).length;
      return load.taken + wanted <= load.capacity;
    });
  },

  async setStatus(tx, tenant, id, status) {
    const [before] = await tx
      .select({ status: enrolmentPurchases.status })
      .from(enrolmentPurchases)
      .where(tenant.byId(enrolmentPurchases, id));
    const confirming = status === 'confirmed' ? { confirmedAt: sql`now()`, holdExpiresAt: null } : {};
    await tx
      .update(enrolmentPurchases)
      .set({ status, ...confirming })
      .where(tenant.byId(enrolmentPurchases, id));
    const enrolmentIds = (await placesOf(tx, tenant, [id])).map((p) => p.enrolmentId);
    if (enrolmentIds.length === 0 || status === 'pending') return;
    if (status === 'confirmed') {
      await tx
        .update(classEnrolments)
        .set({ status: 'active', heldFor: null, holdExpiresAt: null, holdToken: null })
        .where(tenant.where(classEnrolments, inArray(classEnrolments.id, enrolmentIds)));
      return;
    }
    // Only a purchase that was live still holds its places: a released one (a late payment flagged
    // refund_due) gave them back already, and they may be another purchase's now.
    if (before?.status === 'pending') await endPlaces(tx, tenant, id);
  },

  async confirmed(deps, tx, tenant, id) {
    await queueEnrolmentConfirmation(deps, tx, tenant, id);
  },

  async released(tx, tenant, id) {
    // An unpaid purchase gives back the child's voucher period.
    await tx
      .delete(enrolmentVouchers)
      .where(tenant.where(enrolmentVouchers, eq(enrolmentVouchers.purchaseId, id)));
  },

  async afterRelease(deps, tenant, id) {
    const places = await placesOf(deps.database.db, tenant, [id]);
    const ids = [...new Set(places.map((p) => p.termClassId))];
    if (ids.length > 0) await offerFreedPlaces(deps, tenant, ids);
  },

  async failed(_deps, tx, tenant, id) {
    // Under the purchase's lock: a failure reported twice (or by two cards) is listed once.
    const [purchase] = await tx
      .select({
        parentId: enrolmentPurchases.parentId,
        formId: enrolmentPurchases.registrationFormId,
        code: enrolmentPurchases.code,
      })
      .from(enrolmentPurchases)
      .where(tenant.where(enrolmentPurchases, eq(enrolmentPurchases.id, id)))
      .for('update');
    if (!purchase) return;
    await recordAnomalyOnce(tx, tenant, {
      formId: purchase.formId,
      kind: 'payment_failed',
      parentId: purchase.parentId,
      purchaseId: id,
      detail: `The card payment for enrolment ${purchase.code} failed; the places stay held until the hold ends.`,
    });
  },

  lapsed: (db) =>
    db
      .select({ id: enrolmentPurchases.id, companyId: enrolmentPurchases.companyId })
      .from(enrolmentPurchases)
      // cross-tenant: the expiry job sweeps every company's lapsed holds; each is released under its own tenant.
      .where(and(eq(enrolmentPurchases.status, 'pending'), lt(enrolmentPurchases.holdExpiresAt, sql`now()`)))
      .limit(500),
};
