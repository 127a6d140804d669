import { and, asc, inArray, ne, not, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { users } from './accounts.tables.ts';

/**
 * The company's families (parent users, not disabled) whose id is in every `within` subquery and in
 * no `without` subquery: a mass mail's audience (features/communications/audience.service.ts).
 */
function familyCondition(within: SQLWrapper[], without: SQLWrapper[]) {
  return and(
    inArray(users.role, ['student']),
    ne(users.status, 'disabled'),
    ...within.map((ids) => inArray(users.id, ids)),
    ...without.map((ids) => not(inArray(users.id, ids))),
  );
}

/** The matching families by name (at most `limit`), with their email. */
export function familiesWhere(
  db: Db,
  tenant: Tenant,
  within: SQLWrapper[],
  without: SQLWrapper[],
  limit: number,
) {
  return db
    .select({ id: users.id, name: users.fullName, email: users.email })
    .from(users)
    .where(tenant.where(users, familyCondition(within, without)))
    .orderBy(asc(users.fullName), asc(users.id))
    .limit(limit);
}

/** How many families match. */
export function countFamiliesWhere(db: Db, tenant: Tenant, within: SQLWrapper[], without: SQLWrapper[]) {
  return db.$count(users, tenant.where(users, familyCondition(within, without)));
}
