import type { ReportFilter } from '@tumble/contracts/reports';
import { sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import type { FilterValues } from '../../platform/reports/report.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { todayIn } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';

/** A report's period: two days in the URL (?from=…&to=…), this calendar year by default. */
export const periodFilters: ReportFilter[] = [
  { name: 'from', label: 'From', type: 'date' },
  { name: 'to', label: 'To', type: 'date' },
];

export interface Period {
  from: string;
  to: string;
  /** The company's time zone, for the day an instant falls on. */
  timeZone: string;
}

/** The period asked for; a missing end is the first or last day of the company's current year. */
export async function periodOf(db: Db, tenant: Tenant, filters: FilterValues): Promise<Period> {
  const { timeZone } = await companyOf(db, tenant);
  const year = todayIn(timeZone).slice(0, 4);
  const day = (value: string | number | undefined, fallback: string) =>
    typeof value === 'string' && value ? value : fallback;
  return { from: day(filters.from, `${year}-01-01`), to: day(filters.to, `${year}-12-31`), timeZone };
}

/** The company's day of an instant column, as SQL. */
export const dayOf = (column: PgColumn, timeZone: string) =>
  sql<string>`(${column} at time zone ${timeZone})::date`;
