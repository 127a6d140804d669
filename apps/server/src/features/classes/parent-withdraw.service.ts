import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ConflictError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate, zonedInstant } from '../../platform/time.ts';
import { childrenByIds } from '../students/children.service.ts';
import { lockClasses } from './capacity.service.ts';
import { pricedClass, recordAdjustment } from './class-students.service.ts';
import { offerFreedPlaces } from './class-waitlist.service.ts';
import { classEnrolments } from './classes.tables.ts';
import { enrolmentFee } from './enrolment-pricing.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from './enrolments.tables.ts';
import { scheduledSessionsOf } from './sessions.service.ts';

/**
 * A parent withdrawing a child from a class from their account (issue 15, self-service
 * cancellation; features/billing/cancellation.service.ts decides the money). The place ends before
 * the next session. What comes back is worked out on the sessions at least the policy's notice
 * away (sessions inside the notice are charged), never more than was paid for the place at checkout.
 */

export interface ParentPlace {
  enrolmentId: number;
  termClassId: number;
  what: string;
  /** The first session not run for the child: the place ends from this date. */
  withdrawFrom: string;
  /** The start of the first session beyond the notice (what is given back starts there); null: none. */
  refundFrom: { date: string; startsAt: Date } | null;
  /** The fee of the sessions from `refundFrom`, as the price list says. */
  valueBeyondNotice: number;
  /** Paid for this place at checkout (enrolment purchases); 0 when it was billed on an invoice. */
  paidAtCheckout: number;
  purchaseId: number | null;
}

/** The parent's active full enrolment, priced for withdrawing now; null when not theirs or nothing is left. */
export async function placeOfParent(
  db: Db,
  tenant: Tenant,
  parentId: number,
  enrolmentId: number,
  options: { timeZone: string; noticeHours: number; now: Date },
): Promise<ParentPlace | null> {
  const [place] = await db
    .select()
    .from(classEnrolments)
    .where(
      tenant.byId(
        classEnrolments,
        enrolmentId,
        eq(classEnrolments.kind, 'enrolled'),
        eq(classEnrolments.status, 'active'),
      ),
    );
  if (!place || place.withdrawnFrom !== null) return null;
  const [child] = await childrenByIds(db, tenant, [place.childId]);
  if (child?.parentId !== parentId) return null;
  const startOf = (s: { date: string; startTime: string }) =>
    zonedInstant(s.date, s.startTime.slice(0, 5), options.timeZone);
  const sessions = (await scheduledSessionsOf(db, tenant, [place.termClassId])).filter(
    (s) => !place.startsOn || s.date >= place.startsOn,
  );
  const next = sessions.find((s) => startOf(s).getTime() > options.now.getTime());
  if (!next) return null;
  const noticeEnds = options.now.getTime() + options.noticeHours * 3_600_000;
  const beyond = sessions.find((s) => startOf(s).getTime() >= noticeEnds);
  const priced = await pricedClass(db, tenant, place.termClassId);
  const [paid] = await db
    .select({
      amount: sql<number>`coalesce(sum(${enrolmentPurchaseItems.amount}), 0)::int`,
      purchaseId: sql<number | null>`max(${enrolmentPurchases.id})`,
    })
    .from(enrolmentPurchaseItems)
    .innerJoin(
      enrolmentPurchases,
      and(
        eq(enrolmentPurchases.id, enrolmentPurchaseItems.purchaseId),
        eq(enrolmentPurchases.status, 'confirmed'),
      ),
    )
    .where(tenant.where(enrolmentPurchaseItems, eq(enrolmentPurchaseItems.enrolmentId, place.id)));
  return {
    enrolmentId: place.id,
    termClassId: place.termClassId,
    what: `${child.firstName} in ${priced.name}, from ${displayDate(next.date)}`,
    withdrawFrom: next.date,
    refundFrom: beyond ? { date: beyond.date, startsAt: startOf(beyond) } : null,
    valueBeyondNotice: beyond ? enrolmentFee(priced, beyond.date).fee : 0,
    paidAtCheckout: paid?.amount ?? 0,
    purchaseId: paid?.purchaseId ?? null,
  };
}

/**
 * In the cancelling transaction, under the class's lock: ends the place from `place.withdrawFrom`.
 * A place billed on an invoice leaves a credit adjustment of `invoicedCredit` for staff (class
 * payments). Returns the work for after commit (the freed place goes to the waitlist).
 */
export async function withdrawPlaceOfParent(
  deps: AppDeps,
  tx: Db,
  auth: AuthContext,
  place: ParentPlace,
  invoicedCredit: number,
): Promise<() => Promise<void>> {
  const { tenant } = auth;
  await lockClasses(tx, tenant, [place.termClassId]);
  const [ended] = await tx
    .update(classEnrolments)
    .set({ withdrawnFrom: place.withdrawFrom })
    .where(
      tenant.byId(
        classEnrolments,
        place.enrolmentId,
        eq(classEnrolments.status, 'active'),
        sql`${classEnrolments.withdrawnFrom} is null`,
      ),
    )
    .returning();
  if (!ended) throw new ConflictError('This place has already been withdrawn.');
  if (invoicedCredit > 0)
    await recordAdjustment(
      tx,
      auth,
      ended,
      'credit',
      invoicedCredit,
      `Withdrawn by the parent from ${displayDate(place.withdrawFrom)}`,
    );
  await recordAudit(tx, auth, {
    action: 'withdraw',
    entity: 'class-enrolments',
    entityId: ended.id,
    before: { withdrawnFrom: null },
    after: { withdrawnFrom: place.withdrawFrom },
  });
  return async () => {
    await offerFreedPlaces(deps, tenant, [place.termClassId]);
  };
}
