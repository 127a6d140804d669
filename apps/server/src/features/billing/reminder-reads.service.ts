import { asc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { invoices } from './ledger.tables.ts';

/** What reminder emails (features/communications/reminders) read of invoices. */

export interface OwingInvoice {
  id: number;
  parentId: number;
  code: string;
  dueOn: string;
  /** Cents still owing. */
  balance: number;
}

/** Issued invoices due on these dates that still have something owing (not paid, not void). */
export async function owingInvoicesDueOn(db: Db, tenant: Tenant, dates: string[]): Promise<OwingInvoice[]> {
  if (dates.length === 0) return [];
  const balance = sql<number>`${invoices.total} - ${invoices.amountPaid} - ${invoices.amountCredited}`;
  const rows = await db
    .select({
      id: invoices.id,
      parentId: invoices.parentId,
      code: invoices.code,
      dueOn: invoices.dueOn,
      balance,
    })
    .from(invoices)
    .where(
      tenant.where(
        invoices,
        inArray(invoices.status, ['issued', 'part_paid', 'overdue']),
        inArray(invoices.dueOn, dates),
        sql`${balance} > 0`,
      ),
    )
    .orderBy(asc(invoices.id));
  return rows.map((row) => ({
    ...row,
    code: row.code ?? String(row.id),
    dueOn: row.dueOn!,
    balance: Number(row.balance),
  }));
}
