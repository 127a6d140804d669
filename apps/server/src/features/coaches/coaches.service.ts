import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { contactOf } from '../accounts/accounts.service.ts';
import { coaches } from './coaches.tables.ts';

type Check = Pick<
  typeof coaches.$inferSelect,
  'wwccNumber' | 'wwccOutcome' | 'wwccVerifiedOn' | 'wwccExpiresOn' | 'archivedAt'
>;

/**
 * Why a coach may not be rostered on `date` (YYYY-MM-DD), or null. A coach works with children only
 * with a Working With Children Check that staff verified as cleared and that has not expired on
 * the day.
 */
export function checkProblem(name: string, check: Check, date: string): string | null {
  if (check.archivedAt) return `${name} is no longer a coach.`;
  if (!check.wwccNumber) return `${name} has no Working With Children Check number.`;
  if (check.wwccOutcome === 'barred') return `${name}'s Working With Children Check is barred.`;
  if (check.wwccOutcome !== 'cleared' || !check.wwccVerifiedOn)
    return `${name}'s Working With Children Check has not been verified.`;
  if (!check.wwccExpiresOn || check.wwccExpiresOn < date)
    return `${name}'s Working With Children Check has expired.`;
  return null;
}

/** `checkProblem` for a coach of this tenant; an unknown coach is a problem too. */
export async function rosterProblem(
  db: Db,
  tenant: Tenant,
  coachId: number,
  date: string,
): Promise<string | null> {
  const [coach] = await db.select().from(coaches).where(tenant.byId(coaches, coachId));
  if (!coach) return 'Choose a coach of this company.';
  const { fullName } = await contactOf(db, tenant, coach.userId);
  return checkProblem(fullName, coach, date);
}
