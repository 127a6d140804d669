import { and, asc, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { classEnrolments, classSessions, classTypes, termClasses, terms } from './classes.tables.ts';

/**
 * What the trial-conversions and enrollment-comparison reports (features/reports) read of classes,
 * each figure counted in SQL. A place counts when it is `active`: pending holds, cancelled and
 * withdrawn places were never (or are no longer) taken.
 */

/** Weeks after a trial in which a full enrolment in the same class type counts as its conversion. */
export const CONVERSION_WEEKS = 8;

export type TrialDimension = 'class_type' | 'coach' | 'form';

export interface TrialGroup {
  /** The class type, coach or registration form id; null: none recorded. */
  key: number | null;
  /** The class type's name (coaches and forms are named by their own features). */
  label: string | null;
  trials: number;
  converted: number;
}

/**
 * Whether the trial place of the outer query converted: its follow-up's held place was taken up
 * (trial_follow_ups, issue 14), or the child has an active full enrolment in the same class type made
 * after the trial was booked and no later than CONVERSION_WEEKS after the trial session.
 */
const convertedTrial = (timeZone: string) => sql<boolean>`(
  exists (select 1 from trial_follow_ups f
    join class_enrolments held on held.id = f.hold_enrolment_id and held.company_id = f.company_id
    where f.company_id = ${classEnrolments.companyId} and f.trial_enrolment_id = ${classEnrolments.id}
      and held.status = 'active')
  or exists (select 1 from class_enrolments later
    join term_classes later_class on later_class.id = later.term_class_id and later_class.company_id = later.company_id
    where later.company_id = ${classEnrolments.companyId} and later.child_id = ${classEnrolments.childId}
      and later.kind = 'enrolled' and later.status = 'active'
      and later_class.class_type_id = ${termClasses.classTypeId}
      and later.created_at >= ${classEnrolments.createdAt}
      and (later.created_at at time zone ${timeZone})::date <= ${classSessions.date} + ${CONVERSION_WEEKS * 7}::int))`;

/** The registration form the trial was bought through (its enrolment purchase); null: none. */
const trialForm = sql<number | null>`(select p.registration_form_id from enrolment_purchase_items i
  join enrolment_purchases p on p.id = i.purchase_id and p.company_id = i.company_id
  where i.company_id = ${classEnrolments.companyId} and i.enrolment_id = ${classEnrolments.id}
  order by p.id limit 1)`;

/**
 * Trials (active trial places) whose session was held from `from` to `to` (inclusive), and how many
 * converted, grouped by class type, by coach (the session's coach, else the class's lead coach) or
 * by the registration form they came through.
 */
export async function trialConversions(
  db: Db,
  tenant: Tenant,
  period: { from: string; to: string; timeZone: string },
  by: TrialDimension,
): Promise<TrialGroup[]> {
  const key: SQL<number | null> =
    by === 'class_type'
      ? sql`${termClasses.classTypeId}`
      : by === 'coach'
        ? sql`coalesce(${classSessions.coachId}, ${termClasses.leadCoachId})`
        : trialForm;
  const label = by === 'class_type' ? sql<string | null>`min(${classTypes.name})` : sql<null>`null`;
  const converted = convertedTrial(period.timeZone);
  return db
    .select({
      key: sql<number | null>`${key}`,
      label,
      trials: sql<number>`count(*)::int`,
      converted: sql<number>`(count(*) filter (where ${converted}))::int`,
    })
    .from(classEnrolments)
    .innerJoin(
      classSessions,
      and(
        eq(classSessions.id, classEnrolments.sessionId),
        eq(classSessions.companyId, classEnrolments.companyId),
      ),
    )
    .innerJoin(
      termClasses,
      and(
        eq(termClasses.id, classEnrolments.termClassId),
        eq(termClasses.companyId, classEnrolments.companyId),
      ),
    )
    .innerJoin(
      classTypes,
      and(eq(classTypes.id, termClasses.classTypeId), eq(classTypes.companyId, termClasses.companyId)),
    )
    .where(
      tenant.where(
        classEnrolments,
        eq(classEnrolments.kind, 'trial'),
        eq(classEnrolments.status, 'active'),
        eq(classSessions.status, 'scheduled'),
        gte(classSessions.date, period.from),
        lte(classSessions.date, period.to),
      ),
    )
    .groupBy(sql`1`);
}

export interface TermRef {
  id: number;
  name: string;
  startDate: string;
  endDate: string;
}

const termFields = { id: terms.id, name: terms.name, startDate: terms.startDate, endDate: terms.endDate };
const notArchived = sql`${terms.archivedAt} is null`;

/** The company's terms (not archived), the latest first: the enrolment comparison's choices. */
export async function termChoices(db: Db, tenant: Tenant): Promise<TermRef[]> {
  return db
    .select(termFields)
    .from(terms)
    .where(tenant.where(terms, notArchived))
    .orderBy(desc(terms.startDate), desc(terms.id));
}

/**
 * The term a report opens on: the one running on `today` (the company's date), else the latest that
 * has started; null when every term is still to come.
 */
export async function termOfToday(db: Db, tenant: Tenant, today: string): Promise<TermRef | null> {
  const [term] = await db
    .select(termFields)
    .from(terms)
    .where(tenant.where(terms, notArchived, sql`${terms.startDate} <= ${today}`))
    // Running today first (its end is not yet past), then the latest start.
    .orderBy(sql`${terms.endDate} >= ${today} desc`, desc(terms.startDate), desc(terms.id))
    .limit(1);
  return term ?? null;
}

/**
 * A term, the term before it (the latest that starts earlier) and the same term last year (the term
 * starting nearest one year earlier, within 60 days of it); null where the company has none.
 */
export async function comparedTerms(
  db: Db,
  tenant: Tenant,
  termId: number,
): Promise<{ current: TermRef; previous: TermRef | null; lastYear: TermRef | null } | null> {
  const [current] = await db.select(termFields).from(terms).where(tenant.byId(terms, termId));
  if (!current) return null;
  const [previous] = await db
    .select(termFields)
    .from(terms)
    .where(tenant.where(terms, notArchived, sql`${terms.startDate} < ${current.startDate}`))
    .orderBy(desc(terms.startDate), desc(terms.id))
    .limit(1);
  const yearBefore = sql`(${current.startDate}::date - interval '1 year')::date`;
  const [lastYear] = await db
    .select(termFields)
    .from(terms)
    .where(
      tenant.where(
        terms,
        notArchived,
        sql`${terms.startDate} between ${yearBefore} - 60 and ${yearBefore} + 60`,
      ),
    )
    .orderBy(sql`abs(${terms.startDate} - ${yearBefore})`, asc(terms.startDate))
    .limit(1);
  return { current, previous: previous ?? null, lastYear: lastYear ?? null };
}

const activeEnrolment = [eq(classEnrolments.kind, 'enrolled'), eq(classEnrolments.status, 'active')];

/** Active full enrolments (places) per class type in each of these terms. */
export async function enrolmentsByClassType(
  db: Db,
  tenant: Tenant,
  termIds: number[],
): Promise<{ termId: number; classType: string; enrolments: number }[]> {
  if (termIds.length === 0) return [];
  return db
    .select({
      termId: termClasses.termId,
      classType: classTypes.name,
      enrolments: sql<number>`count(*)::int`,
    })
    .from(classEnrolments)
    .innerJoin(
      termClasses,
      and(
        eq(termClasses.id, classEnrolments.termClassId),
        eq(termClasses.companyId, classEnrolments.companyId),
      ),
    )
    .innerJoin(
      classTypes,
      and(eq(classTypes.id, termClasses.classTypeId), eq(classTypes.companyId, termClasses.companyId)),
    )
    .where(tenant.where(classEnrolments, ...activeEnrolment, inArray(termClasses.termId, termIds)))
    .groupBy(termClasses.termId, classTypes.id, classTypes.name);
}

/**
 * Children with an active full enrolment in `earlier`, in `later`, in both (came back), only in
 * `later` (new) and only in `earlier` (lost).
 */
export async function studentsBetween(
  db: Db,
  tenant: Tenant,
  earlier: number,
  later: number,
): Promise<{ before: number; now: number; returned: number; added: number; lost: number }> {
  const kids = db
    .select({
      childId: classEnrolments.childId,
      before: sql<boolean>`bool_or(${termClasses.termId} = ${earlier})`.as('before'),
      now: sql<boolean>`bool_or(${termClasses.termId} = ${later})`.as('now'),
    })
    .from(classEnrolments)
    .innerJoin(
      termClasses,
      and(
        eq(termClasses.id, classEnrolments.termClassId),
        eq(termClasses.companyId, classEnrolments.companyId),
      ),
    )
    .where(tenant.where(classEnrolments, ...activeEnrolment, inArray(termClasses.termId, [earlier, later])))
    .groupBy(classEnrolments.childId)
    .as('kids');
  const [row] = await db
    .select({
      before: sql<number>`(count(*) filter (where ${kids.before}))::int`,
      now: sql<number>`(count(*) filter (where ${kids.now}))::int`,
      returned: sql<number>`(count(*) filter (where ${kids.before} and ${kids.now}))::int`,
      added: sql<number>`(count(*) filter (where ${kids.now} and not ${kids.before}))::int`,
      lost: sql<number>`(count(*) filter (where ${kids.before} and not ${kids.now}))::int`,
    })
    .from(kids);
  return row ?? { before: 0, now: 0, returned: 0, added: 0, lost: 0 };
}

/**
 * Per class type and term: places taken over its scheduled sessions (each session's active full
 * enrolments covering its date, plus its active trial, makeup and casual places) against places
 * offered (each session's class capacity).
 */
export async function fillByClassType(
  db: Db,
  tenant: Tenant,
  termIds: number[],
): Promise<{ termId: number; classType: string; taken: number; offered: number }[]> {
  if (termIds.length === 0) return [];
  const taken = sql<number>`(select count(*) from class_enrolments p
    where p.company_id = ${classSessions.companyId} and p.status = 'active'
      and ((p.kind = 'enrolled' and p.term_class_id = ${classSessions.termClassId}
          and (p.starts_on is null or p.starts_on <= ${classSessions.date})
          and (p.withdrawn_from is null or p.withdrawn_from > ${classSessions.date}))
        or (p.kind <> 'enrolled' and p.session_id = ${classSessions.id})))`;
  return db
    .select({
      termId: termClasses.termId,
      classType: classTypes.name,
      taken: sql<number>`sum(${taken})::int`,
      offered: sql<number>`sum(${termClasses.capacity})::int`,
    })
    .from(classSessions)
    .innerJoin(
      termClasses,
      and(eq(termClasses.id, classSessions.termClassId), eq(termClasses.companyId, classSessions.companyId)),
    )
    .innerJoin(
      classTypes,
      and(eq(classTypes.id, termClasses.classTypeId), eq(classTypes.companyId, termClasses.companyId)),
    )
    .where(
      tenant.where(
        classSessions,
        eq(classSessions.status, 'scheduled'),
        inArray(termClasses.termId, termIds),
      ),
    )
    .groupBy(termClasses.termId, classTypes.id, classTypes.name);
}
