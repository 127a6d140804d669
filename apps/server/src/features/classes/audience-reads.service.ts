import type { EnrolmentStatus } from '@tumble/contracts/communications';
import { and, asc, desc, eq, inArray, isNull, lte, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { classWaitlist } from './class-waitlist.tables.ts';
import { classEnrolments, classTypes, termClasses, terms } from './classes.tables.ts';

/** Which classes a mass mail's filter means (communications/audience.service.ts); empty lists mean any. */
export interface ClassAudience {
  termIds: number[];
  classTypeIds: number[];
  classIds: number[];
  weekdays: number[];
  statuses: EnrolmentStatus[];
  /** The company's today (YYYY-MM-DD): a place withdrawn from a date still to come is still active. */
  today: string;
}

function classConditions(
  tenant: Tenant,
  f: Pick<ClassAudience, 'termIds' | 'classTypeIds' | 'classIds' | 'weekdays'>,
): SQL {
  return tenant.where(
    termClasses,
    f.termIds.length ? inArray(termClasses.termId, f.termIds) : undefined,
    f.classTypeIds.length ? inArray(termClasses.classTypeId, f.classTypeIds) : undefined,
    f.classIds.length ? inArray(termClasses.id, f.classIds) : undefined,
    f.weekdays.length ? inArray(termClasses.weekday, f.weekdays) : undefined,
  );
}

/**
 * The children (ids, as a subquery for `inArray`) with a place in the chosen classes in one of the
 * chosen states: active (enrolled, not withdrawn by today), trial, withdrawn; and the families
 * (parent ids) waiting for a place (waiting or offered one) when 'waitlisted' is chosen. No state
 * chosen means active or trial: the classes' current children.
 */
export function classAudience(
  db: Db,
  tenant: Tenant,
  f: ClassAudience,
): { childIds: SQLWrapper | null; waitingParentIds: SQLWrapper | null } {
  const statuses: readonly EnrolmentStatus[] = f.statuses.length ? f.statuses : ['active', 'trial'];
  const stillComing = or(
    isNull(classEnrolments.withdrawnFrom),
    sql`${classEnrolments.withdrawnFrom} > ${f.today}`,
  );
  const placeStates: SQL[] = [];
  if (statuses.includes('active'))
    placeStates.push(
      and(eq(classEnrolments.kind, 'enrolled'), eq(classEnrolments.status, 'active'), stillComing)!,
    );
  if (statuses.includes('trial'))
    placeStates.push(and(eq(classEnrolments.kind, 'trial'), eq(classEnrolments.status, 'active'))!);
  if (statuses.includes('withdrawn'))
    placeStates.push(
      and(
        eq(classEnrolments.kind, 'enrolled'),
        or(
          eq(classEnrolments.status, 'withdrawn'),
          and(eq(classEnrolments.status, 'active'), lte(classEnrolments.withdrawnFrom, f.today)),
        ),
      )!,
    );
  const places = db
    .select({ childId: classEnrolments.childId })
    .from(classEnrolments)
    .innerJoin(termClasses, eq(termClasses.id, classEnrolments.termClassId))
    .where(
      and(
        tenant.where(classEnrolments, placeStates.length ? or(...placeStates) : sql`false`),
        classConditions(tenant, f),
      ),
    );
  const waiting = statuses.includes('waitlisted')
    ? db
        .select({ parentId: classWaitlist.parentId })
        .from(classWaitlist)
        .innerJoin(termClasses, eq(termClasses.id, classWaitlist.termClassId))
        .where(
          and(
            tenant.where(classWaitlist, inArray(classWaitlist.status, ['waiting', 'offered'])),
            classConditions(tenant, f),
          ),
        )
    : null;
  return { childIds: placeStates.length ? places : null, waitingParentIds: waiting };
}

/**
 * Each child's classes and their terms (names, newest term first), for a mass mail's {class} and
 * {term}: the children's active or trial places, within the filter's classes when it names some.
 */
export async function childClassNames(
  db: Db,
  tenant: Tenant,
  childIds: number[],
  f: Pick<ClassAudience, 'termIds' | 'classTypeIds' | 'classIds' | 'weekdays'>,
): Promise<{ childId: number; className: string; termName: string }[]> {
  if (childIds.length === 0) return [];
  return db
    .select({ childId: classEnrolments.childId, className: termClasses.name, termName: terms.name })
    .from(classEnrolments)
    .innerJoin(termClasses, eq(termClasses.id, classEnrolments.termClassId))
    .innerJoin(terms, eq(terms.id, termClasses.termId))
    .where(
      and(
        tenant.where(
          classEnrolments,
          eq(classEnrolments.status, 'active'),
          inArray(classEnrolments.kind, ['enrolled', 'trial']),
          inArray(classEnrolments.childId, childIds),
        ),
        classConditions(tenant, f),
      ),
    )
    .orderBy(desc(terms.startDate), asc(termClasses.weekday), asc(termClasses.name));
}

/** What the mass mail filters choose from: terms (newest first), class types and classes. */
export async function classAudienceOptions(db: Db, tenant: Tenant) {
  const [termRows, typeRows, classRows] = await Promise.all([
    db
      .select({ id: terms.id, name: terms.name })
      .from(terms)
      .where(tenant.where(terms, isNull(terms.archivedAt)))
      .orderBy(desc(terms.startDate)),
    db
      .select({ id: classTypes.id, name: classTypes.name })
      .from(classTypes)
      .where(tenant.where(classTypes, isNull(classTypes.archivedAt)))
      .orderBy(asc(classTypes.name)),
    db
      .select({ id: termClasses.id, name: termClasses.name, term: terms.name })
      .from(termClasses)
      .innerJoin(terms, eq(terms.id, termClasses.termId))
      .where(tenant.where(termClasses, isNull(termClasses.archivedAt)))
      .orderBy(desc(terms.startDate), asc(termClasses.weekday), asc(termClasses.name)),
  ]);
  return {
    terms: termRows.map((t) => ({ value: String(t.id), label: t.name })),
    classTypes: typeRows.map((t) => ({ value: String(t.id), label: t.name })),
    classes: classRows.map((c) => ({ value: String(c.id), label: `${c.name} (${c.term})` })),
  };
}
