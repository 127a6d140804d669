import type { AppliedFlag, FlagOptionsResponse, RollFlag } from '@tumble/contracts/flags';
import type { FormResponse } from '@tumble/contracts/http';
import { and, asc, desc, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { familyChoices, usersWithRoles } from '../accounts/people.service.ts';
import { flagAssignments, flags } from './flags.tables.ts';
import { children } from './students.tables.ts';

const familyName = (fullName: string) => `The ${fullName.split(' ').at(-1)} family (${fullName})`;

/** Applied flags matching `where`, newest first, with their flag and the names they show. */
async function describeApplied(db: Db, tenant: Tenant, where: SQL | undefined): Promise<AppliedFlag[]> {
  const rows = await db
    .select({ a: flagAssignments, f: flags })
    .from(flagAssignments)
    .innerJoin(flags, eq(flags.id, flagAssignments.flagId))
    .where(and(tenant.where(flagAssignments, where), tenant.where(flags, isNull(flags.archivedAt))))
    .orderBy(asc(flags.name), desc(flagAssignments.appliedAt), desc(flagAssignments.id));
  const childIds = rows.flatMap((r) => (r.a.childId ? [r.a.childId] : []));
  const kids = childIds.length
    ? await db
        .select({ id: children.id, firstName: children.firstName, lastName: children.lastName })
        .from(children)
        .where(tenant.where(children, inArray(children.id, childIds)))
    : [];
  const people = await usersWithRoles(
    db,
    tenant,
    rows.flatMap((r) => [r.a.appliedById, ...(r.a.parentId ? [r.a.parentId] : [])]),
  );
  return rows.map(({ a, f }) => {
    const kid = kids.find((k) => k.id === a.childId);
    return {
      id: a.id,
      flag_id: f.id,
      name: f.name,
      kind: f.kind,
      colour: f.colour,
      show_on_roll: f.showOnRoll,
      note: a.note,
      child_id: a.childId,
      parent_id: a.parentId,
      target: kid ? `${kid.firstName} ${kid.lastName}` : familyName(people.get(a.parentId!)?.fullName ?? ''),
      applied_by: people.get(a.appliedById)?.fullName ?? '',
      applied_at: a.appliedAt.toISOString(),
    };
  });
}

/**
 * The flags on these children or families (the roll, the student screen). With `childIds` the map
 * is keyed by child and holds the child's own flags and its family's (a family flag shows on each
 * of its children); with `parentIds` alone it is keyed by parent and holds the family's flags.
 * Archived flags show nowhere.
 */
export async function flagsOf(
  db: Db,
  tenant: Tenant,
  of: { childIds?: number[]; parentIds?: number[] },
): Promise<Map<number, AppliedFlag[]>> {
  const result = new Map<number, AppliedFlag[]>();
  const childIds = [...new Set(of.childIds ?? [])];
  if (childIds.length > 0) {
    const kids = await db
      .select({ id: children.id, parentId: children.parentId })
      .from(children)
      .where(tenant.where(children, inArray(children.id, childIds)));
    const parents = [...new Set(kids.map((k) => k.parentId))];
    const applied = await describeApplied(
      db,
      tenant,
      or(
        inArray(flagAssignments.childId, childIds),
        parents.length ? inArray(flagAssignments.parentId, parents) : undefined,
      ),
    );
    for (const kid of kids) {
      result.set(
        kid.id,
        applied.filter((a) => a.child_id === kid.id || a.parent_id === kid.parentId),
      );
    }
    return result;
  }
  const parentIds = [...new Set(of.parentIds ?? [])];
  if (parentIds.length === 0) return result;
  const applied = await describeApplied(db, tenant, inArray(flagAssignments.parentId, parentIds));
  for (const id of parentIds)
    result.set(
      id,
      applied.filter((a) => a.parent_id === id),
    );
  return result;
}

/** The roll's flags per child: only flags with "show on the roll" on. */
export async function rollFlagsOf(
  db: Db,
  tenant: Tenant,
  childIds: number[],
): Promise<Map<number, RollFlag[]>> {
  const all = await flagsOf(db, tenant, { childIds });
  return new Map(
    [...all].map(([id, list]) => [
      id,
      list.filter((f) => f.show_on_roll).map((f) => ({ name: f.name, colour: f.colour, note: f.note })),
    ]),
  );
}

/** Every flag applied, or those on one child (with its family's) or one family. */
export async function appliedFlags(
  db: Db,
  tenant: Tenant,
  query: { child_id?: number; parent_id?: number },
): Promise<AppliedFlag[]> {
  if (query.child_id) {
    await ownChild(db, tenant, query.child_id);
    return (await flagsOf(db, tenant, { childIds: [query.child_id] })).get(query.child_id) ?? [];
  }
  if (query.parent_id) {
    await ownFamily(db, tenant, query.parent_id);
    return (await flagsOf(db, tenant, { parentIds: [query.parent_id] })).get(query.parent_id) ?? [];
  }
  return describeApplied(db, tenant, undefined);
}

/** The flags, children and families staff choose from when applying a flag. */
export async function flagOptions(db: Db, tenant: Tenant): Promise<FlagOptionsResponse> {
  const [flagRows, kids, families] = await Promise.all([
    db
      .select()
      .from(flags)
      .where(tenant.where(flags, isNull(flags.archivedAt)))
      .orderBy(asc(flags.name)),
    db
      .select({ id: children.id, firstName: children.firstName, lastName: children.lastName })
      .from(children)
      .where(tenant.where(children))
      .orderBy(asc(children.firstName), asc(children.lastName), asc(children.id)),
    familyChoices(db, tenant),
  ]);
  return {
    flags: flagRows.map((f) => ({ value: String(f.id), label: f.name, colour: f.colour })),
    children: kids.map((k) => ({ value: String(k.id), label: `${k.firstName} ${k.lastName}` })),
    families: families.map((f) => ({ value: String(f.id), label: `${familyName(f.fullName)} · ${f.email}` })),
  };
}

async function ownChild(db: Db, tenant: Tenant, id: number) {
  const [kid] = await db.select({ id: children.id }).from(children).where(tenant.byId(children, id));
  if (!kid) throw new NotFoundError('Child not found.');
}

async function ownFamily(db: Db, tenant: Tenant, id: number) {
  if ((await usersWithRoles(db, tenant, [id])).get(id)?.role !== 'student') {
    throw new NotFoundError('Family not found.');
  }
}

/** Applies a flag to a child or a family (audited). Another company's flag, child or family: 404. */
export async function applyFlag(
  db: Db,
  auth: AuthContext,
  input: { flagId: number; childId?: number | null; parentId?: number | null; note?: string | null },
): Promise<FormResponse> {
  const { tenant } = auth;
  const [flag] = await db
    .select({ id: flags.id, name: flags.name })
    .from(flags)
    .where(tenant.byId(flags, input.flagId, isNull(flags.archivedAt)));
  if (!flag) throw new NotFoundError('Flag not found.');
  if (input.childId) await ownChild(db, tenant, input.childId);
  else await ownFamily(db, tenant, input.parentId!);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(flagAssignments)
      .values(
        tenant.values({
          flagId: flag.id,
          childId: input.childId ?? null,
          parentId: input.childId ? null : (input.parentId ?? null),
          note: input.note || null,
          appliedById: auth.userId,
        }),
      )
      .returning();
    await recordAudit(tx, auth, {
      action: 'apply',
      entity: 'flag_assignments',
      entityId: row!.id,
      after: row,
    });
  });
  return { valid: true, info: { title: 'Flag applied', message: `${flag.name} applied.` } };
}

/** Removes an applied flag (audited, with what it was). Another company's: 404. */
export async function removeFlag(db: Db, auth: AuthContext, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(flagAssignments).where(auth.tenant.byId(flagAssignments, id)).returning();
    if (!row) throw new NotFoundError('Flag not found.');
    await recordAudit(tx, auth, {
      action: 'remove',
      entity: 'flag_assignments',
      entityId: row.id,
      before: row,
    });
  });
}
