import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** Any table that carries `company_id`. */
export interface TenantTable {
  companyId: PgColumn;
}

/** A tenant table with the `id` of `tenantKey()`. */
export interface TenantRowTable extends TenantTable {
  id: PgColumn;
}

/**
 * The company a request (or a job) acts for. It is the only way features scope a query:
 *
 * ```ts
 * const rows = await db.select().from(venues).where(tenant.where(venues, eq(venues.id, id)));
 * await db.insert(venues).values(tenant.values({ name }));
 * ```
 *
 * Build one from a session or an authhash (platform/auth.ts), or explicitly in a job.
 */
export class Tenant {
  constructor(readonly companyId: number) {
    if (!Number.isInteger(companyId) || companyId <= 0) throw new TenantMissingError();
  }

  /** `company_id = <this tenant>` and every given condition. */
  where(table: TenantTable, ...conditions: (SQL | undefined)[]): SQL {
    return and(eq(table.companyId, this.companyId), ...conditions) as SQL;
  }

  /**
   * One row of this tenant by id (and any further conditions): the scoped way is the short way.
   * `tx.update(bookings).set(...).where(tenant.byId(bookings, booking.id))`
   */
  byId(table: TenantRowTable, id: number, ...conditions: (SQL | undefined)[]): SQL {
    return this.where(table, eq(table.id, id), ...conditions);
  }

  /** The values of an insert, stamped with this tenant. */
  values<T extends object>(values: T): T & { companyId: number } {
    return { ...values, companyId: this.companyId };
  }
}

export class TenantMissingError extends Error {
  constructor() {
    super('A tenant-scoped query ran without a tenant context.');
    this.name = 'TenantMissingError';
  }
}

/** For code paths that may hold a context: throws loudly when there is none. */
export function requireTenant(tenant: Tenant | null | undefined): Tenant {
  if (!tenant) throw new TenantMissingError();
  return tenant;
}
