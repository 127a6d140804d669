import { inArray, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { invoices } from './ledger.tables.ts';

/** Families (subquery of parent ids) with an issued invoice still owing money (mass mail filter). */
export function familiesOwing(db: Db, tenant: Tenant): SQLWrapper {
  return db
    .select({ parentId: invoices.parentId })
    .from(invoices)
    .where(
      tenant.where(
        invoices,
        inArray(invoices.status, ['issued', 'part_paid', 'overdue']),
        sql`${invoices.total} - ${invoices.amountPaid} - ${invoices.amountCredited} > 0`,
      ),
    );
}
