import { and, asc, count, eq, gt, gte, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { takesPlace } from './capacity.service.ts';
import { classWaitlist } from './class-waitlist.tables.ts';
import { classEnrolments, termClasses, terms } from './classes.tables.ts';

/** The dashboard's reads of classes (issue 17): each one tenant-scoped query. */

/** Full enrolments and trials made since `since` that are active now. */
export async function placesTakenSince(db: Db, tenant: Tenant, since: Date) {
  const rows = await db
    .select({ kind: classEnrolments.kind, n: count() })
    .from(classEnrolments)
    .where(
      tenant.where(
        classEnrolments,
        eq(classEnrolments.status, 'active'),
        inArray(classEnrolments.kind, ['enrolled', 'trial']),
        gte(classEnrolments.createdAt, since),
      ),
    )
    .groupBy(classEnrolments.kind);
  const of = (kind: string) => rows.find((r) => r.kind === kind)?.n ?? 0;
  return { enrolments: of('enrolled'), trials: of('trial') };
}

/** Class waitlist places offered and still open (not taken up, declined or lapsed). */
export async function openClassOffers(db: Db, tenant: Tenant): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(classWaitlist)
    .where(
      tenant.where(
        classWaitlist,
        eq(classWaitlist.status, 'offered'),
        or(isNull(classWaitlist.offerExpiresAt), gt(classWaitlist.offerExpiresAt, sql`now()`)),
      ),
    );
  return row?.n ?? 0;
}

/**
 * The term running on `today` (the earliest, if terms overlap) with its full-enrolment places
 * that take a place on that day, against the capacity of its active classes; null between terms.
 */
export async function termFillRate(db: Db, tenant: Tenant, today: string) {
  const [term] = await db
    .select({ id: terms.id, name: terms.name })
    .from(terms)
    .where(
      tenant.where(
        terms,
        lte(terms.startDate, today),
        gte(terms.endDate, today),
        ne(terms.status, 'draft'),
        isNull(terms.archivedAt),
      ),
    )
    .orderBy(asc(terms.startDate), asc(terms.id))
    .limit(1);
  if (!term) return null;
  const running = and(
    eq(termClasses.termId, term.id),
    eq(termClasses.status, 'active'),
    isNull(termClasses.archivedAt),
  );
  // Places per class first, so a class's capacity is counted once however many children it has.
  const places = db
    .select({ termClassId: classEnrolments.termClassId, n: count().as('n') })
    .from(classEnrolments)
    .where(
      tenant.where(
        classEnrolments,
        eq(classEnrolments.kind, 'enrolled'),
        takesPlace(),
        or(isNull(classEnrolments.withdrawnFrom), gt(classEnrolments.withdrawnFrom, today)),
      ),
    )
    .groupBy(classEnrolments.termClassId)
    .as('places');
  const [row] = await db
    .select({
      capacity: sql<number>`coalesce(sum(${termClasses.capacity}), 0)::int`,
      places: sql<number>`coalesce(sum(${places.n}), 0)::int`,
    })
    .from(termClasses)
    .leftJoin(places, eq(places.termClassId, termClasses.id))
    .where(tenant.where(termClasses, running));
  return { termId: term.id, termName: term.name, places: row?.places ?? 0, capacity: row?.capacity ?? 0 };
}
