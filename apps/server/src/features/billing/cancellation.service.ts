import {
  type CancellationOutcome,
  type CancellationPreview,
  type CancellationResult,
  type CancellationTarget,
  decideCancellation,
} from '@tumble/contracts/cancellation';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { formatMoney, share } from '../../platform/money.ts';
import type { PurchaseKind } from '../../platform/payments/settlement.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { bookedDayOfParent, cancelBookedDay } from '../bookings/parent-cancel.service.ts';
import { placeOfParent, withdrawPlaceOfParent } from '../classes/parent-withdraw.service.ts';
import { cancelPartyOfParent, partyOfParent } from '../parties/parent-cancel.service.ts';
import { cancellationPolicies } from './cancellation.tables.ts';
import { paymentsOfPurchase, recordRefund, sendRefund } from './refunds.service.ts';

/**
 * Self-service cancellation (issue 15): a parent cancels a booked event day, a party or a class
 * enrolment from their account. The company's policy for that kind (cancellation_policies) decides
 * what comes back; the preview and the cancellation run the same plan, so what the parent reads
 * before confirming is what happens. The owning feature cancels (its locks, its waitlist); billing
 * moves the money: refunds to the card or to family credit through refunds.service, against the
 * purchase's own payments, so nothing comes back that was not paid.
 */

type AppliesTo = (typeof cancellationPolicies.$inferSelect)['appliesTo'];

export function cancellationPolicyOf(db: Db, tenant: Tenant, appliesTo: AppliesTo) {
  return db
    .select()
    .from(cancellationPolicies)
    .where(tenant.where(cancellationPolicies, eq(cancellationPolicies.appliesTo, appliesTo)))
    .then((rows) => rows[0] ?? null);
}

interface Plan {
  preview: CancellationPreview;
  /** The purchase whose payments give the money back; null when nothing was paid at checkout. */
  purchase: { kind: PurchaseKind; id: number } | null;
  /** In the cancelling transaction: the feature's part; returns its after-commit work. */
  cancel(tx: Db): Promise<() => Promise<void>>;
}

const appliesToOf = { event_day: 'events', party: 'parties', enrolment: 'classes' } as const;

/** What is left to give back of a purchase's payments (refunds so far taken off). */
async function refundableOf(db: Db, tenant: Tenant, purchase: { kind: PurchaseKind; id: number }) {
  const paid = await paymentsOfPurchase(db, tenant, purchase);
  return paid.reduce((sum, p) => sum + p.refundable, 0);
}

function sentence(
  outcome: CancellationOutcome,
  amounts: { back: number; paid: number; late: boolean; noticeHours: number },
  currency: string,
): string {
  const back = formatMoney(amounts.back, currency);
  if (outcome === 'refund') return `${back} will be refunded to your card.`;
  if (outcome === 'credit')
    return `${back} will be kept as credit on your account, for a future booking or invoice.`;
  if (amounts.paid === 0) return 'Nothing was paid for this, so there is nothing to refund.';
  if (amounts.late)
    return `This is less than ${amounts.noticeHours} hours before it starts, so nothing is refunded.`;
  return 'Our cancellation policy gives nothing back for this.';
}

async function planCancellation(
  deps: AppDeps,
  auth: AuthContext,
  target: CancellationTarget,
  now: Date,
): Promise<Plan> {
  const { db } = deps.database;
  const { tenant } = auth;
  const [company, policy] = await Promise.all([
    companyOf(db, tenant),
    cancellationPolicyOf(db, tenant, appliesToOf[target.kind]),
  ]);
  const tz = company.timeZone;
  const refuse = (what: string, message: string): Plan => ({
    preview: { allowed: false, what, paid: 0, back: 0, outcome: 'nothing', message },
    purchase: null,
    cancel: async () => {
      throw new BadRequestError(message);
    },
  });
  const decide = (what: string, paid: number, startsAt: Date) => {
    const rule = policy!;
    const decided = decideCancellation(rule, { startsAt, now, paid });
    return {
      allowed: true,
      what,
      paid,
      back: decided.back,
      outcome: decided.outcome,
      message: sentence(
        decided.outcome,
        { back: decided.back, paid, late: decided.late, noticeHours: rule.noticeHours },
        company.currency,
      ),
    } satisfies CancellationPreview;
  };
  const noPolicy = 'Please contact us to cancel: this cannot be cancelled online.';

  if (target.kind === 'event_day') {
    const key = { bookingId: target.booking_id, sessionId: target.session_id, date: target.date };
    const day = await bookedDayOfParent(db, tenant, auth.userId, key, tz);
    if (!day) throw new NotFoundError();
    if (!policy) return refuse(day.what, noPolicy);
    if (day.startsAt <= now) return refuse(day.what, 'This day has already started.');
    const purchase = { kind: 'event' as const, id: day.bookingId };
    // The day's share of what is still refundable, so discounts and earlier cancellations count.
    const left = await refundableOf(db, tenant, purchase);
    const paid = day.bookingGross > 0 ? share(left, day.dayGross, day.bookingGross) : 0;
    return {
      preview: decide(day.what, paid, day.startsAt),
      purchase,
      cancel: (tx) => cancelBookedDay(deps, tx, auth, key),
    };
  }

  if (target.kind === 'party') {
    const party = await partyOfParent(db, tenant, auth.userId, target.party_booking_id, tz);
    if (!party) throw new NotFoundError();
    if (!policy) return refuse(party.what, noPolicy);
    if (party.startsAt <= now) return refuse(party.what, 'This party has already started.');
    const purchase = { kind: 'party' as const, id: party.partyBookingId };
    const paid = await refundableOf(db, tenant, purchase);
    return {
      preview: decide(party.what, paid, party.startsAt),
      purchase,
      cancel: async (tx) => {
        await cancelPartyOfParent(tx, auth, party.partyBookingId);
        return async () => {};
      },
    };
  }

  const place = await placeOfParent(db, tenant, auth.userId, target.enrolment_id, {
    timeZone: tz,
    noticeHours: policy?.noticeHours ?? 0,
    now,
  });
  if (!place) throw new NotFoundError();
  if (!policy) return refuse(place.what, noPolicy);
  const purchase = place.purchaseId === null ? null : { kind: 'enrolment' as const, id: place.purchaseId };
  // Paid at checkout: the sessions beyond the notice, never more than is left of that payment.
  // Billed on an invoice: the same value is left as a credit for the office to apply to the invoice.
  const paid = purchase
    ? Math.min(place.valueBeyondNotice, place.paidAtCheckout, await refundableOf(db, tenant, purchase))
    : place.valueBeyondNotice;
  const startsAt = place.refundFrom?.startsAt ?? new Date(now.getTime());
  const preview = decide(place.what, place.refundFrom ? paid : 0, startsAt);
  const invoicedCredit = purchase ? 0 : preview.back;
  return {
    preview: purchase
      ? preview
      : {
          ...preview,
          outcome: preview.back > 0 ? 'credit' : 'nothing',
          message:
            preview.back > 0
              ? `${formatMoney(preview.back, company.currency)} for the sessions not run will be credited to your invoice by our office.`
              : preview.message,
        },
    purchase,
    cancel: (tx) => withdrawPlaceOfParent(deps, tx, auth, place, invoicedCredit),
  };
}

/** GET /api/v1/students/cancellations/preview: what cancelling would do, before the parent confirms. */
export async function previewCancellation(
  deps: AppDeps,
  auth: AuthContext,
  target: CancellationTarget,
  now = new Date(),
): Promise<CancellationPreview> {
  return (await planCancellation(deps, auth, target, now)).preview;
}

/**
 * POST /api/v1/students/cancellations: cancels and gives back what the policy says, in one
 * transaction (a refund that cannot be recorded undoes the cancellation); card refunds are sent to
 * the provider after commit.
 */
export async function confirmCancellation(
  deps: AppDeps,
  auth: AuthContext,
  target: CancellationTarget,
  now = new Date(),
): Promise<CancellationResult> {
  const plan = await planCancellation(deps, auth, target, now);
  const { preview, purchase } = plan;
  const { tenant } = auth;
  const sent: number[] = [];
  const afterCommit = await deps.database.db.transaction(async (tx) => {
    const after = await plan.cancel(tx);
    if (preview.outcome === 'nothing' || preview.back === 0 || !purchase) return after;
    let left = preview.back;
    for (const payment of await paymentsOfPurchase(tx, tenant, purchase)) {
      const amount = Math.min(left, payment.refundable);
      if (amount <= 0) continue;
      const refund = await recordRefund(tx, auth, {
        paymentId: payment.paymentId,
        amount,
        reason: `Cancelled by the parent: ${preview.what}`,
        destination: preview.outcome === 'refund' ? 'card' : 'credit',
      });
      if (refund.destination === 'card') sent.push(refund.id);
      left -= amount;
    }
    return after;
  });
  for (const refundId of sent) await sendRefund(deps, tenant, refundId);
  await afterCommit();
  return { message: `Cancelled: ${preview.what}. ${preview.message}` };
}
