import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { children } from './students.tables.ts';

/**
 * A child of the company with this first name, last name (any case) and date of birth, when there
 * is one: a new child typed at a registration may be one the company already knows.
 */
export async function childLike(
  db: Db,
  tenant: Tenant,
  child: { firstName: string; lastName: string; dob: string },
  exceptId: number,
): Promise<{ id: number; parentId: number } | null> {
  const [found] = await db
    .select({ id: children.id, parentId: children.parentId })
    .from(children)
    .where(
      tenant.where(
        children,
        and(
          sql`lower(${children.firstName}) = lower(${child.firstName})`,
          sql`lower(${children.lastName}) = lower(${child.lastName})`,
          eq(children.dob, child.dob),
          ne(children.id, exceptId),
        ),
      ),
    )
    .orderBy(asc(children.id))
    .limit(1);
  return found ?? null;
}
