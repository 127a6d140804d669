import type { FinderClass } from '@tumble/contracts/registration';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cached } from '../../platform/public-cache.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { namesOfCoaches } from '../coaches/coaches.service.ts';
import type { RegistrationForm } from '../registration/registration.service.ts';
import { ageOn } from '../students/children.service.ts';
import { venueOf } from '../venues/venues.service.ts';
import { sessionLoads } from './capacity.service.ts';
import { classTypes, termClasses, termClosures, terms } from './classes.tables.ts';
import { enrolmentFee, type PricedClass } from './enrolment-pricing.ts';
import { scheduledSessionsOf } from './sessions.service.ts';

/**
 * The classes a registration form offers (issue 14): the form's terms (open, not archived) and
 * class types, active classes only, each with what the class finder shows and what pricing needs.
 */

export interface OfferedClass extends PricedClass {
  classTypeId: number;
  classTypeName: string;
  termName: string;
  termStart: string;
  termEnd: string;
  /** The class's own name ("Kinder Gym Tuesday"). */
  baseName: string;
  weekday: number;
  startTime: string;
  durationMinutes: number;
  venueId: number | null;
  leadCoachId: number | null;
  capacity: number;
  level: string | null;
  ageMinMonths: number | null;
  ageMaxMonths: number | null;
  trialAllowed: boolean;
  /** Every scheduled session of the class, in date order. */
  sessions: { id: number; date: string; startTime: string; durationMinutes: number }[];
}

const DAYS = ['', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export const dayName = (weekday: number) => DAYS[weekday] ?? '';

/** '16:00:00' → '4:00pm'. */
export function clockTime(time: string): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')}${h < 12 ? 'am' : 'pm'}`;
}

/** 'HH:MM' of a start time plus minutes. */
export function endTime(start: string, minutes: number): string {
  const [h, m] = start.split(':').map(Number) as [number, number];
  const total = h * 60 + m + minutes;
  return `${String(Math.floor(total / 60) % 24).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** A child's age in whole months on a date. */
export function monthsOld(dob: string, date: string): number {
  const { years, months } = ageOn(dob, date);
  return years * 12 + months;
}

/** Whether an age in months is inside a range whose ends may be open. */
export const ageFits = (months: number, min: number | null, max: number | null) =>
  (min === null || months >= min) && (max === null || months <= max);

/**
 * The classes of a form, by id when `ids` is given (an id the form does not offer is simply absent:
 * another company's class, a class of another term, a cancelled one).
 */
export async function offeredClasses(
  db: Db,
  tenant: Tenant,
  form: Pick<RegistrationForm, 'termIds' | 'classTypeIds'>,
  ids?: number[],
): Promise<OfferedClass[]> {
  if (form.termIds.length === 0 || ids?.length === 0) return [];
  const rows = await db
    .select({
      id: termClasses.id,
      termId: termClasses.termId,
      name: termClasses.name,
      weekday: termClasses.weekday,
      startTime: termClasses.startTime,
      durationMinutes: termClasses.durationMinutes,
      venueId: termClasses.venueId,
      leadCoachId: termClasses.leadCoachId,
      capacity: termClasses.capacity,
      ageMin: termClasses.ageMinMonths,
      ageMax: termClasses.ageMaxMonths,
      level: termClasses.level,
      priceOverride: termClasses.priceOverride,
      classTypeId: classTypes.id,
      typeName: classTypes.name,
      typeLevel: classTypes.level,
      typeAgeMin: classTypes.ageMinMonths,
      typeAgeMax: classTypes.ageMaxMonths,
      pricingModel: classTypes.pricingModel,
      price: classTypes.price,
      trialAllowed: classTypes.trialAllowed,
      trialPrice: classTypes.trialPrice,
      termName: terms.name,
      termStart: terms.startDate,
      termEnd: terms.endDate,
    })
    .from(termClasses)
    .innerJoin(
      classTypes,
      and(eq(classTypes.id, termClasses.classTypeId), eq(classTypes.companyId, termClasses.companyId)),
    )
    .innerJoin(terms, and(eq(terms.id, termClasses.termId), eq(terms.companyId, termClasses.companyId)))
    .where(
      tenant.where(
        termClasses,
        inArray(termClasses.termId, form.termIds),
        form.classTypeIds.length > 0 ? inArray(termClasses.classTypeId, form.classTypeIds) : undefined,
        ids ? inArray(termClasses.id, ids) : undefined,
        eq(termClasses.status, 'active'),
        isNull(termClasses.archivedAt),
        isNull(classTypes.archivedAt),
        eq(terms.status, 'open'),
        isNull(terms.archivedAt),
      ),
    )
    .orderBy(asc(terms.startDate), asc(termClasses.weekday), asc(termClasses.startTime), asc(termClasses.id));
  if (rows.length === 0) return [];
  const classIds = rows.map((r) => r.id);
  const termIds = [...new Set(rows.map((r) => r.termId))];
  const [sessions, closures] = await Promise.all([
    scheduledSessionsOf(db, tenant, classIds),
    db
      .select({
        termId: termClosures.termId,
        startDate: termClosures.startDate,
        endDate: termClosures.endDate,
      })
      .from(termClosures)
      .where(
        tenant.where(
          termClosures,
          inArray(termClosures.termId, termIds),
          eq(termClosures.kind, 'billing_only'),
        ),
      ),
  ]);
  return rows.map((r) => {
    const own = sessions.filter((s) => s.termClassId === r.id);
    return {
      termClassId: r.id,
      termId: r.termId,
      name: `${r.name} ${clockTime(r.startTime)}`,
      baseName: r.name,
      pricingModel: r.pricingModel,
      price: r.priceOverride ?? r.price,
      trialPrice: r.trialPrice,
      sessionDates: own.map((s) => s.date),
      billingOnly: closures.filter((c) => c.termId === r.termId),
      classTypeId: r.classTypeId,
      classTypeName: r.typeName,
      termName: r.termName,
      termStart: r.termStart,
      termEnd: r.termEnd,
      weekday: r.weekday,
      startTime: r.startTime,
      durationMinutes: r.durationMinutes,
      venueId: r.venueId,
      leadCoachId: r.leadCoachId,
      capacity: r.capacity,
      level: r.level ?? r.typeLevel,
      ageMinMonths: r.ageMin ?? r.typeAgeMin,
      ageMaxMonths: r.ageMax ?? r.typeAgeMax,
      trialAllowed: r.trialAllowed,
      sessions: own.map(({ termClassId: _, ...s }) => s),
    };
  });
}

/** The company's wall clock now: the date and the 'HH:MM' time in its time zone. */
export interface WallClock {
  date: string;
  time: string;
}

export function wallClock(timeZone: string, now: Date = new Date()): WallClock {
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(now);
  return { date: todayIn(timeZone, now), time };
}

/** The sessions still ahead: later days, and today's that have not started. */
export const upcomingSessions = (cls: OfferedClass, clock: WallClock) =>
  cls.sessions.filter(
    (s) => s.date > clock.date || (s.date === clock.date && s.startTime.slice(0, 5) > clock.time),
  );

/** The first session a full enrolment starts at (the next one ahead); null when none is left. */
export const nextSession = (cls: OfferedClass, clock: WallClock) => upcomingSessions(cls, clock)[0] ?? null;

/**
 * GET /api/v1/registration/classes: the form's classes with live places, the price from the next session and
 * the next session a trial can take; for a child's date of birth only the classes of their age
 * (on the class's next session) and inside the form's age filter (on the term's first day).
 */
export async function findClasses(
  db: Db,
  tenant: Tenant,
  form: RegistrationForm,
  clock: WallClock,
  dob: string | null,
): Promise<FinderClass[]> {
  // The timetable from the public read cache; places left (sessionLoads) are counted now.
  const all = await cached(
    db,
    tenant,
    `offered-classes:${form.termIds.join(',')}|${form.classTypeIds.join(',')}`,
    () => offeredClasses(db, tenant, form),
  );
  const classes = all.filter((c) => {
    const first = nextSession(c, clock);
    if (!first) return false;
    if (dob === null) return true;
    return (
      ageFits(monthsOld(dob, first.date), c.ageMinMonths, c.ageMaxMonths) &&
      ageFits(monthsOld(dob, c.termStart), form.ageMinMonths, form.ageMaxMonths)
    );
  });
  const loads = await sessionLoads(
    db,
    tenant,
    classes.map((c) => c.termClassId),
    clock.date,
  );
  const [coachNames, venueNames] = await Promise.all([
    namesOfCoaches(
      db,
      tenant,
      classes.map((c) => c.leadCoachId).filter((id): id is number => id !== null),
    ),
    venueNamesOf(
      db,
      tenant,
      classes.map((c) => c.venueId),
    ),
  ]);
  return classes.map((c) => {
    const ahead = new Set(upcomingSessions(c, clock).map((u) => u.id));
    const own = loads.filter((l) => ahead.has(l.sessionId));
    const placesLeft = own.length === 0 ? 0 : Math.min(...own.map((l) => Math.max(0, l.capacity - l.taken)));
    // A trial is the next session ahead with a free place.
    const trialSession = own.find((l) => l.capacity - l.taken > 0);
    const first = nextSession(c, clock)!;
    const { fee, sessions } = enrolmentFee(c, first.date);
    return {
      id: c.termClassId,
      name: c.name,
      class_type: c.classTypeName,
      term_id: c.termId,
      term_name: c.termName,
      day: dayName(c.weekday),
      weekday: c.weekday,
      start_time: c.startTime.slice(0, 5),
      end_time: endTime(c.startTime, c.durationMinutes),
      venue: c.venueId === null ? null : (venueNames.get(c.venueId) ?? null),
      coach: c.leadCoachId === null ? null : (coachNames.get(c.leadCoachId) ?? null),
      level: c.level,
      age_min_months: c.ageMinMonths,
      age_max_months: c.ageMaxMonths,
      places_left: placesLeft,
      first_date: first.date,
      sessions_left: sessions,
      price: fee,
      pricing_model: c.pricingModel,
      trial:
        form.trialsOffered && c.trialAllowed && trialSession
          ? { session_id: trialSession.sessionId, date: trialSession.date, price: c.trialPrice ?? 0 }
          : null,
    };
  });
}

/** The names of the venues (a company has a handful), by id. */
export async function venueNamesOf(db: Db, tenant: Tenant, ids: (number | null)[]) {
  const names = new Map<number, string>();
  for (const id of new Set(ids)) {
    if (id === null) continue;
    const venue = await venueOf(db, tenant, id);
    if (venue) names.set(id, venue.name);
  }
  return names;
}
