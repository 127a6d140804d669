import type { ChargesResponse } from '@tumble/contracts/booking';
import type { FormResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import {
  type CalendarDays,
  GUEST_ROWS,
  type PartyCheckoutRequest,
  partyStudentError,
  type SlotCapacityResponse,
} from '@tumble/contracts/party';
import type { FormDefinition } from '@tumble/contracts/resources';
import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { htmlToParagraphs } from '../../platform/html.ts';
import { queues } from '../../platform/jobs.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { formatMoney } from '../../platform/money.ts';
import { cached } from '../../platform/public-cache.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { addDays, datesBetween, displayDate, isoWeekday, todayIn } from '../../platform/time.ts';
import { type Company, companyOf, contactOf } from '../accounts/accounts.service.ts';
import { paymentTermsFor, surchargeFor } from '../billing/billing.service.ts';
import type { FoundDiscounts } from '../billing/discounts.service.ts';
import { addToCalendarText, timeAfter } from '../calendar-feeds/calendar-links.ts';
import { chargesResponse, checkout, discountsFor, releasePurchase } from '../checkout/checkout.ts';
import type { PlanBase, Priced, SaleKind } from '../checkout/sale-kind.ts';
import { hhmm, isRestricted } from '../events/availability.ts';
import { pricePartyBooking } from '../pricing/pricing.ts';
import { assertOwnChildren, childFirstName } from '../students/children.service.ts';
import { restrictedDatesFor, venueOf } from '../venues/venues.service.ts';
import { waiverLink } from '../waivers/waiver.service.ts';
import {
  birthdayPricing,
  partyBookings,
  partyGuests,
  partyInvitationSettings,
  partySlots,
} from './parties.tables.ts';

/** How long a party checkout holds its slot while the deposit is paid. */
export const PARTY_HOLD_MINUTES = 30;

type PartyBooking = typeof partyBookings.$inferSelect;

/** The company's party slots, from the public read cache (a transaction reads them itself). */
async function activeSlots(db: Db, tenant: Tenant) {
  return cached(db, tenant, 'party-slots', () =>
    db
      .select()
      .from(partySlots)
      .where(tenant.where(partySlots, isNull(partySlots.archivedAt)))
      .orderBy(asc(partySlots.startTime), asc(partySlots.id)),
  );
}

const partyRestrictedDates = (db: Db, tenant: Tenant) =>
  cached(db, tenant, 'restricted:parties', () => restrictedDatesFor(db, tenant, 'parties'));

/** The company with its payment method, from the public read cache. */
const cachedCompany = (db: Db, tenant: Tenant) => cached(db, tenant, 'company', () => companyOf(db, tenant));

/** A live party holds its slot: confirmed, or pending with an unexpired hold. */
const live = () =>
  or(
    eq(partyBookings.status, 'confirmed'),
    and(eq(partyBookings.status, 'pending'), gt(partyBookings.holdExpiresAt, sql`now()`)),
  );

async function takenSlots(db: Db, tenant: Tenant, from: string, to: string, exceptId?: number) {
  const rows = await db
    .select({ slotId: partyBookings.slotId, date: partyBookings.date, id: partyBookings.id })
    .from(partyBookings)
    .where(tenant.where(partyBookings, live(), sql`${partyBookings.date} between ${from} and ${to}`));
  return new Set(rows.filter((r) => r.id !== exceptId).map((r) => `${r.slotId}|${r.date}`));
}

/** The first date a party can be booked: tomorrow in the company's zone (no past dates, no same-day parties). */
const firstBookableDate = (timeZone: string) => addDays(todayIn(timeZone), 1);

/**
 * GET load-calendar: for every bookable date of the year, how many slots are still free. Dates
 * with no slot running (or restricted, or past) are absent: the calendar shows them locked.
 */
export async function partyCalendar(deps: AppDeps, tenant: Tenant, year: number): Promise<CalendarDays> {
  const { db } = deps.database;
  const company = await cachedCompany(db, tenant);
  const first = firstBookableDate(company.timeZone);
  const from = `${year}-01-01` > first ? `${year}-01-01` : first;
  const to = `${year}-12-31`;
  if (from > to) return {};
  const [slots, restricted, taken] = await Promise.all([
    activeSlots(db, tenant),
    partyRestrictedDates(db, tenant),
    takenSlots(db, tenant, from, to),
  ]);
  const days: CalendarDays = {};
  for (const date of datesBetween(from, to)) {
    if (isRestricted(date, restricted)) continue;
    const running = slots.filter((s) => s.daysOfWeek.includes(isoWeekday(date)));
    if (running.length === 0) continue;
    days[date] = { available: running.filter((s) => !taken.has(`${s.id}|${date}`)).length };
  }
  return days;
}

function assertBookableDate(date: string, timeZone: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
    throw new BadRequestError('Please choose a valid date.');
  if (date < firstBookableDate(timeZone)) throw new BadRequestError('Please choose a date from tomorrow on.');
}

/** GET slot-capacity: the slots still free on a date, with the most guests each takes. */
export async function slotCapacity(
  deps: AppDeps,
  tenant: Tenant,
  date: string,
): Promise<SlotCapacityResponse> {
  const { db } = deps.database;
  const company = await cachedCompany(db, tenant);
  assertBookableDate(date, company.timeZone);
  const [slots, restricted, taken] = await Promise.all([
    activeSlots(db, tenant),
    partyRestrictedDates(db, tenant),
    takenSlots(db, tenant, date, date),
  ]);
  const free = isRestricted(date, restricted)
    ? []
    : slots.filter((s) => s.daysOfWeek.includes(isoWeekday(date)) && !taken.has(`${s.id}|${date}`));
  return {
    slots: free.map((s) => ({
      id: s.id,
      name: s.name,
      time: hhmm(s.startTime),
      duration_minutes: s.durationMinutes,
    })),
    capacity: Object.fromEntries(free.map((s) => [String(s.id), s.capacity])),
  };
}

async function pricingOf(db: Db, tenant: Tenant) {
  const pricing = await cached(db, tenant, 'party-pricing', async () => {
    const [row] = await db.select().from(birthdayPricing).where(tenant.where(birthdayPricing));
    return row ?? null;
  });
  if (!pricing) throw new AppError(422, messages.somethingWrongCalendar);
  return pricing;
}

/** Prices a party: the one way it is priced, for the summary and the checkout. */
async function priceParty(
  db: Db,
  tenant: Tenant,
  input: { guests: number; company: Company; discounts: FoundDiscounts },
) {
  const [pricing, surcharge] = await Promise.all([
    pricingOf(db, tenant),
    cached(db, tenant, `surcharge:${input.company.paymentMethod}`, () =>
      surchargeFor(db, tenant, input.company.paymentMethod),
    ),
  ]);
  const { discounts } = input;
  return pricePartyBooking({
    basePrice: pricing.basePrice,
    includedGuests: pricing.includedGuests,
    pricePerExtraGuest: pricing.pricePerExtraGuest,
    deposit: pricing.deposit,
    guests: input.guests,
    coupon: discounts.code,
    nswVoucher: discounts.voucher
      ? { code: discounts.voucher.code, value: discounts.voucher.valuePerChild }
      : null,
    surcharge,
    currency: input.company.currency,
  });
}

/**
 * GET calculate-charges-summary with type_of_registration=party. The coupon field takes a coupon
 * or a promotional code (`additional_information.coupon_kind`).
 */
export async function partyCharges(
  deps: AppDeps,
  tenant: Tenant,
  parentId: number | null,
  input: { date: string; quantity: number; couponCode: string; nswCode: string },
): Promise<ChargesResponse> {
  const { db } = deps.database;
  const company = await cachedCompany(db, tenant);
  assertBookableDate(input.date, company.timeZone);
  const discounts = await discountsFor(deps, tenant, {
    company,
    parentId,
    couponCode: input.couponCode,
    nswCode: input.nswCode,
    scope: { kind: 'party' },
  });
  const result = await priceParty(db, tenant, { guests: input.quantity, company, discounts });
  return chargesResponse(result, discounts);
}

/** GET /api/v1/birthday-party/payment-terms: the company's default party terms. */
export async function partyPaymentTerms(deps: AppDeps, tenant: Tenant): Promise<{ payment_terms: string }> {
  const { db } = deps.database;
  return {
    payment_terms: await cached(db, tenant, 'terms:parties', () => paymentTermsFor(db, tenant, 'parties')),
  };
}

interface PartyPlan extends PlanBase {
  input: PartyCheckoutRequest;
}

/**
 * Party bookings as a kind of sale (features/checkout, decision 010): one slot on one date, the
 * slot's row locked so two parents can never both take it; the deposit is paid by card and the
 * balance stays for staff to collect.
 */
export const partySale: SaleKind<PartyCheckoutRequest, PartyPlan> = {
  kind: 'party',
  codePrefix: 'BP',
  holdMinutes: PARTY_HOLD_MINUTES,

  async plan(deps, tenant, parentId, input) {
    const { db } = deps.database;
    const childError = partyStudentError(input.student);
    if (childError) throw new BadRequestError(childError);
    const company = await companyOf(db, tenant);
    assertBookableDate(input.date, company.timeZone);
    const student = input.student!;
    if (student.id !== undefined) await assertOwnChildren(db, tenant, parentId, [student.id]);
    return {
      company,
      parentId,
      couponCode: input.coupon_code,
      nswCode: input.nsw_coupon_code,
      scope: { kind: 'party' },
      clientAmount: input.amount,
      children: [
        student.id !== undefined
          ? { id: student.id }
          : { firstName: student.first_name, lastName: student.last_name, dob: student.dob, consent: false },
      ],
      input,
    };
  },

  async price(deps, tenant, plan, discounts) {
    const result = await priceParty(deps.database.db, tenant, {
      guests: plan.input.quantity,
      company: plan.company,
      discounts,
    });
    return { ...result, amountDue: result.amountDue };
  },

  priceChanged: (amount, company) =>
    `The price has changed to ${formatMoney(amount, company.currency)} due now. Please check the summary and confirm again.`,

  async lock(tx, tenant, plan) {
    const { input } = plan;
    // One lock, on the slot: two parents can never both take it for the same date.
    const [slot] = await tx
      .select()
      .from(partySlots)
      .where(tenant.where(partySlots, eq(partySlots.id, input.slot_id), isNull(partySlots.archivedAt)))
      .for('update');
    if (!slot) throw new BadRequestError('Please choose one of the available slots.');
    const restricted = await partyRestrictedDates(tx, tenant);
    if (!slot.daysOfWeek.includes(isoWeekday(input.date)) || isRestricted(input.date, restricted)) {
      throw new BadRequestError('That slot is not available on that date.');
    }
    if (input.quantity > slot.capacity)
      throw new BadRequestError(`${slot.name} takes at most ${slot.capacity} guests.`);
    const [clash] = await tx
      .select({ id: partyBookings.id })
      .from(partyBookings)
      .where(
        tenant.where(
          partyBookings,
          eq(partyBookings.slotId, slot.id),
          eq(partyBookings.date, input.date),
          live(),
        ),
      );
    if (clash)
      throw new ConflictError(
        `Sorry, ${slot.name} on ${displayDate(input.date)} has just been booked. Please choose another slot or date.`,
      );
  },

  async insert(tx, tenant, plan, priced, hold) {
    const result = priced as Priced & { total: number; deposit: number; balance: number };
    const [row] = await tx
      .insert(partyBookings)
      .values(
        tenant.values({
          parentId: hold.parentId,
          slotId: plan.input.slot_id,
          date: plan.input.date,
          childId: hold.childIds[0]!,
          reference: hold.reference,
          code: hold.code,
          status: hold.status,
          guests: plan.input.quantity,
          pricing: Object.fromEntries(result.lines.map((l) => [l.key, l.value])),
          total: result.total,
          deposit: result.deposit,
          balance: result.balance,
          couponCode: plan.input.coupon_code ? plan.input.coupon_code.trim().toUpperCase() : null,
          provider: plan.company.paymentMethod,
          holdExpiresAt: hold.holdExpiresAt,
          confirmedAt: hold.status === 'confirmed' ? new Date() : null,
        }),
      )
      .returning({ id: partyBookings.id, reference: partyBookings.reference });
    return row!;
  },

  cardPayment(plan) {
    return {
      description: `Birthday party deposit, ${displayDate(plan.input.date)}`,
      returnPath: `/birthday-party/booking/?authhash=${encodeURIComponent(plan.company.authhash)}&status=true`,
    };
  },

  async lockPurchase(tx, tenant, id) {
    const [booking] = await tx
      .select()
      .from(partyBookings)
      .where(tenant.where(partyBookings, eq(partyBookings.id, id)))
      .for('update');
    return booking ?? null;
  },

  async stillFree(tx, tenant, id) {
    const [booking] = await tx
      .select()
      .from(partyBookings)
      .where(tenant.where(partyBookings, eq(partyBookings.id, id)));
    if (!booking) return false;
    await tx
      .select({ id: partySlots.id })
      .from(partySlots)
      .where(tenant.where(partySlots, eq(partySlots.id, booking.slotId)))
      .for('update');
    const taken = await takenSlots(tx, tenant, booking.date, booking.date, booking.id);
    return !taken.has(`${booking.slotId}|${booking.date}`);
  },

  async setStatus(tx, tenant, id, status) {
    const confirming = status === 'confirmed' ? { confirmedAt: sql`now()`, holdExpiresAt: null } : {};
    await tx
      .update(partyBookings)
      .set({ status, ...confirming })
      .where(tenant.where(partyBookings, eq(partyBookings.id, id)));
  },

  async confirmed(deps, tx, tenant, id) {
    const [booking] = await tx
      .select()
      .from(partyBookings)
      .where(tenant.where(partyBookings, eq(partyBookings.id, id)));
    await queuePartyConfirmation(deps, tx, tenant, booking!);
  },

  async afterRelease() {
    // A freed slot simply shows as free again on the calendar.
  },

  lapsed: (db) =>
    db
      .select({ id: partyBookings.id, companyId: partyBookings.companyId })
      .from(partyBookings)
      // cross-tenant: the hold sweep runs for every company; each row carries its companyId on.
      .where(and(eq(partyBookings.status, 'pending'), lt(partyBookings.holdExpiresAt, sql`now()`)))
      .limit(500),
};

/**
 * POST /api/v1/birthday-party/booking/checkout through the purchase pipeline (features/checkout):
 * recomputes the price, then in one transaction locks the slot row, checks no live party has the
 * slot on that date and that the guests fit, creates the child if new, holds the slot and claims
 * the discounts; then takes the deposit by card.
 */
export function checkoutParty(
  deps: AppDeps,
  tenant: Tenant,
  auth: AuthContext,
  input: PartyCheckoutRequest,
  origin: string = deps.config.publicUrl,
) {
  if (auth.role !== 'student' || auth.tenant.companyId !== tenant.companyId) throw new NotFoundError();
  return checkout(deps, tenant, auth.userId, partySale, input, origin);
}

/** Ends a pending party booking (tests and staff): the pipeline's release. */
export function releasePartyBooking(
  deps: AppDeps,
  tenant: Tenant,
  id: number,
  status: 'expired' | 'cancelled',
) {
  return releasePurchase(deps, tenant, partySale, id, status);
}

async function queuePartyConfirmation(deps: AppDeps, tx: Db, tenant: Tenant, booking: PartyBooking) {
  const parent = await contactOf(tx, tenant, booking.parentId);
  const [slot] = await tx
    .select()
    .from(partySlots)
    .where(tenant.where(partySlots, eq(partySlots.id, booking.slotId)));
  const company = await companyOf(tx, tenant);
  await queueMail(tx, tenant, deps.config, 'party-confirmation', parent.email, {
    name: parent.fullName,
    company: company.name,
    date: displayDate(booking.date),
    time: slot ? hhmm(slot.startTime) : '',
    guests: String(booking.guests),
    deposit: formatMoney(booking.deposit, company.currency),
    balance: formatMoney(booking.balance, company.currency),
    reference: booking.code,
    link: `${deps.config.publicUrl}/birthday-party/update-guest/?id=${booking.reference}&authhash=${encodeURIComponent(company.authhash)}`,
    waiver_link: waiverLink(deps.config, 'party', booking.reference, company.authhash),
    calendar: slot
      ? addToCalendarText(
          [
            {
              date: booking.date,
              startTime: hhmm(slot.startTime),
              endTime: timeAfter(slot.startTime, slot.durationMinutes),
              summary: `Birthday party at ${company.name}`,
            },
          ],
          company.timeZone,
        )
      : '',
  });
}

/** The parent's own live party booking by its reference, or 404. */
async function ownParty(deps: AppDeps, auth: AuthContext, reference: string) {
  const [booking] = await deps.database.db
    .select()
    .from(partyBookings)
    .where(
      auth.tenant.where(
        partyBookings,
        eq(partyBookings.reference, reference),
        eq(partyBookings.parentId, auth.userId),
      ),
    );
  if (!booking || (booking.status !== 'confirmed' && booking.status !== 'pending'))
    throw new NotFoundError('This party booking could not be found.');
  return booking;
}

const guestFields = ['child_name', 'parent_name', 'parent_email', 'parent_phone'] as const;
const guestLabels: Record<(typeof guestFields)[number], string> = {
  child_name: 'Child’s name',
  parent_name: 'Parent’s name',
  parent_email: 'Parent’s email',
  parent_phone: 'Parent’s phone',
};

/** The update-guest form definition: `count` rows (at most 10) of child and parent details. */
export async function guestForm(
  deps: AppDeps,
  auth: AuthContext,
  reference: string,
  count: number,
): Promise<FormDefinition> {
  const booking = await ownParty(deps, auth, reference);
  const rows = await deps.database.db
    .select()
    .from(partyGuests)
    .where(auth.tenant.where(partyGuests, eq(partyGuests.partyBookingId, booking.id)));
  const byPosition = new Map(rows.map((r) => [r.position, r]));
  const fields: FormDefinition['fields'] = [];
  // One row per booked guest, at most GUEST_ROWS (SPEC.md: count 10); the title says the same number.
  const shown = Math.min(count, GUEST_ROWS, booking.guests);
  for (let position = 1; position <= shown; position++) {
    const guest = byPosition.get(position);
    const values = {
      child_name: guest?.childName,
      parent_name: guest?.parentName,
      parent_email: guest?.parentEmail,
      parent_phone: guest?.parentPhone,
    };
    for (const name of guestFields) {
      fields.push({
        name: `guest_${position}_${name}`,
        type: name === 'parent_email' ? 'email' : name === 'parent_phone' ? 'phone' : 'text',
        label: `Guest ${position}: ${guestLabels[name]}`,
        required: false,
        readOnly: false,
        max: name === 'parent_email' ? 254 : name === 'parent_phone' ? 30 : 120,
        value: values[name] ?? null,
      });
    }
  }
  return { title: `Guests for ${displayDate(booking.date)} (up to ${shown})`, fields };
}

/**
 * Saves the guest rows; each guest's parent with an email that has not been invited yet gets the
 * party invitation with a link to the party waiver for that guest.
 */
export async function saveGuests(
  deps: AppDeps,
  auth: AuthContext,
  reference: string,
  body: Record<string, unknown>,
): Promise<FormResponse> {
  const booking = await ownParty(deps, auth, reference);
  const errors: { name: string; messages: string[] }[] = [];
  const rows: {
    position: number;
    childName: string;
    parentName: string | null;
    parentEmail: string | null;
    parentPhone: string | null;
  }[] = [];
  for (let position = 1; position <= GUEST_ROWS; position++) {
    const get = (name: string) => {
      const value = body[`guest_${position}_${name}`];
      return typeof value === 'string' ? value.trim().slice(0, 254) : '';
    };
    const [child, parentName, email, phone] = [
      get('child_name'),
      get('parent_name'),
      get('parent_email').toLowerCase(),
      get('parent_phone'),
    ];
    if (!child && !parentName && !email && !phone) continue;
    if (!child)
      errors.push({ name: `guest_${position}_child_name`, messages: ['Please enter the child’s name.'] });
    if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
      errors.push({
        name: `guest_${position}_parent_email`,
        messages: ['Please enter a valid email address.'],
      });
    if (phone && !/^[0-9 +()-]{6,30}$/.test(phone))
      errors.push({
        name: `guest_${position}_parent_phone`,
        messages: ['Please enter a valid phone number.'],
      });
    rows.push({
      position,
      childName: child,
      parentName: parentName || null,
      parentEmail: email || null,
      parentPhone: phone || null,
    });
  }
  if (rows.length > booking.guests) {
    errors.push({ name: '_form', messages: [`This party is booked for ${booking.guests} guests.`] });
  }
  if (errors.length > 0)
    return { valid: false, error: { html_message: errors[0]!.messages[0]!, element: errors } };

  const { tenant } = auth;
  const invited = await deps.database.db.transaction(async (tx) => {
    // Saves of one guest list run one at a time: the booking's row is the lock (without it, two
    // saves both insert position 1 and one fails on the unique index).
    await tx
      .select({ id: partyBookings.id })
      .from(partyBookings)
      .where(tenant.where(partyBookings, eq(partyBookings.id, booking.id)))
      .for('update');
    const existing = await tx
      .select()
      .from(partyGuests)
      .where(tenant.where(partyGuests, eq(partyGuests.partyBookingId, booking.id)))
      .for('update');
    const before = new Map(existing.map((g) => [g.position, g]));
    // A row keeps its id (and so its waiver link and signed waiver) while it names the same child
    // and parent email; a changed or removed row is a different guest.
    const samePerson = (previous: (typeof existing)[number] | undefined, row: (typeof rows)[number]) =>
      previous !== undefined &&
      previous.childName === row.childName &&
      previous.parentEmail === row.parentEmail;
    const kept = new Set(
      rows.filter((row) => samePerson(before.get(row.position), row)).map((r) => r.position),
    );
    const gone = existing.filter((g) => !kept.has(g.position)).map((g) => g.id);
    if (gone.length > 0)
      await tx.delete(partyGuests).where(tenant.where(partyGuests, inArray(partyGuests.id, gone)));
    const [settings] = await tx
      .select()
      .from(partyInvitationSettings)
      .where(tenant.where(partyInvitationSettings));
    const [slot] = await tx.select().from(partySlots).where(tenant.byId(partySlots, booking.slotId));
    const venue = slot?.venueId ? await venueOf(tx, tenant, slot.venueId) : null;
    const child = await childFirstName(tx, tenant, booking.childId);
    const company = await companyOf(tx, tenant);
    let count = 0;
    for (const row of rows) {
      const previous = before.get(row.position);
      const alreadyInvited = kept.has(row.position) ? (previous?.invitedAt ?? null) : null;
      const invitedAt = alreadyInvited ?? (row.parentEmail ? new Date() : null);
      const [guest] = kept.has(row.position)
        ? await tx
            .update(partyGuests)
            .set({ parentName: row.parentName, parentPhone: row.parentPhone, invitedAt })
            .where(tenant.where(partyGuests, eq(partyGuests.id, previous!.id)))
            .returning()
        : await tx
            .insert(partyGuests)
            .values(tenant.values({ partyBookingId: booking.id, ...row, invitedAt }))
            .returning();
      if (!row.parentEmail || alreadyInvited) continue;
      count++;
      await queueMail(
        tx,
        tenant,
        deps.config,
        'party-invitation',
        row.parentEmail,
        {
          name: row.parentName ?? '',
          guest: row.childName,
          child,
          company: company.name,
          date: displayDate(booking.date),
          time: slot ? hhmm(slot.startTime) : '',
          venue: venue ? [venue.name, venue.address, venue.suburb].filter(Boolean).join(', ') : company.name,
          link: waiverLink(deps.config, 'party', guest!.waiverToken, company.authhash),
        },
        settings ? { subject: settings.subject, body: htmlToParagraphs(settings.body) } : undefined,
      );
    }
    return count;
  });
  if (invited > 0) await deps.jobs.nudge(queues.mailDeliver);
  return {
    valid: true,
    info: {
      title: 'Guests saved',
      message:
        invited > 0
          ? `${invited} ${invited === 1 ? 'invitation was' : 'invitations were'} sent.`
          : 'Your guest list has been saved.',
    },
  };
}
