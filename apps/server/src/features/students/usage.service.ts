import { count } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { children } from './students.tables.ts';

/** Children per company, for the installation operator's Customers list (features/operators). */
export async function childrenByCompany(db: Db): Promise<Map<number, number>> {
  // cross-tenant: the operator's Customers list counts every company's children (no row is read).
  const rows = await db
    .select({ companyId: children.companyId, n: count() })
    .from(children)
    .groupBy(children.companyId);
  return new Map(rows.map((r) => [r.companyId, r.n]));
}
