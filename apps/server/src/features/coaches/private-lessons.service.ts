import {
  type AvailableLessonsResponse,
  type MyPrivateLessons,
  type PrivateLesson,
  privateLessonMessages,
  type RefundChoice,
  type StaffPrivateLessons,
} from '@tumble/contracts/private-lessons';
import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { formatMoney } from '../../platform/money.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import {
  addDays,
  datesBetween,
  displayDate,
  isoWeekday,
  todayIn,
  zonedInstant,
} from '../../platform/time.ts';
import { type Company, companyOf, contactOf } from '../accounts/accounts.service.ts';
import { contactsByIds } from '../accounts/profile.service.ts';
import { clockTime } from '../classes/class-finder.service.ts';
import { hhmm, isRestricted } from '../events/availability.ts';
import { childrenByIds } from '../students/children.service.ts';
import { restrictedDatesFor } from '../venues/venues.service.ts';
import { type Leave, leavesBetween, namesOfCoaches, onLeave } from './coaches.service.ts';
import { coaches, coachPrivateSlots } from './coaches.tables.ts';
import {
  privateLessonBookings,
  privateLessonChildren,
  privateLessonSettings,
} from './private-lessons.tables.ts';

/**
 * Private lessons (SPEC students/private-classes): a lesson is one of a coach's weekly private
 * slots on one date. Reads, the parent's and staff's lists and cancelling live here; booking is
 * the pipeline's kind in private-lesson-sale.ts.
 */

/** Parents book up to eight weeks ahead (today included), in the company's time zone. */
export const BOOKING_WEEKS = 8;

export type PrivateSlot = typeof coachPrivateSlots.$inferSelect;
type Booking = typeof privateLessonBookings.$inferSelect;

/** A live booking holds its slot-date: confirmed, or pending with an unexpired hold. */
export const liveBooking = () =>
  or(
    eq(privateLessonBookings.status, 'confirmed'),
    and(eq(privateLessonBookings.status, 'pending'), gt(privateLessonBookings.holdExpiresAt, sql`now()`)),
  );

/** What decides whether a slot runs on a date, read once for a range of dates. */
export interface Calendar {
  company: Company;
  leaves: Leave[];
  restricted: { date: string; recurringYearly: boolean }[];
  now: Date;
}

export async function calendarFor(db: Db, tenant: Tenant, from: string, to: string): Promise<Calendar> {
  const company = await companyOf(db, tenant);
  const [leaves, restricted] = [
    await leavesBetween(db, tenant, from, to),
    // Closures for every kind of booking (the events- and parties-only ones do not close lessons).
    await restrictedDatesFor(db, tenant, 'all'),
  ];
  return { company, leaves, restricted, now: new Date() };
}

/** When the lesson of a slot on a date starts. */
export const lessonStart = (date: string, startTime: string, timeZone: string) =>
  zonedInstant(date, hhmm(startTime), timeZone);

/** Why this slot cannot be booked on this date (past, too far, wrong weekday, leave, closure), or null. */
export function lessonProblem(slot: PrivateSlot, date: string, calendar: Calendar): string | null {
  const today = todayIn(calendar.company.timeZone, calendar.now);
  if (date < today || date > addDays(today, BOOKING_WEEKS * 7 - 1)) return privateLessonMessages.unavailable;
  if (String(slot.weekday) !== isoWeekday(date)) return privateLessonMessages.unavailable;
  if (lessonStart(date, slot.startTime, calendar.company.timeZone) <= calendar.now)
    return privateLessonMessages.unavailable;
  if (onLeave(calendar.leaves, slot.coachId, date)) return privateLessonMessages.unavailable;
  if (isRestricted(date, calendar.restricted)) return privateLessonMessages.unavailable;
  return null;
}

/** The slots of current coaches (optionally one coach), by weekday and time. */
async function currentSlots(db: Db, tenant: Tenant, coachId?: number) {
  return db
    .select({ slot: coachPrivateSlots })
    .from(coachPrivateSlots)
    .innerJoin(coaches, eq(coaches.id, coachPrivateSlots.coachId))
    .where(
      tenant.where(
        coachPrivateSlots,
        isNull(coaches.archivedAt),
        coachId === undefined ? undefined : eq(coachPrivateSlots.coachId, coachId),
      ),
    )
    .orderBy(asc(coachPrivateSlots.startTime), asc(coachPrivateSlots.id));
}

/** A current coach's slot of the tenant, or null (another company's id is simply not found). */
export async function slotById(db: Db, tenant: Tenant, slotId: number): Promise<PrivateSlot | null> {
  const [row] = await db
    .select({ slot: coachPrivateSlots })
    .from(coachPrivateSlots)
    .innerJoin(coaches, eq(coaches.id, coachPrivateSlots.coachId))
    .where(tenant.where(coachPrivateSlots, eq(coachPrivateSlots.id, slotId), isNull(coaches.archivedAt)));
  return row?.slot ?? null;
}

/** Slot-dates held by live bookings in the range, as `slotId|date` (except one booking). */
export async function takenLessons(db: Db, tenant: Tenant, from: string, to: string, exceptId?: number) {
  const rows = await db
    .select({
      id: privateLessonBookings.id,
      slotId: privateLessonBookings.slotId,
      date: privateLessonBookings.date,
    })
    .from(privateLessonBookings)
    .where(
      tenant.where(
        privateLessonBookings,
        liveBooking(),
        gte(privateLessonBookings.date, from),
        lte(privateLessonBookings.date, to),
      ),
    );
  return new Set(rows.filter((r) => r.id !== exceptId).map((r) => `${r.slotId}|${r.date}`));
}

/** GET available: every free lesson of the next eight weeks (one coach's, or any coach's). */
export async function availableLessons(
  deps: AppDeps,
  tenant: Tenant,
  coachId?: number,
): Promise<AvailableLessonsResponse> {
  const { db } = deps.database;
  const company = await companyOf(db, tenant);
  const from = todayIn(company.timeZone);
  const to = addDays(from, BOOKING_WEEKS * 7 - 1);
  const [calendar, all, taken] = [
    await calendarFor(db, tenant, from, to),
    await currentSlots(db, tenant),
    await takenLessons(db, tenant, from, to),
  ];
  const names = await namesOfCoaches(
    db,
    tenant,
    all.map((r) => r.slot.coachId),
  );
  const slots = all.map((r) => r.slot).filter((s) => coachId === undefined || s.coachId === coachId);
  const lessons: AvailableLessonsResponse['lessons'] = [];
  for (const date of datesBetween(from, to)) {
    for (const slot of slots) {
      if (taken.has(`${slot.id}|${date}`) || lessonProblem(slot, date, calendar)) continue;
      lessons.push({
        slot_id: slot.id,
        coach_id: slot.coachId,
        coach_name: names.get(slot.coachId) ?? '',
        date,
        time: hhmm(slot.startTime),
        duration_minutes: slot.durationMinutes,
        max_children: slot.maxChildren,
        price: slot.price,
      });
    }
  }
  const coachList = [...names]
    .map(([id, name]) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { coaches: coachList, lessons };
}

/** The company's cancellation policy (defaults: 24 hours before, paid amount becomes credit). */
export async function cancellationPolicy(db: Db, tenant: Tenant) {
  const [row] = await db.select().from(privateLessonSettings).where(tenant.where(privateLessonSettings));
  return { hoursBefore: row?.cancelHoursBefore ?? 24, outcome: row?.cancelOutcome ?? 'credit' };
}

/** Bookings as the lists show them: coach and children's names. */
async function describe(db: Db, tenant: Tenant, rows: Booking[]): Promise<PrivateLesson[]> {
  if (rows.length === 0) return [];
  const links = await db
    .select({ bookingId: privateLessonChildren.bookingId, childId: privateLessonChildren.childId })
    .from(privateLessonChildren)
    .where(
      tenant.where(
        privateLessonChildren,
        inArray(
          privateLessonChildren.bookingId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(privateLessonChildren.id));
  const [kids, names] = [
    await childrenByIds(
      db,
      tenant,
      links.map((l) => l.childId),
    ),
    await namesOfCoaches(
      db,
      tenant,
      rows.map((r) => r.coachId),
    ),
  ];
  const kidNames = new Map(kids.map((c) => [c.id, `${c.firstName} ${c.lastName}`]));
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    date: r.date,
    time: hhmm(r.startTime),
    duration_minutes: r.durationMinutes,
    coach_id: r.coachId,
    coach_name: names.get(r.coachId) ?? '',
    children: links.filter((l) => l.bookingId === r.id).map((l) => kidNames.get(l.childId) ?? ''),
    status: r.status,
    amount_paid: r.status === 'pending' || r.status === 'expired' ? 0 : r.amountDue,
    refund_choice: r.refundChoice,
    cancelled_at: r.cancelledAt?.toISOString() ?? null,
  }));
}

const outcomeNote: Record<RefundChoice, string> = {
  credit: 'the amount paid becomes a credit',
  refund: 'the amount paid is refunded',
  none: 'the amount paid is not refunded',
};

/** GET mine: the parent's booked lessons, upcoming (soonest first, with whether they may still cancel) and past. */
export async function myPrivateLessons(
  deps: AppDeps,
  tenant: Tenant,
  parentId: number,
): Promise<MyPrivateLessons> {
  const { db } = deps.database;
  const company = await companyOf(db, tenant);
  const rows = await db
    .select()
    .from(privateLessonBookings)
    .where(
      tenant.where(
        privateLessonBookings,
        eq(privateLessonBookings.parentId, parentId),
        inArray(privateLessonBookings.status, ['confirmed', 'cancelled', 'refund_due']),
      ),
    )
    .orderBy(
      asc(privateLessonBookings.date),
      asc(privateLessonBookings.startTime),
      asc(privateLessonBookings.id),
    );
  const policy = await cancellationPolicy(db, tenant);
  const now = new Date();
  const lessons = await describe(db, tenant, rows);
  const upcoming: MyPrivateLessons['upcoming'] = [];
  const past: MyPrivateLessons['past'] = [];
  rows.forEach((row, i) => {
    const lesson = lessons[i]!;
    const start = lessonStart(row.date, row.startTime, company.timeZone);
    if (row.status !== 'confirmed' || start <= now) {
      past.unshift(lesson);
      return;
    }
    const canCancel = cancellableUntil(start, policy.hoursBefore) > now;
    upcoming.push({
      ...lesson,
      can_cancel: canCancel,
      cancel_note: canCancel
        ? `You can cancel until ${policy.hoursBefore} hours before the lesson; ${outcomeNote[policy.outcome]}.`
        : privateLessonMessages.tooLate,
    });
  });
  return { upcoming, past };
}

const cancellableUntil = (start: Date, hoursBefore: number) =>
  new Date(start.getTime() - hoursBefore * 3_600_000);

/** Locks a booking of the tenant (a parent's own when `parentId` is given), or 404. */
async function lockBooking(tx: Db, tenant: Tenant, id: number, parentId?: number) {
  const [booking] = await tx
    .select()
    .from(privateLessonBookings)
    .where(
      tenant.byId(
        privateLessonBookings,
        id,
        parentId === undefined ? undefined : eq(privateLessonBookings.parentId, parentId),
      ),
    )
    .for('update');
  if (!booking) throw new NotFoundError(privateLessonMessages.notFound);
  return booking;
}

const moneyOutcome: Record<RefundChoice, (amount: string) => string> = {
  credit: (amount) => `The ${amount} you paid is kept as a credit for you.`,
  refund: (amount) => `The ${amount} you paid will be refunded.`,
  none: (amount) => `The ${amount} you paid is not refunded.`,
};

/** Cancels a locked booking and mails the family what happens to what they paid. */
async function markCancelled(
  deps: AppDeps,
  tx: Db,
  tenant: Tenant,
  booking: Booking,
  by: 'parent' | 'staff',
  choice: RefundChoice,
) {
  // Cancelled is not live: the slot-date is free again at once.
  await tx
    .update(privateLessonBookings)
    .set({ status: 'cancelled', cancelledAt: sql`now()`, cancelledBy: by, refundChoice: choice })
    .where(tenant.byId(privateLessonBookings, booking.id));
  const parent = await contactOf(tx, tenant, booking.parentId);
  const company = await companyOf(tx, tenant);
  const coach = (await namesOfCoaches(tx, tenant, [booking.coachId])).get(booking.coachId) ?? '';
  await queueMail(tx, tenant, deps.config, 'private-lesson-cancelled', parent.email, {
    name: parent.fullName,
    company: company.name,
    coach,
    date: displayDate(booking.date),
    time: hhmm(booking.startTime),
    reference: booking.code,
    outcome: moneyOutcome[choice](formatMoney(booking.amountDue, company.currency)),
  });
}

/**
 * POST cancel by the parent: allowed until the company's policy window (default 24 hours before
 * the lesson); what was paid becomes what the policy says (default credit), recorded on the booking.
 */
export async function cancelMyPrivateLesson(
  deps: AppDeps,
  tenant: Tenant,
  parentId: number,
  id: number,
): Promise<{ valid: true; message: string }> {
  const { db } = deps.database;
  const company = await companyOf(db, tenant);
  const policy = await cancellationPolicy(db, tenant);
  const booking = await db.transaction(async (tx) => {
    const locked = await lockBooking(tx, tenant, id, parentId);
    if (locked.status !== 'confirmed') throw new BadRequestError(privateLessonMessages.notCancellable);
    const start = lessonStart(locked.date, locked.startTime, company.timeZone);
    if (cancellableUntil(start, policy.hoursBefore) <= new Date())
      throw new BadRequestError(privateLessonMessages.tooLate);
    await markCancelled(deps, tx, tenant, locked, 'parent', policy.outcome);
    return locked;
  });
  await deps.jobs.nudge(queues.mailDeliver);
  return {
    valid: true,
    message: `Your lesson on ${displayDate(booking.date)} is cancelled; ${outcomeNote[policy.outcome]}.`,
  };
}

/** POST cancel by staff, at any time, with what happens to the money (billing makes refunds real). */
export async function staffCancelPrivateLesson(
  deps: AppDeps,
  tenant: Tenant,
  id: number,
  choice: RefundChoice,
): Promise<{ valid: true; message: string }> {
  const booking = await deps.database.db.transaction(async (tx) => {
    const locked = await lockBooking(tx, tenant, id);
    if (locked.status !== 'confirmed') throw new BadRequestError(privateLessonMessages.notCancellable);
    await markCancelled(deps, tx, tenant, locked, 'staff', choice);
    return locked;
  });
  await deps.jobs.nudge(queues.mailDeliver);
  return { valid: true, message: `Lesson ${booking.code} cancelled (${choice}).` };
}

/**
 * GET the staff list: bookings (not lapsed holds) from `from` (default today) to `to`, one coach
 * or all. A confirmed lesson whose coach is on leave that day is flagged: never cancelled silently.
 */
export async function staffPrivateLessons(
  deps: AppDeps,
  tenant: Tenant,
  filter: { coachId?: number; from?: string; to?: string },
): Promise<StaffPrivateLessons> {
  const { db } = deps.database;
  const company = await companyOf(db, tenant);
  const from = filter.from ?? todayIn(company.timeZone);
  const rows = await db
    .select()
    .from(privateLessonBookings)
    .where(
      tenant.where(
        privateLessonBookings,
        ne(privateLessonBookings.status, 'expired'),
        gte(privateLessonBookings.date, from),
        filter.to ? lte(privateLessonBookings.date, filter.to) : undefined,
        filter.coachId === undefined ? undefined : eq(privateLessonBookings.coachId, filter.coachId),
      ),
    )
    .orderBy(
      asc(privateLessonBookings.date),
      asc(privateLessonBookings.startTime),
      desc(privateLessonBookings.id),
    )
    .limit(500);
  const [lessons, leaves, parents, slots] = [
    await describe(db, tenant, rows),
    await leavesBetween(db, tenant, from, filter.to),
    await contactsByIds(
      db,
      tenant,
      rows.map((r) => r.parentId),
    ),
    await currentSlots(db, tenant),
  ];
  const coachNames = await namesOfCoaches(db, tenant, [
    ...slots.map((s) => s.slot.coachId),
    ...rows.map((r) => r.coachId),
  ]);
  return {
    coaches: [...coachNames].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name)),
    lessons: rows.map((r, i) => ({
      ...lessons[i]!,
      parent_name: parents.get(r.parentId)?.fullName ?? '',
      parent_email: parents.get(r.parentId)?.email ?? '',
      coach_on_leave: r.status === 'confirmed' && onLeave(leaves, r.coachId, r.date),
    })),
  };
}

/** 'Tue 1 Dec 4:00pm': a lesson's day and time as a parent reads it in a list of payments. */
function lessonWhen(date: string, startTime: string): string {
  const day = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  }).format(new Date(`${date}T00:00:00Z`));
  return `${day.replace(',', '')} ${clockTime(startTime)}`;
}

/**
 * What each of a parent's private lesson bookings (the pipeline kind `private_lesson`) was for, by
 * booking id, for the parent's payments and receipts: "Private lesson with Casey, Tue 1 Dec 4:00pm
 * (booking PL-…)". Every booking whatever its status: a cancelled lesson's payment was still made.
 */
export async function lessonPurchasesOfParent(
  db: Db,
  tenant: Tenant,
  parentId: number,
): Promise<Map<number, string>> {
  const rows = await db
    .select({
      id: privateLessonBookings.id,
      code: privateLessonBookings.code,
      coachId: privateLessonBookings.coachId,
      date: privateLessonBookings.date,
      startTime: privateLessonBookings.startTime,
    })
    .from(privateLessonBookings)
    .where(tenant.where(privateLessonBookings, eq(privateLessonBookings.parentId, parentId)));
  const coachNames = await namesOfCoaches(
    db,
    tenant,
    rows.map((r) => r.coachId),
  );
  return new Map(
    rows.map((r) => [
      r.id,
      `Private lesson with ${coachNames.get(r.coachId) ?? 'a coach'}, ${lessonWhen(r.date, r.startTime)} (booking ${r.code})`,
    ]),
  );
}
