import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { assertRoomFor } from '../../platform/installation/subscriptions.service.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate } from '../../platform/time.ts';
import { children } from './students.tables.ts';

/** A child named at checkout who is not in the family yet. */
export interface NewChild {
  firstName: string;
  lastName: string;
  dob: string;
  consent: boolean;
  /** The family import (features/import) brings the notes the old system had. */
  medicalNotes?: string | null;
}

/** The children must be the parent's own; a foreign or unknown id answers 404. */
export async function assertOwnChildren(db: Db, tenant: Tenant, parentId: number, ids: number[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const own = await db
    .select({ id: children.id })
    .from(children)
    .where(tenant.where(children, eq(children.parentId, parentId), inArray(children.id, unique)));
  if (own.length !== unique.length) throw new NotFoundError('That child could not be found.');
}

/** In the purchase's transaction: creates the new children; returns every child's id in order. */
export async function createChildren(
  tx: Db,
  tenant: Tenant,
  parentId: number,
  list: ({ id: number } | NewChild)[],
): Promise<number[]> {
  // Over the plan's children limit: refused, naming the limit and the plan to move to.
  await assertRoomFor(tx, tenant, 'children', list.filter((child) => !('id' in child)).length);
  const ids: number[] = [];
  for (const child of list) {
    if ('id' in child) {
      ids.push(child.id);
      continue;
    }
    const [created] = await tx
      .insert(children)
      .values(tenant.values({ parentId, ...child }))
      .returning({ id: children.id });
    ids.push(created!.id);
  }
  return ids;
}

/** A child's first name (party mails), or '' when gone. */
export async function childFirstName(db: Db, tenant: Tenant, childId: number): Promise<string> {
  const [child] = await db
    .select({ firstName: children.firstName })
    .from(children)
    .where(tenant.where(children, eq(children.id, childId)));
  return child?.firstName ?? '';
}

export type Child = typeof children.$inferSelect;

/** These children's full names ('First Last') by id. */
export async function childNames(db: Db, tenant: Tenant, childIds: number[]): Promise<Map<number, string>> {
  return new Map(
    (await childrenByIds(db, tenant, childIds)).map((c) => [c.id, `${c.firstName} ${c.lastName}`]),
  );
}

/** These children of the tenant, by first name (then id): who is coming on a booking. */
export function childrenByIds(db: Db, tenant: Tenant, childIds: number[]): Promise<Child[]> {
  const ids = [...new Set(childIds)];
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(children)
    .where(tenant.where(children, inArray(children.id, ids)))
    .orderBy(asc(children.firstName), asc(children.id));
}

/** A parent's children, for the parent's admin page. */
export async function childrenOfParent(db: Db, tenant: Tenant, parentId: number) {
  const rows = await db
    .select()
    .from(children)
    .where(tenant.where(children, eq(children.parentId, parentId)))
    .orderBy(asc(children.firstName), asc(children.id));
  return rows.map((child) => ({ name: `${child.firstName} ${child.lastName}`, dob: displayDate(child.dob) }));
}

/**
 * In the transaction of a booking given to another family: that family's own record of each of
 * these children, in the same order. A child of theirs with the same name (any case) and date of
 * birth is used when there is one; otherwise a copy is made for them (the first family keeps its own).
 */
export async function familyRecordsOf(
  tx: Db,
  tenant: Tenant,
  parentId: number,
  list: Child[],
): Promise<Child[]> {
  const theirs = await tx
    .select()
    .from(children)
    .where(tenant.where(children, eq(children.parentId, parentId)));
  const records: Child[] = [];
  for (const child of list) {
    let own = theirs.find(
      (c) =>
        c.firstName.toLowerCase() === child.firstName.toLowerCase() &&
        c.lastName.toLowerCase() === child.lastName.toLowerCase() &&
        c.dob === child.dob,
    );
    if (!own) {
      [own] = await tx
        .insert(children)
        .values(
          tenant.values({
            parentId,
            firstName: child.firstName,
            lastName: child.lastName,
            dob: child.dob,
            consent: child.consent,
            insuranceType: child.insuranceType,
          }),
        )
        .returning();
      theirs.push(own!);
    }
    records.push(own!);
  }
  return records;
}

/** Age in whole years and months on `date` (YYYY-MM-DD), as a class roll shows it. */
export function ageOn(dob: string, date: string): { years: number; months: number } {
  const [by, bm, bd] = dob.split('-').map(Number) as [number, number, number];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  // A birthday on the 31st is reached on the month's last day in shorter months.
  const lastDay = new Date(Date.UTC(y, m, 0)).getUTCDate();
  let months = (y - by) * 12 + (m - bm) - (d < Math.min(bd, lastDay) ? 1 : 0);
  if (months < 0) months = 0;
  return { years: Math.floor(months / 12), months: months % 12 };
}

/** The children a class roll shows: name, date of birth, photo consent and medical notes. */
export async function rollChildren(db: Db, tenant: Tenant, childIds: number[]) {
  const ids = [...new Set(childIds)];
  if (ids.length === 0) return [];
  return db
    .select({
      id: children.id,
      firstName: children.firstName,
      lastName: children.lastName,
      dob: children.dob,
      consent: children.consent,
      medicalNotes: children.medicalNotes,
      parentId: children.parentId,
    })
    .from(children)
    .where(tenant.where(children, inArray(children.id, ids)))
    .orderBy(asc(children.firstName), asc(children.lastName), asc(children.id));
}
