import { asc, eq, inArray, isNotNull, isNull, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { flagAssignments, flags } from './flags.tables.ts';
import { children } from './students.tables.ts';

/** Reads of children and flags for mass mail filters (features/communications/audience.service.ts). */

/** Families (subquery of parent ids) with a child whose age in whole years on `today` is in range. */
export function familiesWithChildAged(
  db: Db,
  tenant: Tenant,
  min: number | null,
  max: number | null,
  today: string,
): SQLWrapper {
  const years = sql`extract(year from age(${today}::date, ${children.dob}))`;
  return db
    .select({ parentId: children.parentId })
    .from(children)
    .where(
      tenant.where(
        children,
        min === null ? undefined : sql`${years} >= ${min}`,
        max === null ? undefined : sql`${years} <= ${max}`,
      ),
    );
}

/** Families (subquery of parent ids) of the children in a subquery of child ids. */
export function familiesOfChildren(db: Db, tenant: Tenant, childIds: SQLWrapper): SQLWrapper {
  return db
    .select({ parentId: children.parentId })
    .from(children)
    .where(tenant.where(children, inArray(children.id, childIds)));
}

/** The children of these families: child id → parent id. */
export async function childrenOfFamilies(
  db: Db,
  tenant: Tenant,
  parentIds: number[],
): Promise<Map<number, number>> {
  if (parentIds.length === 0) return new Map();
  const rows = await db
    .select({ id: children.id, parentId: children.parentId })
    .from(children)
    .where(tenant.where(children, inArray(children.parentId, parentIds)));
  return new Map(rows.map((row) => [row.id, row.parentId]));
}

/** Families (subquery of parent ids) carrying one of the flags, on the family or on a child. */
export function familiesFlagged(db: Db, tenant: Tenant, flagIds: number[]): SQLWrapper {
  const onFamily = db
    .select({ parentId: sql<number>`${flagAssignments.parentId}`.as('parent_id') })
    .from(flagAssignments)
    .where(
      tenant.where(
        flagAssignments,
        inArray(flagAssignments.flagId, flagIds),
        isNotNull(flagAssignments.parentId),
      ),
    );
  const onChild = db
    .select({ parentId: sql<number>`${children.parentId}`.as('parent_id') })
    .from(flagAssignments)
    .innerJoin(children, eq(children.id, flagAssignments.childId))
    .where(tenant.where(flagAssignments, inArray(flagAssignments.flagId, flagIds)));
  return onFamily.union(onChild);
}

/**
 * Each family's children's first names joined for a mail: "Mia", "Mia and Leo", "Mia, Leo and Ava"
 * (oldest first). Families without children are absent.
 */
export async function childFirstNames(
  db: Db,
  tenant: Tenant,
  parentIds: number[],
): Promise<Map<number, string>> {
  const joined = new Map<number, string>();
  if (parentIds.length === 0) return joined;
  const rows = await db
    .select({ parentId: children.parentId, firstName: children.firstName })
    .from(children)
    .where(tenant.where(children, inArray(children.parentId, parentIds)))
    .orderBy(asc(children.dob), asc(children.id));
  const byFamily = new Map<number, string[]>();
  for (const row of rows) byFamily.set(row.parentId, [...(byFamily.get(row.parentId) ?? []), row.firstName]);
  for (const [parentId, names] of byFamily) joined.set(parentId, joinNames(names));
  return joined;
}

/** "Mia", "Mia and Leo", "Mia, Leo and Ava". */
export function joinNames(names: string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The company's flags in use (not archived), for the mass mail filter. */
export async function flagChoices(db: Db, tenant: Tenant) {
  const rows = await db
    .select({ id: flags.id, name: flags.name })
    .from(flags)
    .where(tenant.where(flags, isNull(flags.archivedAt)))
    .orderBy(asc(flags.name));
  return rows.map((row) => ({ value: String(row.id), label: row.name }));
}
