import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { termClasses } from './classes.tables.ts';

/** The names of a company's term classes by id (lists in other features: registration anomalies). */
export async function classNames(db: Db, tenant: Tenant, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: termClasses.id, name: termClasses.name })
    .from(termClasses)
    .where(tenant.where(termClasses, inArray(termClasses.id, unique)));
  return new Map(rows.map((r) => [r.id, r.name]));
}
