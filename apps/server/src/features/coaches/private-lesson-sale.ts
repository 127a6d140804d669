import type { ChargesResponse } from '@tumble/contracts/booking';
import {
  type PrivateLessonCheckoutRequest,
  privateLessonChildError,
  privateLessonMessages,
} from '@tumble/contracts/private-lessons';
import { and, eq, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { calendarFile, calendarMailData } from '../../platform/mail/ics.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { formatMoney } from '../../platform/money.ts';
import { expireOpenPayments } from '../../platform/payments/settlement.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate } from '../../platform/time.ts';
import { type Company, companyOf, contactOf } from '../accounts/accounts.service.ts';
import { paymentTermsFor, surchargeFor } from '../billing/billing.service.ts';
import { type FoundDiscounts, releaseDiscounts } from '../billing/discounts.service.ts';
import { chargesResponse, checkout, discountsFor, releasePurchase } from '../checkout/checkout.ts';
import type { PlanBase, Priced, SaleKind } from '../checkout/sale-kind.ts';
import { hhmm } from '../events/availability.ts';
import { discountOn, type PricingLine, surchargeLine } from '../pricing/pricing.ts';
import { assertOwnChildren, childrenByIds } from '../students/children.service.ts';
import { namesOfCoaches } from './coaches.service.ts';
import { coachPrivateSlots } from './coaches.tables.ts';
import {
  calendarFor,
  lessonProblem,
  type PrivateSlot,
  slotById,
  takenLessons,
} from './private-lessons.service.ts';
import { privateLessonBookings, privateLessonChildren } from './private-lessons.tables.ts';

/** How long a private lesson checkout holds its slot-date while the card payment is open. */
export const PRIVATE_LESSON_HOLD_MINUTES = 20;

interface LessonPrice extends Priced {
  lines: PricingLine[];
  price: number;
  discount: number;
  surcharge: number;
}

/**
 * A private lesson's price: the slot's price per lesson (whatever the number of children), less the
 * coupon or promotional code, plus the card surcharge. The one way it is priced, for the summary
 * and the checkout.
 */
async function priceLesson(
  db: Db,
  tenant: Tenant,
  slot: PrivateSlot,
  company: Company,
  discounts: FoundDiscounts,
): Promise<LessonPrice> {
  const line = (key: PricingLine['key'], label: string, description: string, value: number): PricingLine => ({
    key,
    label,
    description,
    value,
    formatted: formatMoney(value, company.currency),
  });
  const surchargeRule = await surchargeFor(db, tenant, company.paymentMethod);
  const lines = [line('subtotal', 'Private lesson', `${slot.durationMinutes} minutes`, slot.price)];
  const coupon = discounts.code;
  const discount = coupon ? discountOn(slot.price, coupon) : 0;
  if (coupon && discount > 0)
    lines.push(
      line('coupon', coupon.source === 'promotional' ? 'Promotional code' : 'Coupon', coupon.code, -discount),
    );
  const beforeSurcharge = slot.price - discount;
  const surchargeDue = surchargeLine(beforeSurcharge, surchargeRule);
  if (surchargeDue)
    lines.push(line('surcharge', surchargeDue.label, surchargeDue.description, surchargeDue.amount));
  const surcharge = surchargeDue?.amount ?? 0;
  const amountDue = beforeSurcharge + surcharge;
  lines.push(line('amount_due', 'To pay now', 'Charged to your card', amountDue));
  return { lines, amountDue, price: slot.price, discount, surcharge };
}

const scope = { kind: 'private_lesson' } as const;

/** GET charges: the price summary of a lesson (slot and date) with the coupon field's code. */
export async function privateLessonCharges(
  deps: AppDeps,
  tenant: Tenant,
  parentId: number,
  input: { slotId: number; date: string; couponCode: string },
): Promise<ChargesResponse> {
  const { db } = deps.database;
  const slot = await slotById(db, tenant, input.slotId);
  if (!slot) throw new NotFoundError(privateLessonMessages.unavailable);
  const company = await companyOf(db, tenant);
  const discounts = await discountsFor(deps, tenant, {
    company,
    parentId,
    couponCode: input.couponCode,
    nswCode: '',
    scope,
  });
  const priced = await priceLesson(db, tenant, slot, company, discounts);
  return chargesResponse(priced, discounts);
}

/** GET payment-terms: the company's class terms (private lessons are a class product). */
export async function privateLessonPaymentTerms(deps: AppDeps, tenant: Tenant) {
  return { payment_terms: await paymentTermsFor(deps.database.db, tenant, 'classes') };
}

interface LessonPlan extends PlanBase {
  input: PrivateLessonCheckoutRequest;
  slot: PrivateSlot;
}

/**
 * In the booking's transaction, under the slot's lock: pending holds of this slot-date whose time
 * ran out are ended the way the pipeline ends them (expired, open payments stopped, discounts
 * given back), so that the live-booking unique index never blocks a free lesson. A late payment for
 * one of them then finds its lesson taken and is flagged refund_due by settlement.
 */
async function expireLapsedHolds(tx: Db, tenant: Tenant, slotId: number, date: string) {
  const lapsed = await tx
    .update(privateLessonBookings)
    .set({ status: 'expired' })
    .where(
      tenant.where(
        privateLessonBookings,
        eq(privateLessonBookings.slotId, slotId),
        eq(privateLessonBookings.date, date),
        eq(privateLessonBookings.status, 'pending'),
        lte(privateLessonBookings.holdExpiresAt, sql`now()`),
      ),
    )
    .returning({ id: privateLessonBookings.id });
  for (const { id } of lapsed) {
    await expireOpenPayments(tx, tenant, { kind: 'private_lesson', id });
    await releaseDiscounts(tx, tenant, { kind: 'private_lesson', id });
  }
}

/** Locks the slot's row: two parents can never both take its lesson on one date. */
async function lockSlot(tx: Db, tenant: Tenant, slotId: number) {
  const [slot] = await tx
    .select()
    .from(coachPrivateSlots)
    .where(tenant.byId(coachPrivateSlots, slotId))
    .for('update');
  return slot ?? null;
}

/**
 * Private lessons as a kind of sale (features/checkout, decision 010): one slot on one date for
 * 1 to the slot's maxChildren of the parent's children, paid in full by card.
 */
export const privateLessonSale: SaleKind<PrivateLessonCheckoutRequest, LessonPlan> = {
  kind: 'private_lesson',
  codePrefix: 'PL',
  holdMinutes: PRIVATE_LESSON_HOLD_MINUTES,

  async plan(deps, tenant, parentId, input) {
    const { db } = deps.database;
    const slot = await slotById(db, tenant, input.slot_id);
    if (!slot) throw new NotFoundError(privateLessonMessages.unavailable);
    const childIds = [...new Set(input.child_ids)];
    if (childIds.length > slot.maxChildren)
      throw new BadRequestError(privateLessonChildError(slot.maxChildren));
    await assertOwnChildren(db, tenant, parentId, childIds);
    const company = await companyOf(db, tenant);
    return {
      company,
      parentId,
      couponCode: input.coupon_code,
      nswCode: '',
      scope,
      clientAmount: input.amount,
      children: childIds.map((id) => ({ id })),
      input,
      slot,
    };
  },

  price: (deps, tenant, plan, discounts) =>
    priceLesson(deps.database.db, tenant, plan.slot, plan.company, discounts),

  priceChanged: (amount, company) =>
    `The price has changed to ${formatMoney(amount, company.currency)}. Please check the summary and confirm again.`,

  async lock(tx, tenant, plan) {
    const { date } = plan.input;
    const slot = await lockSlot(tx, tenant, plan.slot.id);
    if (!slot) throw new NotFoundError(privateLessonMessages.unavailable);
    // The slot as it is now, under the lock (staff may have changed it since the plan read it).
    if (plan.children.length > slot.maxChildren)
      throw new BadRequestError(privateLessonChildError(slot.maxChildren));
    const problem = lessonProblem(slot, date, await calendarFor(tx, tenant, date, date));
    if (problem) throw new BadRequestError(problem);
    await expireLapsedHolds(tx, tenant, slot.id, date);
    const taken = await takenLessons(tx, tenant, date, date);
    if (taken.has(`${slot.id}|${date}`)) throw new ConflictError(privateLessonMessages.taken);
    plan.slot = slot;
  },

  async insert(tx, tenant, plan, priced, hold) {
    const price = priced as LessonPrice;
    const [row] = await tx
      .insert(privateLessonBookings)
      .values(
        tenant.values({
          parentId: hold.parentId,
          slotId: plan.slot.id,
          coachId: plan.slot.coachId,
          date: plan.input.date,
          startTime: plan.slot.startTime,
          durationMinutes: plan.slot.durationMinutes,
          reference: hold.reference,
          code: hold.code,
          status: hold.status,
          price: price.price,
          discount: price.discount,
          surcharge: price.surcharge,
          amountDue: price.amountDue,
          couponCode: plan.input.coupon_code ? plan.input.coupon_code.trim().toUpperCase() : null,
          provider: plan.company.paymentMethod,
          holdExpiresAt: hold.holdExpiresAt,
          confirmedAt: hold.status === 'confirmed' ? new Date() : null,
        }),
      )
      .returning({ id: privateLessonBookings.id, reference: privateLessonBookings.reference });
    await tx
      .insert(privateLessonChildren)
      .values(hold.childIds.map((childId) => tenant.values({ bookingId: row!.id, childId })));
    return row!;
  },

  cardPayment(plan) {
    return {
      description: `Private lesson, ${displayDate(plan.input.date)} ${hhmm(plan.slot.startTime)}`,
      returnPath: '/admin/students/private-classes?status=true',
    };
  },

  async lockPurchase(tx, tenant, id) {
    const [booking] = await tx
      .select()
      .from(privateLessonBookings)
      .where(tenant.byId(privateLessonBookings, id))
      .for('update');
    return booking ?? null;
  },

  async stillFree(tx, tenant, id) {
    const [booking] = await tx
      .select()
      .from(privateLessonBookings)
      .where(tenant.byId(privateLessonBookings, id));
    if (!booking) return false;
    await lockSlot(tx, tenant, booking.slotId);
    const taken = await takenLessons(tx, tenant, booking.date, booking.date, booking.id);
    return !taken.has(`${booking.slotId}|${booking.date}`);
  },

  async setStatus(tx, tenant, id, status) {
    const confirming = status === 'confirmed' ? { confirmedAt: sql`now()`, holdExpiresAt: null } : {};
    await tx
      .update(privateLessonBookings)
      .set({ status, ...confirming })
      .where(tenant.byId(privateLessonBookings, id));
  },

  async confirmed(deps, tx, tenant, id) {
    const [booking] = await tx
      .select()
      .from(privateLessonBookings)
      .where(tenant.byId(privateLessonBookings, id));
    await queueLessonConfirmation(deps, tx, tenant, booking!);
  },

  async afterRelease() {
    // A freed lesson simply shows as available again.
  },

  lapsed: (db) =>
    db
      .select({ id: privateLessonBookings.id, companyId: privateLessonBookings.companyId })
      .from(privateLessonBookings)
      // cross-tenant: the hold sweep runs for every company; each row carries its companyId on.
      .where(
        and(eq(privateLessonBookings.status, 'pending'), lt(privateLessonBookings.holdExpiresAt, sql`now()`)),
      )
      .limit(500),
};

/**
 * POST checkout through the purchase pipeline: recomputes the price, then in one transaction locks
 * the slot row, checks the lesson is still bookable and free on that date, holds it and claims the
 * discounts; then takes the payment by card.
 */
export function checkoutPrivateLesson(
  deps: AppDeps,
  tenant: Tenant,
  auth: AuthContext,
  input: PrivateLessonCheckoutRequest,
  origin: string = deps.config.publicUrl,
) {
  if (auth.role !== 'student' || auth.tenant.companyId !== tenant.companyId) throw new NotFoundError();
  return checkout(deps, tenant, auth.userId, privateLessonSale, input, origin);
}

/** Ends a pending lesson booking (tests and the card form's cancel): the pipeline's release. */
export function releasePrivateLesson(
  deps: AppDeps,
  tenant: Tenant,
  id: number,
  status: 'expired' | 'cancelled',
) {
  return releasePurchase(deps, tenant, privateLessonSale, id, status);
}

/** The clock time `minutes` after `time` ('HH:MM'); past midnight it reads 24:30, which zonedInstant rolls over. */
function clockAfter(time: string, minutes: number): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const total = h * 60 + m + minutes;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** The lesson as a calendar file: one event whose UID is the booking's code (platform/mail/ics.ts). */
export function lessonCalendar(
  lesson: { code: string; summary: string; date: string; startTime: string; minutes: number },
  company: { name: string; timeZone: string },
): string {
  return calendarFile({
    company: company.name,
    product: 'Private lessons',
    timeZone: company.timeZone,
    events: [
      {
        uid: `${lesson.code}@tumble`,
        date: lesson.date,
        startTime: lesson.startTime,
        endTime: clockAfter(lesson.startTime, lesson.minutes),
        summary: lesson.summary,
      },
    ],
  });
}

/** The confirmation mail, with the lesson's date and time written in it and as a calendar file. */
async function queueLessonConfirmation(
  deps: AppDeps,
  tx: Db,
  tenant: Tenant,
  booking: typeof privateLessonBookings.$inferSelect,
) {
  const parent = await contactOf(tx, tenant, booking.parentId);
  const company = await companyOf(tx, tenant);
  const links = await tx
    .select({ childId: privateLessonChildren.childId })
    .from(privateLessonChildren)
    .where(tenant.where(privateLessonChildren, eq(privateLessonChildren.bookingId, booking.id)));
  const kids = await childrenByIds(
    tx,
    tenant,
    links.map((l) => l.childId),
  );
  const coach = (await namesOfCoaches(tx, tenant, [booking.coachId])).get(booking.coachId) ?? '';
  await queueMail(tx, tenant, deps.config, 'private-lesson-confirmation', parent.email, {
    name: parent.fullName,
    company: company.name,
    coach,
    children: kids.map((c) => c.firstName).join(', '),
    date: displayDate(booking.date),
    time: hhmm(booking.startTime),
    minutes: String(booking.durationMinutes),
    amount: formatMoney(booking.amountDue, company.currency),
    reference: booking.code,
    link: `${deps.config.publicUrl}/admin/students/private-classes`,
    ...calendarMailData(
      'private-lesson.ics',
      lessonCalendar(
        {
          code: booking.code,
          summary: `Private lesson with ${coach}: ${kids.map((c) => c.firstName).join(', ')}`,
          date: booking.date,
          startTime: booking.startTime,
          minutes: booking.durationMinutes,
        },
        company,
      ),
    ),
  });
}
