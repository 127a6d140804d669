import {
  type ChargesResponse,
  type CheckoutResponse,
  cellSchema,
  childrenErrors,
  type EventCheckoutRequest,
  encodeEventCode,
} from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { and, asc, count, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { formatMoney } from '../../platform/money.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import {
  expireOpenCheckouts,
  openCardPayment,
  type PurchaseHandler,
  stillHolding,
} from '../../platform/payments/settlement.ts';
import { randomToken } from '../../platform/secrets.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { displayDate, todayIn } from '../../platform/time.ts';
import { users } from '../accounts/accounts.tables.ts';
import { coupons, insurances, nswSettings, surcharges } from '../billing/billing.tables.ts';
import { type Cell, cellKey } from '../events/availability.ts';
import { eventPriceTiers, eventSessions, events, eventTickets } from '../events/events.tables.ts';
import { type ChildInsurance, MissingPriceError, priceEventBooking } from '../pricing/pricing.ts';
import { children } from '../students/students.tables.ts';
import { waiverLink } from '../waivers/waiver.service.ts';
import { companyOf, eventCells, HOLD_MINUTES, publishedEvent, takenPlaces } from './booking.service.ts';
import {
  bookingChildren,
  bookingPlaces,
  bookings,
  couponRedemptions,
  waitlistEntries,
} from './bookings.tables.ts';
import { offerFreedPlaces } from './waitlist.service.ts';

type Booking = typeof bookings.$inferSelect;

/** Parses `event|session|date` cells of one event; a cell of another event is refused. */
function parseCells(values: string[], eventId: number): { sessionId: number; date: string }[] {
  const seen = new Set<string>();
  const out: { sessionId: number; date: string }[] = [];
  for (const value of values) {
    const parsed = cellSchema.safeParse(value);
    if (!parsed.success || parsed.data.eventId !== eventId)
      throw new BadRequestError('One of the chosen sessions is not part of this event.');
    const key = cellKey(parsed.data.sessionId, parsed.data.date);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ sessionId: parsed.data.sessionId, date: parsed.data.date });
  }
  return out;
}

/**
 * The chosen cells must exist and not be expired, and every booked one must have `quantity`
 * places left; `sessions` name the full one in the message.
 */
function assertPlacesLeft(
  cells: Cell[],
  choice: { booked: { sessionId: number; date: string }[]; waiting: { sessionId: number; date: string }[] },
  quantity: number,
  sessions: { id: number; name: string }[],
) {
  const ofEvent = new Set(sessions.map((s) => s.id));
  if ([...choice.booked, ...choice.waiting].some((c) => !ofEvent.has(c.sessionId)))
    throw new BadRequestError('One of the chosen sessions is not part of this event.');
  const bookedCells = requireCells(cells, choice.booked);
  requireCells(cells, choice.waiting);
  for (const cell of bookedCells) {
    if (cell.available < quantity) {
      const session = sessions.find((s) => s.id === cell.sessionId)!;
      throw new ConflictError(
        `Sorry, ${session.name} on ${displayDate(cell.date)} is full. Please choose another day or join the waitlist.`,
      );
    }
  }
}

/** The cells must exist and not be expired; returns them with their state. */
function requireCells(cells: Cell[], wanted: { sessionId: number; date: string }[]): Cell[] {
  const byKey = new Map(cells.map((c) => [cellKey(c.sessionId, c.date), c]));
  return wanted.map((w) => {
    const cell = byKey.get(cellKey(w.sessionId, w.date));
    if (!cell) throw new BadRequestError('One of the chosen sessions is not running on that day.');
    if (cell.status === 'expired')
      throw new ConflictError(`Bookings for ${displayDate(w.date)} have closed. Please choose another day.`);
    return cell;
  });
}

type CouponRow = typeof coupons.$inferSelect;

/** A coupon as the pricing module takes it. */
export const discountOf = (coupon: CouponRow) => ({
  code: coupon.code,
  discountType: coupon.discountType,
  amount: (coupon.discountType === 'percent' ? coupon.percentOff : coupon.amountOff) ?? 0,
});

/** A coupon code for this event and parent, or the message shown beside the field. */
export async function findCoupon(
  db: Db,
  tenant: Tenant,
  code: string,
  context: { eventId: number; parentId: number | null; today: string },
): Promise<{ coupon: CouponRow } | { error: string }> {
  const [coupon] = await db
    .select()
    .from(coupons)
    .where(tenant.where(coupons, eq(coupons.code, code.trim().toUpperCase()), isNull(coupons.archivedAt)));
  if (!coupon) return { error: 'This coupon code is not valid.' };
  if (
    (coupon.validFrom && context.today < coupon.validFrom) ||
    (coupon.validTo && context.today > coupon.validTo)
  ) {
    return { error: 'This coupon code is not valid today.' };
  }
  if (coupon.eventIds.length > 0 && !coupon.eventIds.includes(context.eventId))
    return { error: 'This coupon code is not valid for this event.' };
  if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit)
    return { error: 'This coupon code has been used up.' };
  if (context.parentId !== null && coupon.perParentLimit !== null) {
    const [used] = await db
      .select({ n: count() })
      .from(couponRedemptions)
      .where(
        tenant.where(
          couponRedemptions,
          eq(couponRedemptions.couponId, coupon.id),
          eq(couponRedemptions.parentId, context.parentId),
        ),
      );
    if ((used?.n ?? 0) >= coupon.perParentLimit)
      return { error: 'You have already used this coupon code as often as it allows.' };
  }
  return { coupon };
}

/** An NSW voucher code in the company's format, not already used on another live booking. */
export async function findVoucher(
  db: Db,
  tenant: Tenant,
  code: string,
): Promise<{ valuePerChild: number } | { error: string }> {
  const [settings] = await db.select().from(nswSettings).where(tenant.where(nswSettings));
  if (!settings?.enabled) return { error: 'NSW vouchers are not accepted here.' };
  if (!new RegExp(settings.codeFormat).test(code)) return { error: 'This voucher code is not valid.' };
  const [used] = await db
    .select({ n: count() })
    .from(bookings)
    .where(
      tenant.where(bookings, eq(bookings.nswCode, code), inArray(bookings.status, ['pending', 'confirmed'])),
    );
  if ((used?.n ?? 0) > 0) return { error: 'This voucher code has already been used.' };
  return { valuePerChild: settings.voucherValue };
}

interface PriceRequest {
  /** The tenant's company as companyOf reads it (the callers have it already). */
  company: Awaited<ReturnType<typeof companyOf>>;
  event: typeof events.$inferSelect;
  booked: { sessionId: number; date: string }[];
  quantity: number;
  insurance: { type?: 'daily_insurance' | 'full_insurance'; ids: number[] }[];
  couponCode: string;
  nswCode: string;
  parentId: number | null;
  provider: 'stripe' | 'square' | 'test';
}

/** Loads what the price depends on and runs the pricing module: the one way a booking is priced. */
async function priceOf(db: Db, tenant: Tenant, request: PriceRequest) {
  const { company } = request;
  const today = todayIn(company.timeZone);
  const [tickets, tiers, insuranceRows, surchargeRows] = await Promise.all([
    db
      .select()
      .from(eventTickets)
      .where(tenant.where(eventTickets, eq(eventTickets.eventId, request.event.id))),
    db
      .select()
      .from(eventPriceTiers)
      .where(tenant.where(eventPriceTiers, eq(eventPriceTiers.eventId, request.event.id))),
    db
      .select()
      .from(insurances)
      .where(tenant.where(insurances, isNull(insurances.archivedAt))),
    db
      .select()
      .from(surcharges)
      .where(tenant.where(surcharges, eq(surcharges.paymentMethod, request.provider))),
  ]);
  const errors: ChargesResponse['errors'] = {};
  let coupon: CouponRow | null = null;
  if (request.couponCode && request.nswCode)
    throw new BadRequestError('Please use either a coupon code or an NSW voucher, not both.');
  if (request.couponCode) {
    const found = await findCoupon(db, tenant, request.couponCode, {
      eventId: request.event.id,
      parentId: request.parentId,
      today,
    });
    if ('error' in found) errors.invalid_coupon_code_message = found.error;
    else coupon = found.coupon;
  }
  let voucher: { valuePerChild: number } | null = null;
  if (request.nswCode) {
    const found = await findVoucher(db, tenant, request.nswCode);
    if ('error' in found) errors.invalid_nsw_coupon_code_message = found.error;
    else voucher = found;
  }
  const daily = insuranceRows.find((i) => i.kind === 'daily') ?? null;
  const fullById = new Map(insuranceRows.filter((i) => i.kind === 'full').map((i) => [i.id, i]));
  const insurance: ChildInsurance[] = request.insurance.map((c) => {
    if (c.type === 'full_insurance' && c.ids.some((id) => !fullById.has(id)))
      throw new BadRequestError(messages.selectInsurance);
    return {
      type: c.type ?? 'none',
      fullPrices: c.type === 'full_insurance' ? c.ids.map((id) => fullById.get(id)!.price) : [],
    };
  });
  const surcharge = surchargeRows[0];
  try {
    const result = priceEventBooking({
      booked: request.booked,
      quantity: request.quantity,
      tickets: tickets.map((t) => ({ sessionId: t.sessionId, price: t.price })),
      tiers: tiers.map((t) => ({ sessionId: t.sessionId, minDays: t.minDays, price: t.price })),
      bookingFee: request.event.bookingFee,
      dailyInsurancePrice: daily?.price ?? null,
      insurance,
      coupon: coupon ? discountOf(coupon) : null,
      nswVoucher: voucher
        ? { code: request.nswCode, valuePerChild: voucher.valuePerChild, children: request.quantity }
        : null,
      surcharge: surcharge ? { label: surcharge.name, kind: surcharge.kind, amount: surcharge.amount } : null,
    });
    return { result, errors, coupon, voucher, company };
  } catch (error) {
    if (error instanceof MissingPriceError) throw new AppError(422, messages.somethingWrongCalendar);
    throw error;
  }
}

export interface ChargesInput {
  eventId: number;
  quantity: number;
  booked: string[];
  couponCode: string;
  nswCode: string;
  students: { insurance_type?: 'daily_insurance' | 'full_insurance'; insurance_ids?: number[] }[];
}

/** GET /api/v1/calculate-charges-summary (event): the price lines for a selection, recomputed on the server. */
export async function eventCharges(
  deps: AppDeps,
  tenant: Tenant,
  parentId: number | null,
  input: ChargesInput,
): Promise<ChargesResponse> {
  const { db } = deps.database;
  const [event, company] = await Promise.all([
    publishedEvent(db, tenant, input.eventId),
    companyOf(db, tenant),
  ]);
  const { result, errors, coupon, voucher } = await priceOf(db, tenant, {
    company,
    event,
    booked: parseCells(input.booked, event.id),
    quantity: input.quantity,
    insurance: input.students.map((s) => ({ type: s.insurance_type, ids: s.insurance_ids ?? [] })),
    couponCode: input.couponCode,
    nswCode: input.nswCode,
    parentId,
    provider: company.paymentMethod,
  });
  return {
    pricing_details: Object.fromEntries(
      result.lines.map((l) => [
        l.key,
        { label: l.label, description: l.description, value: l.value, formatted: l.formatted },
      ]),
    ),
    additional_information: {
      coupon_code: coupon?.code ?? null,
      nsw_coupon_code: voucher ? input.nswCode : null,
    },
    errors,
  };
}

/**
 * At most `concurrency` calls at a time per key (an event) in this process; the others wait their
 * turn in arrival order. Keys without work are forgotten. See CHECKOUTS_AT_ONCE.
 */
function limitConcurrencyPerKey(concurrency: number) {
  const lanes = new Map<number, { active: number; queue: (() => void)[] }>();
  return async <T>(key: number, work: () => Promise<T>): Promise<T> => {
    let lane = lanes.get(key);
    if (!lane) {
      lane = { active: 0, queue: [] };
      lanes.set(key, lane);
    }
    if (lane.active < concurrency) lane.active++;
    else await new Promise<void>((resolve) => lane!.queue.push(resolve));
    try {
      return await work();
    } finally {
      const next = lane.queue.shift();
      if (next)
        next(); // the slot passes straight to the next in line
      else if (--lane.active === 0) lanes.delete(key);
    }
  };
}

/**
 * An event's checkouts run a few at a time per server process. In a rush (hundreds of parents for
 * the last places of a day) checkouts admitted all at once advance in lockstep: every one reads and
 * prices before any takes a place, and those waiting on the sessions' locks hold every pooled
 * connection. In turn, the first ones take the places and the rest are told it is full without
 * queueing for the locks (docs/performance.md, booking rush). Other events, and so other
 * companies, keep their own turns: a rush never delays them.
 */
const CHECKOUTS_AT_ONCE = 6;
const checkoutTurn = limitConcurrencyPerKey(CHECKOUTS_AT_ONCE);

/**
 * POST /api/v1/booking/checkout. Validates like the form, recomputes the price (the client's
 * amounts are checked, never trusted), and in ONE transaction creates the children it names, takes
 * the places (sessions locked in id order, counted under the lock) and writes waitlist entries for
 * the waiting cells. Then opens the card payment; a failure there releases the hold.
 */
export function checkoutEvent(
  deps: AppDeps,
  tenant: Tenant,
  auth: AuthContext,
  input: EventCheckoutRequest,
): Promise<CheckoutResponse> {
  return checkoutTurn(input.event_id, () => checkoutEventNow(deps, tenant, auth, input));
}

async function checkoutEventNow(
  deps: AppDeps,
  tenant: Tenant,
  auth: AuthContext,
  input: EventCheckoutRequest,
): Promise<CheckoutResponse> {
  const { db } = deps.database;
  if (auth.role !== 'student' || auth.tenant.companyId !== tenant.companyId) throw new NotFoundError();
  const event = await publishedEvent(db, tenant, input.event_id);
  const booked = parseCells(input.booked, event.id);
  const waiting = parseCells(input.waiting, event.id).filter(
    (w) => !booked.some((b) => b.sessionId === w.sessionId && b.date === w.date),
  );
  if (booked.length === 0 && waiting.length === 0)
    throw new BadRequestError('Please choose at least one session.');
  const [offered] = await db
    .select({ n: count() })
    .from(insurances)
    .where(tenant.where(insurances, isNull(insurances.archivedAt)));
  const problems = childrenErrors(input.children, booked.length > 0, {
    insuranceOffered: (offered?.n ?? 0) > 0,
  });
  if (problems.length > 0) throw new BadRequestError(problems.join(' '));
  if (input.children.length !== input.quantity)
    throw new BadRequestError('Please choose a child for each place.');

  const existingIds = input.children.map((c) => c.id).filter((id): id is number => id !== undefined);
  if (existingIds.length > 0) {
    const own = await db
      .select({ id: children.id })
      .from(children)
      .where(tenant.where(children, eq(children.parentId, auth.userId), inArray(children.id, existingIds)));
    if (own.length !== existingIds.length) throw new NotFoundError('That child could not be found.');
  }

  // In a rush for the last places most checkouts arrive after they are gone: tell them so before
  // pricing and without queueing for the sessions' locks. The count under the locks still decides.
  const seen = await eventCells(db, tenant, event, { exceptParentId: auth.userId });
  assertPlacesLeft(seen.cells, { booked, waiting }, input.quantity, seen.sessions);
  const { company } = seen;
  const { result, errors, coupon } = await priceOf(db, tenant, {
    company,
    event,
    booked,
    quantity: input.quantity,
    insurance:
      booked.length > 0 ? input.children.map((c) => ({ type: c.insurance_type, ids: c.insurance_ids })) : [],
    couponCode: input.coupon_code,
    nswCode: input.nsw_coupon_code,
    parentId: auth.userId,
    provider: company.paymentMethod,
  });
  const codeError = errors.invalid_coupon_code_message ?? errors.invalid_nsw_coupon_code_message;
  if (codeError) throw new BadRequestError(codeError);
  if (input.amount !== result.total) {
    throw new ConflictError(
      `The price has changed to ${formatMoney(result.total)}. Please check the booking summary and confirm again.`,
    );
  }

  const reference = randomToken(12);
  const holdExpiresAt = new Date(Date.now() + HOLD_MINUTES * 60_000);
  const toPay = result.total;
  const booking = await db.transaction(async (tx) => {
    // Lock what we count, once, in a fixed order: the sessions of the booked cells by id.
    const sessionIds = [...new Set(booked.map((b) => b.sessionId))].sort((a, b) => a - b);
    const locked = sessionIds.length
      ? await tx
          .select()
          .from(eventSessions)
          .where(
            tenant.where(
              eventSessions,
              inArray(eventSessions.id, sessionIds),
              eq(eventSessions.eventId, event.id),
            ),
          )
          .orderBy(asc(eventSessions.id))
          .for('update')
      : [];
    if (locked.length !== sessionIds.length)
      throw new BadRequestError('One of the chosen sessions is not part of this event.');
    const { cells, sessions } = await eventCells(tx, tenant, event, { exceptParentId: auth.userId, company });
    assertPlacesLeft(cells, { booked, waiting }, input.quantity, sessions);

    if (coupon) {
      // Count the use under the coupon's row lock, so its limit holds under concurrent checkouts.
      const [claimed] = await tx
        .update(coupons)
        .set({ usedCount: sql`${coupons.usedCount} + 1` })
        .where(
          and(
            tenant.where(coupons, eq(coupons.id, coupon.id)),
            sql`(${coupons.usageLimit} is null or ${coupons.usedCount} < ${coupons.usageLimit})`,
          ),
        )
        .returning({ id: coupons.id });
      if (!claimed) throw new ConflictError('This coupon code has been used up.');
    }

    const childIds: number[] = [];
    for (const child of input.children) {
      if (child.id !== undefined) {
        childIds.push(child.id);
        continue;
      }
      const [created] = await tx
        .insert(children)
        .values(
          tenant.values({
            parentId: auth.userId,
            firstName: child.first_name,
            lastName: child.last_name,
            dob: child.dob,
            consent: child.consent === 1,
          }),
        )
        .returning({ id: children.id });
      childIds.push(created!.id);
    }

    const pricing = Object.fromEntries(result.lines.map((l) => [l.key, l.value]));
    let created: Booking | null = null;
    if (booked.length > 0) {
      const inserted = await tx
        .insert(bookings)
        .values(
          tenant.values({
            parentId: auth.userId,
            eventId: event.id,
            reference,
            status: toPay === 0 ? ('confirmed' as const) : ('pending' as const),
            quantity: input.quantity,
            pricing,
            total: toPay,
            couponId: coupon?.id ?? null,
            couponCode: coupon?.code ?? null,
            nswCode: input.nsw_coupon_code || null,
            provider: company.paymentMethod,
            holdExpiresAt: toPay === 0 ? null : holdExpiresAt,
            confirmedAt: toPay === 0 ? new Date() : null,
          }),
        )
        .returning();
      created = inserted[0]!;
      await tx.insert(bookingChildren).values(
        input.children.map((c, i) =>
          tenant.values({
            bookingId: created!.id,
            childId: childIds[i]!,
            insuranceType: c.insurance_type ?? ('none' as const),
            insuranceIds: c.insurance_type === 'full_insurance' ? c.insurance_ids : [],
          }),
        ),
      );
      await tx.insert(bookingPlaces).values(
        booked.map((b, i) =>
          tenant.values({
            bookingId: created!.id,
            sessionId: b.sessionId,
            date: b.date,
            places: input.quantity,
            unitPrice: result.unitPrices[i]!,
          }),
        ),
      );
      if (coupon)
        await tx
          .insert(couponRedemptions)
          .values(tenant.values({ couponId: coupon.id, parentId: auth.userId, bookingId: created!.id }));
      // Invitations this parent held for these days are now used by the booking.
      await tx
        .update(waitlistEntries)
        .set({ status: 'accepted' })
        .where(
          tenant.where(
            waitlistEntries,
            eq(waitlistEntries.parentId, auth.userId),
            eq(waitlistEntries.eventId, event.id),
            eq(waitlistEntries.status, 'invited'),
          ),
        );
      if (toPay === 0) await queueConfirmation(deps, tx, tenant, created!);
    }
    if (waiting.length > 0) {
      await tx.insert(waitlistEntries).values(
        waiting.map((w) =>
          tenant.values({
            parentId: auth.userId,
            eventId: event.id,
            sessionId: w.sessionId,
            date: w.date,
            places: input.quantity,
          }),
        ),
      );
    }
    return created;
  });

  if (!booking || toPay === 0) {
    await deps.jobs.nudge(queues.mailDeliver);
    return { valid: true, booking_hash: booking?.reference ?? reference };
  }
  const [parent] = await db.select({ email: users.email }).from(users).where(eq(users.id, auth.userId));
  const returnUrl = `${deps.config.publicUrl}/booking?authhash=${encodeURIComponent(company.authhash)}&e=${encodeEventCode(tenant.companyId, event.id)}&status=true`;
  return openCardPayment(deps, tenant, {
    provider: company.paymentMethod,
    purchase: { bookingId: booking.id },
    request: {
      reference: booking.reference,
      amount: toPay,
      currency: company.currency,
      description: `${event.name} (${booked.length} session ${booked.length === 1 ? 'day' : 'days'})`,
      customerEmail: parent?.email ?? '',
      returnUrl,
      expiresAt: holdExpiresAt,
    },
    release: () => releaseBooking(deps, tenant, booking.id, 'expired'),
  });
}

/** Writes the parent's confirmation mail (sessions booked, amount paid) in the confirming transaction. */
async function queueConfirmation(deps: AppDeps, tx: Db, tenant: Tenant, booking: Booking) {
  const [parent] = await tx.select().from(users).where(eq(users.id, booking.parentId));
  const [event] = await tx.select().from(events).where(eq(events.id, booking.eventId));
  const places = await tx
    .select({
      date: bookingPlaces.date,
      name: eventSessions.name,
      start: eventSessions.startTime,
      end: eventSessions.endTime,
    })
    .from(bookingPlaces)
    .innerJoin(eventSessions, eq(eventSessions.id, bookingPlaces.sessionId))
    .where(tenant.where(bookingPlaces, eq(bookingPlaces.bookingId, booking.id)))
    .orderBy(bookingPlaces.date, eventSessions.startTime);
  const company = await companyOf(tx, tenant);
  await queueMail(tx, tenant, deps.config, 'booking-confirmation', parent!.email, {
    name: parent!.fullName,
    company: company.name,
    event: event!.name,
    sessions: places
      .map((p) => `${displayDate(p.date)} ${p.name} ${p.start.slice(0, 5)}–${p.end.slice(0, 5)}`)
      .join('\n'),
    places: String(booking.quantity),
    amount: formatMoney(booking.total),
    reference: booking.reference,
    link: waiverLink(deps.config, 'event', booking.reference, company.authhash),
  });
}

/** Ends a pending booking (hold expired, card form closed): frees its places and its coupon use. */
export async function releaseBooking(
  deps: AppDeps,
  tenant: Tenant,
  bookingId: number,
  status: 'expired' | 'cancelled',
): Promise<boolean> {
  const released = await deps.database.db.transaction(async (tx) => {
    const [booking] = await tx
      .select()
      .from(bookings)
      .where(tenant.where(bookings, eq(bookings.id, bookingId)))
      .for('update');
    if (booking?.status !== 'pending') return null;
    await tx.update(bookings).set({ status }).where(eq(bookings.id, booking.id));
    await tx
      .update(payments)
      .set({ status: 'expired' })
      .where(tenant.where(payments, eq(payments.bookingId, booking.id), eq(payments.status, 'open')));
    if (booking.couponId) {
      await tx
        .update(coupons)
        .set({ usedCount: sql`greatest(${coupons.usedCount} - 1, 0)` })
        .where(tenant.where(coupons, eq(coupons.id, booking.couponId)));
      await tx
        .delete(couponRedemptions)
        .where(tenant.where(couponRedemptions, eq(couponRedemptions.bookingId, booking.id)));
    }
    return booking;
  });
  if (!released) return false;
  await offerFreedPlaces(deps, tenant, released.eventId);
  return true;
}

/**
 * Event bookings as a purchase (platform/payments/settlement.ts): a payment confirms the booking
 * while it still holds its places, or when they are still free after the hold lapsed; otherwise
 * the booking is flagged for refund. Never oversold.
 */
export const eventPurchase: PurchaseHandler = {
  async paid(deps, tx, tenant, bookingId) {
    const [booking] = await tx
      .select()
      .from(bookings)
      .where(tenant.where(bookings, eq(bookings.id, bookingId)))
      .for('update');
    if (!booking) throw new NotFoundError();
    const holding = stillHolding(booking);
    const confirmable =
      holding ||
      ((booking.status === 'pending' || booking.status === 'expired') &&
        (await placesStillFree(tx, tenant, booking)));
    if (confirmable) {
      await tx
        .update(bookings)
        .set({ status: 'confirmed', confirmedAt: sql`now()`, holdExpiresAt: null })
        .where(eq(bookings.id, booking.id));
      await queueConfirmation(deps, tx, tenant, booking);
      return { outcome: 'paid', reference: booking.reference };
    }
    if (booking.status !== 'confirmed')
      await tx.update(bookings).set({ status: 'refund_due' }).where(eq(bookings.id, booking.id));
    return { outcome: 'refund_due', reference: booking.reference };
  },
  async expired(_deps, tx, tenant, bookingId) {
    await tx
      .update(bookings)
      .set({ status: 'expired' })
      .where(tenant.where(bookings, eq(bookings.id, bookingId), eq(bookings.status, 'pending')));
  },
  async afterRelease(deps, tenant, bookingId) {
    const [row] = await deps.database.db
      .select({ eventId: bookings.eventId })
      .from(bookings)
      .where(tenant.where(bookings, eq(bookings.id, bookingId)));
    if (row) await offerFreedPlaces(deps, tenant, row.eventId);
  },
};

/** Under the sessions' locks: would the lapsed booking's places fit again? */
async function placesStillFree(tx: Db, tenant: Tenant, booking: Booking): Promise<boolean> {
  const places = await tx.select().from(bookingPlaces).where(eq(bookingPlaces.bookingId, booking.id));
  const sessionIds = [...new Set(places.map((p) => p.sessionId))].sort((a, b) => a - b);
  const locked = await tx
    .select()
    .from(eventSessions)
    .where(tenant.where(eventSessions, inArray(eventSessions.id, sessionIds)))
    .orderBy(asc(eventSessions.id))
    .for('update');
  const taken = await takenPlaces(tx, tenant, booking.eventId, { exceptBookingId: booking.id });
  return places.every((p) => {
    const session = locked.find((s) => s.id === p.sessionId);
    return (
      session !== undefined && session.capacity - (taken.get(cellKey(p.sessionId, p.date)) ?? 0) >= p.places
    );
  });
}

/** The hold-expiry job: ends lapsed holds everywhere and tells their providers to stop taking payment. */
export async function expireLapsedHolds(deps: AppDeps): Promise<number> {
  const { db } = deps.database;
  const lapsed = await db
    .select({ id: bookings.id, companyId: bookings.companyId, provider: bookings.provider })
    .from(bookings)
    .where(and(eq(bookings.status, 'pending'), lt(bookings.holdExpiresAt, sql`now()`)))
    .limit(500);
  let released = 0;
  for (const booking of lapsed) {
    const tenant = new Tenant(booking.companyId);
    await expireOpenCheckouts(deps, tenant, { bookingId: booking.id });
    if (await releaseBooking(deps, tenant, booking.id, 'expired')) released++;
  }
  return released;
}
