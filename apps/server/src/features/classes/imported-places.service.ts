import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { lockClasses, placesLeft } from './capacity.service.ts';
import { classEnrolments, classSessions, termClasses } from './classes.tables.ts';

/**
 * Places for children brought in by the CSV import (features/import): the classes a file can name,
 * and their places taken under the classes' capacity lock (capacity.service.ts), like any enrolment.
 * The family paid the old system for the term, so no charge is recorded.
 */

export interface ImportableClass {
  id: number;
  name: string;
  /** Its first scheduled session from today: where an imported place starts. */
  startsOn: string;
}

/**
 * Classes that still run (not cancelled, a session scheduled from today), by lower-cased name.
 * Two with the same name (a term and the next): the one starting sooner.
 */
export async function importableClasses(db: Db, tenant: Tenant, today: string) {
  const rows = await db
    .select({ id: termClasses.id, name: termClasses.name, startsOn: sql<string>`min(${classSessions.date})` })
    .from(termClasses)
    .innerJoin(
      classSessions,
      and(eq(classSessions.termClassId, termClasses.id), eq(classSessions.companyId, termClasses.companyId)),
    )
    .where(
      tenant.where(
        termClasses,
        eq(termClasses.status, 'active'),
        eq(classSessions.status, 'scheduled'),
        gte(classSessions.date, today),
      ),
    )
    .groupBy(termClasses.id)
    .orderBy(asc(sql`min(${classSessions.date})`), asc(termClasses.id));
  const byName = new Map<string, ImportableClass>();
  for (const row of rows) {
    const key = row.name.trim().toLowerCase();
    if (!byName.has(key)) byName.set(key, row);
  }
  return byName;
}

/** Places left from each class's next session (a dry run's check; the import checks again locked). */
export async function importPlacesLeft(db: Db, tenant: Tenant, classes: ImportableClass[]) {
  const left = new Map<number, number>();
  for (const cls of classes)
    left.set(cls.id, (await placesLeft(db, tenant, [cls.id], cls.startsOn)).get(cls.id) ?? 0);
  return left;
}

export class ClassFullError extends Error {
  constructor(readonly className: string) {
    super(`The class '${className}' is full.`);
  }
}

/** Takes the places in one locked transaction; throws ClassFullError when one class has too few. */
export async function placeImportedChildren(
  tx: Db,
  tenant: Tenant,
  places: { cls: ImportableClass; childId: number }[],
): Promise<number> {
  const classes = new Map(places.map((p) => [p.cls.id, p.cls]));
  await lockClasses(tx, tenant, [...classes.keys()]);
  const left = await importPlacesLeft(tx, tenant, [...classes.values()]);
  for (const cls of classes.values()) {
    const wanted = places.filter((p) => p.cls.id === cls.id).length;
    if ((left.get(cls.id) ?? 0) < wanted) throw new ClassFullError(cls.name);
  }
  if (places.length === 0) return 0;
  await tx.insert(classEnrolments).values(
    places.map((p) =>
      tenant.values({
        termClassId: p.cls.id,
        childId: p.childId,
        kind: 'enrolled' as const,
        startsOn: p.cls.startsOn,
        status: 'active' as const,
      }),
    ),
  );
  return places.length;
}
