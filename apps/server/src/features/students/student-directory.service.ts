import {
  STUDENTS_PAGE_SIZE,
  type StudentDirectory,
  type StudentDirectoryQuery,
} from '@tumble/contracts/student-directory';
import { asc, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { familiesSubquery } from '../accounts/family-directory.service.ts';
import { activeClassCounts } from '../classes/child-classes.service.ts';
import { ageOn } from './children.service.ts';
import { flagsOf } from './flags.service.ts';
import { children } from './students.tables.ts';

/** `%`, `_` and `\` typed by staff are letters, not patterns. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * GET /api/v1/admin/students: the company's children across families, in one query. Every word
 * staff typed must be found in the child's first or last name, the parent's name, email or phone
 * (a phone also matches by its digits alone: "0412 345" finds "0412345678"); paged and sorted.
 */
export async function studentDirectory(
  db: Db,
  tenant: Tenant,
  query: StudentDirectoryQuery,
): Promise<StudentDirectory> {
  const families = familiesSubquery(db, tenant);
  const words = query.q.split(/\s+/).filter(Boolean);
  const matches = words.map((word): SQL | undefined => {
    const like = `%${literal(word)}%`;
    const digits = word.replace(/\D/g, '');
    return or(
      ilike(children.firstName, like),
      ilike(children.lastName, like),
      ilike(families.parentName, like),
      ilike(families.parentEmail, like),
      ilike(families.parentPhone, like),
      digits.length >= 3
        ? sql`regexp_replace(coalesce(${families.parentPhone}, ''), '[^0-9]', '', 'g') like ${`%${digits}%`}`
        : undefined,
    );
  });
  const direction = query.dir === 'desc' ? desc : asc;
  // Older children have earlier birthdays: age ascending is date of birth descending.
  const order =
    query.sort === 'age'
      ? [query.dir === 'desc' ? asc(children.dob) : desc(children.dob)]
      : query.sort === 'family'
        ? [direction(families.parentName), asc(children.firstName)]
        : [direction(children.firstName), direction(children.lastName)];
  const where = tenant.where(children, ...matches);
  const [rows, [total], company] = await Promise.all([
    db
      .select({
        id: children.id,
        firstName: children.firstName,
        lastName: children.lastName,
        dob: children.dob,
        parentId: families.parentId,
        parentName: families.parentName,
        parentEmail: families.parentEmail,
        parentPhone: families.parentPhone,
      })
      .from(children)
      .innerJoin(families, eq(families.parentId, children.parentId))
      .where(where)
      .orderBy(...order, asc(children.id))
      .limit(STUDENTS_PAGE_SIZE)
      .offset((query.page - 1) * STUDENTS_PAGE_SIZE),
    db
      .select({ n: count() })
      .from(children)
      .innerJoin(families, eq(families.parentId, children.parentId))
      .where(where),
    companyOf(db, tenant),
  ]);
  const today = todayIn(company.timeZone);
  const ids = rows.map((r) => r.id);
  const [classes, flags] = await Promise.all([
    activeClassCounts(db, tenant, ids, today),
    childFlags(db, tenant, ids),
  ]);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      name: `${r.firstName} ${r.lastName}`,
      dob: r.dob,
      age: ageOn(r.dob, today).years,
      family: { id: r.parentId, name: r.parentName, email: r.parentEmail, phone: r.parentPhone ?? '' },
      active_classes: classes.get(r.id) ?? 0,
      flags: flags.get(r.id) ?? [],
    })),
    total: total?.n ?? 0,
    page: query.page,
    page_size: STUDENTS_PAGE_SIZE,
  };
}

/** The flags on each of these children (their own and their family's), by child id. */
async function childFlags(db: Db, tenant: Tenant, childIds: number[]) {
  const applied = await flagsOf(db, tenant, { childIds });
  return new Map(
    [...applied].map(([childId, flags]) => [
      childId,
      flags.map((f) => ({ id: f.id, name: f.name, colour: f.colour })),
    ]),
  );
}
