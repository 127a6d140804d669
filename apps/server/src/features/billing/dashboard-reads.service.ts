import { count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { invoices } from './ledger.tables.ts';

/**
 * The dashboard's overdue invoices (issue 17): how many and the balance they still owe, in cents.
 * The same set as the invoice list filtered on status Overdue, so the card's link shows them.
 */
export async function overdueInvoiceTotals(db: Db, tenant: Tenant) {
  const [row] = await db
    .select({
      count: count(),
      amount: sql<number>`coalesce(sum(greatest(0, ${invoices.total} - ${invoices.amountPaid} - ${invoices.amountCredited})), 0)::int`,
    })
    .from(invoices)
    .where(tenant.where(invoices, eq(invoices.status, 'overdue')));
  return { count: row?.count ?? 0, amount: row?.amount ?? 0 };
}
