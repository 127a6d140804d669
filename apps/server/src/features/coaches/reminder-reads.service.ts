import { asc, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { coaches } from './coaches.tables.ts';

/** What reminder emails (features/communications/reminders) read of coaches. */

export interface ExpiringCheck {
  coachId: number;
  userId: number;
  name: string;
  number: string | null;
  expiresOn: string;
}

/** Coaches (not archived) whose Working With Children Check expires on one of these dates. */
export async function checksExpiringOn(db: Db, tenant: Tenant, dates: string[]): Promise<ExpiringCheck[]> {
  if (dates.length === 0) return [];
  const rows = await db
    .select({
      coachId: coaches.id,
      userId: coaches.userId,
      name: coaches.name,
      number: coaches.wwccNumber,
      expiresOn: coaches.wwccExpiresOn,
    })
    .from(coaches)
    .where(tenant.where(coaches, inArray(coaches.wwccExpiresOn, dates), isNull(coaches.archivedAt)))
    .orderBy(asc(coaches.id));
  return rows.map((row) => ({ ...row, expiresOn: row.expiresOn! }));
}
