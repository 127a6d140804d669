import { and, eq, inArray, not, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { invoiceLines, invoices } from './ledger.tables.ts';

/**
 * What the ledger has already billed, for other features to read without its tables: the class
 * places on a live invoice line (a voided invoice's lines do not count, so they can be billed again).
 */

/** Of these class places (`class_enrolments` ids), the ones already on a line of a live invoice. */
export async function billedEnrolmentIds(
  db: Db,
  tenant: Tenant,
  enrolmentIds: number[],
): Promise<Set<number>> {
  if (enrolmentIds.length === 0) return new Set();
  const rows = await db
    .select({ id: invoiceLines.enrolmentId })
    .from(invoiceLines)
    .where(
      tenant.where(
        invoiceLines,
        inArray(invoiceLines.enrolmentId, [...new Set(enrolmentIds)]),
        not(invoiceLines.voided),
      ),
    );
  return new Set(rows.map((r) => r.id!));
}

/** How many term invoices (any status, void too) a family has for a term: the next one's `<n>`. */
export async function termInvoiceCount(db: Db, tenant: Tenant, termId: number, parentId: number) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(invoices)
    .where(
      tenant.where(
        invoices,
        and(eq(invoices.termId, termId), eq(invoices.parentId, parentId), eq(invoices.kind, 'term')),
      ),
    );
  return row!.count;
}
