import { asc, eq, gte, inArray, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { contactOf } from '../accounts/accounts.service.ts';
import { contactsByIds } from '../accounts/profile.service.ts';
import { coaches, coachLeaves } from './coaches.tables.ts';

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

export interface Leave {
  id: number;
  coachId: number;
  startDate: string;
  endDate: string;
  reason: string | null;
}

const leaveColumns = {
  id: coachLeaves.id,
  coachId: coachLeaves.coachId,
  startDate: coachLeaves.startDate,
  endDate: coachLeaves.endDate,
  reason: coachLeaves.reason,
};

/**
 * The tenant's coach leaves that touch the days `from` … `to` (YYYY-MM-DD, both included; no `to`:
 * every leave not ended by `from`), in date order. `onLeave` then says whose session needs cover.
 */
export async function leavesBetween(db: Db, tenant: Tenant, from: string, to?: string): Promise<Leave[]> {
  return db
    .select(leaveColumns)
    .from(coachLeaves)
    .where(
      tenant.where(
        coachLeaves,
        gte(coachLeaves.endDate, from),
        to ? lte(coachLeaves.startDate, to) : undefined,
      ),
    )
    .orderBy(asc(coachLeaves.startDate));
}

/** Whether `coachId` is on one of these leaves on `date`: their session then needs cover. */
export function onLeave(leaves: Leave[], coachId: number | null, date: string): boolean {
  return (
    coachId !== null && leaves.some((l) => l.coachId === coachId && l.startDate <= date && date <= l.endDate)
  );
}

/** The coach profile of a signed-in staff user (the roll shows a coach their own sessions), or null. */
export async function coachIdOfUser(db: Db, tenant: Tenant, userId: number): Promise<number | null> {
  const [coach] = await db
    .select({ id: coaches.id })
    .from(coaches)
    .where(tenant.where(coaches, eq(coaches.userId, userId)));
  return coach?.id ?? null;
}

/** The leave a coach is on that day, or null. */
export async function leaveOn(db: Db, tenant: Tenant, coachId: number, date: string): Promise<Leave | null> {
  const [leave] = await db
    .select(leaveColumns)
    .from(coachLeaves)
    .where(
      tenant.where(
        coachLeaves,
        eq(coachLeaves.coachId, coachId),
        lte(coachLeaves.startDate, date),
        gte(coachLeaves.endDate, date),
      ),
    )
    .limit(1);
  return leave ?? null;
}

/** The coaches' names (their staff users' full names), by coach id. */
export async function namesOfCoaches(
  db: Db,
  tenant: Tenant,
  coachIds: number[],
): Promise<Map<number, string>> {
  const ids = [...new Set(coachIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: coaches.id, userId: coaches.userId, name: coaches.name })
    .from(coaches)
    .where(tenant.where(coaches, inArray(coaches.id, ids)));
  const contacts = await contactsByIds(
    db,
    tenant,
    rows.map((r) => r.userId),
  );
  return new Map(rows.map((r) => [r.id, contacts.get(r.userId)?.fullName ?? r.name]));
}

export interface CheckDue {
  coachId: number;
  name: string;
  wwccNumber: string | null;
  expiresOn: string;
  expired: boolean;
}

/**
 * Current coaches whose Working With Children Check expires on or before `until` (already expired
 * ones included), soonest first: what the dashboard asks staff to renew.
 */
export async function checksDue(db: Db, tenant: Tenant, today: string, until: string): Promise<CheckDue[]> {
  const rows = await db
    .select({
      id: coaches.id,
      userId: coaches.userId,
      wwccNumber: coaches.wwccNumber,
      expiresOn: coaches.wwccExpiresOn,
    })
    .from(coaches)
    .where(tenant.where(coaches, isNull(coaches.archivedAt), lte(coaches.wwccExpiresOn, until)))
    .orderBy(asc(coaches.wwccExpiresOn), asc(coaches.id));
  const names = await namesOfCoaches(
    db,
    tenant,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    coachId: r.id,
    name: names.get(r.id) ?? '',
    wwccNumber: r.wwccNumber,
    expiresOn: r.expiresOn!,
    expired: r.expiresOn! < today,
  }));
}
