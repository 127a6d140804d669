import {
  type ChargesResponse,
  type CheckoutResponse,
  cellSchema,
  childrenErrors,
  type EventCheckoutRequest,
  encodeEventCode,
} from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { formatMoney } from '../../platform/money.ts';
import { cached } from '../../platform/public-cache.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate } from '../../platform/time.ts';
import { type Company, companyOf, contactOf } from '../accounts/accounts.service.ts';
import { insuranceProducts, surchargeFor } from '../billing/billing.service.ts';
import type { FoundDiscounts } from '../billing/discounts.service.ts';
import { addToCalendarText } from '../calendar-feeds/calendar-links.ts';
import { chargesResponse, checkout, discountsFor } from '../checkout/checkout.ts';
import type { PlanBase, Priced, SaleKind } from '../checkout/sale-kind.ts';
import { type Cell, cellKey } from '../events/availability.ts';
import { type EventRow, lockSessions, priceTablesOf, publishedEvent } from '../events/events.service.ts';
import { type ChildInsurance, MissingPriceError, priceEventBooking } from '../pricing/pricing.ts';
import { assertOwnChildren } from '../students/children.service.ts';
import { insuranceChoices, insuranceRule } from '../students/insurance-choices.ts';
import { waiverLink } from '../waivers/waiver.service.ts';
import { bookedDays, eventCells, HOLD_MINUTES, takenPlaces } from './booking.service.ts';
import { bookingChildren, bookingPlaces, bookings, waitlistEntries } from './bookings.tables.ts';
import { offerFreedPlaces, waitlistedDaysText } from './waitlist.service.ts';

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

interface PriceRequest {
  company: Company;
  event: EventRow;
  booked: { sessionId: number; date: string }[];
  quantity: number;
  insurance: { type?: 'daily_insurance' | 'full_insurance'; ids: number[] }[];
  discounts: FoundDiscounts;
}

/** Loads what the price depends on and runs the pricing module: the one way a booking is priced. */
async function priceOf(db: Db, tenant: Tenant, request: PriceRequest) {
  const { company, discounts } = request;
  // From the public read cache (a transaction reads them itself).
  const [{ tickets, tiers }, insuranceRows, surcharge] = await Promise.all([
    cached(db, tenant, `price-tables:${request.event.id}`, () => priceTablesOf(db, tenant, request.event.id)),
    cached(db, tenant, 'insurances', () => insuranceProducts(db, tenant)),
    cached(db, tenant, `surcharge:${company.paymentMethod}`, () =>
      surchargeFor(db, tenant, company.paymentMethod),
    ),
  ]);
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
  try {
    return priceEventBooking({
      booked: request.booked,
      quantity: request.quantity,
      tickets: tickets.map((t) => ({ sessionId: t.sessionId, price: t.price })),
      tiers: tiers.map((t) => ({ sessionId: t.sessionId, minDays: t.minDays, price: t.price })),
      bookingFee: request.event.bookingFee,
      dailyInsurancePrice: daily?.price ?? null,
      insurance,
      coupon: discounts.code,
      nswVoucher: discounts.voucher
        ? {
            code: discounts.voucher.code,
            valuePerChild: discounts.voucher.valuePerChild,
            children: request.quantity,
          }
        : null,
      surcharge,
      currency: company.currency,
    });
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

/** A well-formed date that exists on the calendar (2025-02-30 does not). */
const realDate = (date: string) => {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date;
};

/**
 * GET /api/v1/calculate-charges-summary (event): the price lines for a selection, recomputed on
 * the server. Days that do not exist or have no session are refused (400), never priced. The
 * coupon field takes a coupon or a promotional code (`additional_information.coupon_kind`).
 */
export async function eventCharges(
  deps: AppDeps,
  tenant: Tenant,
  parentId: number | null,
  input: ChargesInput,
): Promise<ChargesResponse> {
  const { db } = deps.database;
  const event = await publishedEvent(db, tenant, input.eventId);
  const booked = parseCells(input.booked, event.id);
  const invalid = booked.find((b) => !realDate(b.date));
  if (invalid) throw new BadRequestError(`${invalid.date} is not a valid date.`);
  const { cells, company } = await eventCells(db, tenant, event);
  const running = new Set(cells.map((c) => cellKey(c.sessionId, c.date)));
  const missing = booked.find((b) => !running.has(cellKey(b.sessionId, b.date)));
  if (missing) throw new BadRequestError(`There is no session on ${displayDate(missing.date)} to price.`);
  const discounts = await discountsFor(deps, tenant, {
    company,
    parentId,
    couponCode: input.couponCode,
    nswCode: input.nswCode,
    scope: { kind: 'event', eventId: event.id },
  });
  const result = await priceOf(db, tenant, {
    company,
    event,
    booked,
    quantity: input.quantity,
    insurance: input.students.map((s) => ({ type: s.insurance_type, ids: s.insurance_ids ?? [] })),
    discounts,
  });
  return chargesResponse(result, discounts);
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
 * POST /api/v1/booking/checkout through the purchase pipeline (features/checkout). Validates like
 * the form, recomputes the price (the client's amounts are checked, never trusted), and in ONE
 * transaction takes the places (sessions locked in id order, counted under the lock), creates the
 * children it names, writes waitlist entries for the waiting cells and claims the discounts.
 */
export function checkoutEvent(
  deps: AppDeps,
  tenant: Tenant,
  auth: AuthContext,
  input: EventCheckoutRequest,
  origin: string = deps.config.publicUrl,
): Promise<CheckoutResponse> {
  if (auth.role !== 'student' || auth.tenant.companyId !== tenant.companyId) throw new NotFoundError();
  return checkoutTurn(input.event_id, () => checkout(deps, tenant, auth.userId, eventSale, input, origin));
}

/** Writes the parent's confirmation mail (sessions booked, amount paid) in the confirming transaction. */
async function queueConfirmation(deps: AppDeps, tx: Db, tenant: Tenant, booking: Booking) {
  const parent = await contactOf(tx, tenant, booking.parentId);
  const { eventName, days: places } = await bookedDays(tx, tenant, booking);
  const company = await companyOf(tx, tenant);
  await queueMail(tx, tenant, deps.config, 'booking-confirmation', parent.email, {
    name: parent.fullName,
    company: company.name,
    event: eventName,
    sessions: places
      .map((p) => `${displayDate(p.date)} ${p.name} ${p.start.slice(0, 5)}–${p.end.slice(0, 5)}`)
      .join('\n'),
    places: String(booking.quantity),
    amount: formatMoney(booking.total, company.currency),
    reference: booking.code,
    link: waiverLink(deps.config, 'event', booking.reference, company.authhash),
    waitlisted: await waitlistedDaysText(tx, tenant, booking.id),
    calendar: addToCalendarText(
      places.map((p) => ({
        date: p.date,
        startTime: p.start,
        endTime: p.end,
        summary: `${eventName}: ${p.name}`,
      })),
      company.timeZone,
    ),
  });
}

interface EventPlan extends PlanBase {
  event: EventRow;
  booked: { sessionId: number; date: string }[];
  waiting: { sessionId: number; date: string }[];
  quantity: number;
  input: EventCheckoutRequest;
}

/**
 * Event bookings as a kind of sale (features/checkout, decision 010): session-days of one event,
 * places counted under the sessions' locks, waitlist entries for the full days chosen.
 */
export const eventSale: SaleKind<EventCheckoutRequest, EventPlan> = {
  kind: 'event',
  codePrefix: 'BK',
  holdMinutes: HOLD_MINUTES,

  async plan(deps, tenant, parentId, input) {
    const { db } = deps.database;
    const event = await publishedEvent(db, tenant, input.event_id);
    const booked = parseCells(input.booked, event.id);
    const waiting = parseCells(input.waiting, event.id).filter(
      (w) => !booked.some((b) => b.sessionId === w.sessionId && b.date === w.date),
    );
    if (booked.length === 0 && waiting.length === 0)
      throw new BadRequestError('Please choose at least one session.');
    const insurance = insuranceRule(await insuranceChoices(db, tenant, parentId));
    const problems = childrenErrors(input.children, booked.length > 0, insurance);
    if (problems.length > 0) throw new BadRequestError(problems.join(' '));
    if (input.children.length !== input.quantity)
      throw new BadRequestError('Please choose a child for each place.');
    await assertOwnChildren(
      db,
      tenant,
      parentId,
      input.children.map((c) => c.id).filter((id): id is number => id !== undefined),
    );
    // In a rush for the last places most checkouts arrive after they are gone: tell them so before
    // pricing and without queueing for the sessions' locks. The count under the locks still decides.
    const seen = await eventCells(db, tenant, event, { exceptParentId: parentId });
    assertPlacesLeft(seen.cells, { booked, waiting }, input.quantity, seen.sessions);
    return {
      company: seen.company,
      parentId,
      couponCode: input.coupon_code,
      nswCode: input.nsw_coupon_code,
      scope: { kind: 'event', eventId: event.id },
      clientAmount: input.amount,
      children: input.children.map((c) =>
        c.id !== undefined
          ? { id: c.id }
          : { firstName: c.first_name, lastName: c.last_name, dob: c.dob, consent: c.consent === 1 },
      ),
      event,
      booked,
      waiting,
      quantity: input.quantity,
      input,
    };
  },

  async price(deps, tenant, plan, discounts) {
    const result = await priceOf(deps.database.db, tenant, {
      company: plan.company,
      event: plan.event,
      booked: plan.booked,
      quantity: plan.quantity,
      insurance:
        plan.booked.length > 0
          ? plan.input.children.map((c) => ({ type: c.insurance_type, ids: c.insurance_ids }))
          : [],
      discounts,
    });
    return { lines: result.lines, amountDue: result.total, unitPrices: result.unitPrices } as Priced;
  },

  priceChanged: (amount, company) =>
    `The price has changed to ${formatMoney(amount, company.currency)}. Please check the booking summary and confirm again.`,

  async lock(tx, tenant, plan) {
    // Lock what we count, once, in a fixed order: the sessions of the booked cells by id.
    const sessionIds = [...new Set(plan.booked.map((b) => b.sessionId))];
    const locked = await lockSessions(tx, tenant, sessionIds, plan.event.id);
    if (locked.length !== sessionIds.length)
      throw new BadRequestError('One of the chosen sessions is not part of this event.');
    const { cells, sessions } = await eventCells(tx, tenant, plan.event, {
      exceptParentId: plan.parentId,
      company: plan.company,
    });
    assertPlacesLeft(cells, plan, plan.quantity, sessions);
  },

  async insert(tx, tenant, plan, priced, hold) {
    const { input, event } = plan;
    const unitPrices = (priced as Priced & { unitPrices: number[] }).unitPrices;
    let created: Booking | undefined;
    if (plan.booked.length > 0) {
      [created] = await tx
        .insert(bookings)
        .values(
          tenant.values({
            parentId: hold.parentId,
            eventId: event.id,
            reference: hold.reference,
            code: hold.code,
            status: hold.status,
            quantity: plan.quantity,
            pricing: Object.fromEntries(priced.lines.map((l) => [l.key, l.value])),
            total: priced.amountDue,
            couponId: null,
            couponCode: input.coupon_code ? input.coupon_code.trim().toUpperCase() : null,
            nswCode: input.nsw_coupon_code || null,
            provider: plan.company.paymentMethod,
            holdExpiresAt: hold.holdExpiresAt,
            confirmedAt: hold.status === 'confirmed' ? new Date() : null,
          }),
        )
        .returning();
      const booking = created!;
      await tx.insert(bookingChildren).values(
        input.children.map((c, i) =>
          tenant.values({
            bookingId: booking.id,
            childId: hold.childIds[i]!,
            insuranceType: c.insurance_type ?? ('none' as const),
            insuranceIds: c.insurance_type === 'full_insurance' ? c.insurance_ids : [],
          }),
        ),
      );
      await tx.insert(bookingPlaces).values(
        plan.booked.map((b, i) =>
          tenant.values({
            bookingId: booking.id,
            sessionId: b.sessionId,
            date: b.date,
            places: plan.quantity,
            unitPrice: unitPrices[i]!,
          }),
        ),
      );
      // Invitations this parent held for these days are now used by the booking.
      await tx
        .update(waitlistEntries)
        .set({ status: 'accepted' })
        .where(
          tenant.where(
            waitlistEntries,
            eq(waitlistEntries.parentId, hold.parentId),
            eq(waitlistEntries.eventId, event.id),
            eq(waitlistEntries.status, 'invited'),
          ),
        );
    }
    if (plan.waiting.length > 0) {
      await tx.insert(waitlistEntries).values(
        plan.waiting.map((w) =>
          tenant.values({
            parentId: hold.parentId,
            eventId: event.id,
            sessionId: w.sessionId,
            date: w.date,
            places: plan.quantity,
            // Released with the booking if its card payment never completes.
            bookingId: created?.id ?? null,
          }),
        ),
      );
    }
    return created ? { id: created.id, reference: created.reference } : null;
  },

  cardPayment(plan) {
    const days = plan.booked.length;
    return {
      description: `${plan.event.name} (${days} session ${days === 1 ? 'day' : 'days'})`,
      returnPath: `/booking?authhash=${encodeURIComponent(plan.company.authhash)}&e=${encodeEventCode(plan.company.id, plan.event.id)}&status=true`,
    };
  },

  async lockPurchase(tx, tenant, id) {
    const [booking] = await tx
      .select()
      .from(bookings)
      .where(tenant.where(bookings, eq(bookings.id, id)))
      .for('update');
    return booking ?? null;
  },

  stillFree: (tx, tenant, id) => placesStillFree(tx, tenant, id),

  async setStatus(tx, tenant, id, status) {
    const confirming = status === 'confirmed' ? { confirmedAt: sql`now()`, holdExpiresAt: null } : {};
    await tx
      .update(bookings)
      .set({ status, ...confirming })
      .where(tenant.where(bookings, eq(bookings.id, id)));
  },

  async confirmed(deps, tx, tenant, id) {
    const [booking] = await tx
      .select()
      .from(bookings)
      .where(tenant.where(bookings, eq(bookings.id, id)));
    await fulfilWaiting(tx, tenant, booking!);
    await queueConfirmation(deps, tx, tenant, booking!);
  },

  async released(tx, tenant, id) {
    // The waitlist entries this checkout made go with it: the family abandoned the checkout.
    await tx
      .update(waitlistEntries)
      .set({ status: 'released' })
      .where(
        tenant.where(
          waitlistEntries,
          eq(waitlistEntries.bookingId, id),
          inArray(waitlistEntries.status, ['waiting', 'invited']),
        ),
      );
  },

  async afterRelease(deps, tenant, id) {
    const [row] = await deps.database.db
      .select({ eventId: bookings.eventId })
      .from(bookings)
      .where(tenant.where(bookings, eq(bookings.id, id)));
    if (row) await offerFreedPlaces(deps, tenant, row.eventId);
  },

  lapsed: (db) =>
    db
      .select({ id: bookings.id, companyId: bookings.companyId })
      .from(bookings)
      // cross-tenant: the expiry job sweeps every company's lapsed holds; each is released under its own tenant.
      .where(and(eq(bookings.status, 'pending'), lt(bookings.holdExpiresAt, sql`now()`)))
      .limit(500),
};

/**
 * A confirmed booking ends the family's waiting for the days it now has: those entries become
 * `fulfilled`, so the family is never invited to a day it already booked.
 */
async function fulfilWaiting(tx: Db, tenant: Tenant, booking: Booking) {
  const places = await tx
    .select({ sessionId: bookingPlaces.sessionId, date: bookingPlaces.date })
    .from(bookingPlaces)
    .where(tenant.where(bookingPlaces, eq(bookingPlaces.bookingId, booking.id)));
  for (const place of places) {
    await tx
      .update(waitlistEntries)
      .set({ status: 'fulfilled' })
      .where(
        tenant.where(
          waitlistEntries,
          eq(waitlistEntries.parentId, booking.parentId),
          eq(waitlistEntries.sessionId, place.sessionId),
          eq(waitlistEntries.date, place.date),
          inArray(waitlistEntries.status, ['waiting', 'invited']),
        ),
      );
  }
}

/** Under the sessions' locks: would the lapsed booking's places fit again? */
async function placesStillFree(tx: Db, tenant: Tenant, bookingId: number): Promise<boolean> {
  const [booking] = await tx
    .select()
    .from(bookings)
    .where(tenant.where(bookings, eq(bookings.id, bookingId)));
  if (!booking) return false;
  const places = await tx
    .select()
    .from(bookingPlaces)
    .where(tenant.where(bookingPlaces, eq(bookingPlaces.bookingId, booking.id)));
  const locked = await lockSessions(
    tx,
    tenant,
    places.map((p) => p.sessionId),
  );
  const taken = await takenPlaces(tx, tenant, booking.eventId, { exceptBookingId: booking.id });
  return places.every((p) => {
    const session = locked.find((s) => s.id === p.sessionId);
    return (
      session !== undefined && session.capacity - (taken.get(cellKey(p.sessionId, p.date)) ?? 0) >= p.places
    );
  });
}
