import { gte, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { coachLeaves } from './coaches.tables.ts';

export interface CoachLeave {
  coachId: number;
  startDate: string;
  endDate: string;
}

/** The tenant's coach leaves that touch the days `from` … `to` (YYYY-MM-DD, both included). */
export function leavesBetween(db: Db, tenant: Tenant, from: string, to: string): Promise<CoachLeave[]> {
  return db
    .select({ coachId: coachLeaves.coachId, startDate: coachLeaves.startDate, endDate: coachLeaves.endDate })
    .from(coachLeaves)
    .where(tenant.where(coachLeaves, lte(coachLeaves.startDate, to), gte(coachLeaves.endDate, from)));
}

/** Whether `coachId` is on one of these leaves on `date`: their session then needs cover. */
export function onLeave(leaves: CoachLeave[], coachId: number | null, date: string): boolean {
  return (
    coachId !== null && leaves.some((l) => l.coachId === coachId && l.startDate <= date && date <= l.endDate)
  );
}
