import { invoiceBalance } from '@tumble/contracts/billing';
import { planCountsFor, planInstalments } from '@tumble/contracts/payments';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { BadRequestError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { lockInvoice } from './ledger.service.ts';
import { invoiceInstalments } from './ledger.tables.ts';

/**
 * Payment plans (issue 15): an invoice's balance split into 2, 3 or 4 instalments, equal but for
 * the last (which takes the cents left over), the first due today and then every 14 days, the last
 * never after the invoice's due date (contracts/payments.ts planInstalments/planCountsFor). The
 * first is paid by card when the plan is made; the autopay job charges the others on their dates.
 */

export type Instalment = typeof invoiceInstalments.$inferSelect;

/** The instalments of an invoice's live plan (none cancelled), in order; empty without a plan. */
export function planOf(db: Db, tenant: Tenant, invoiceId: number): Promise<Instalment[]> {
  return db
    .select()
    .from(invoiceInstalments)
    .where(
      tenant.where(
        invoiceInstalments,
        eq(invoiceInstalments.invoiceId, invoiceId),
        ne(invoiceInstalments.status, 'cancelled'),
      ),
    )
    .orderBy(asc(invoiceInstalments.position));
}

/** The instalment to pay next: the first not paid (due, or failed by autopay). */
export function nextInstalment(plan: Instalment[]): Instalment | null {
  return plan.find((i) => i.status === 'due' || i.status === 'failed') ?? null;
}

/**
 * In the caller's transaction, under the invoice's row lock: writes the plan of `count`
 * instalments for what the invoice still asks. 400 when the invoice already has a plan, or when
 * a plan of that size is not offered for its balance and due date.
 */
export async function createPaymentPlan(
  tx: Db,
  tenant: Tenant,
  invoiceId: number,
  count: number,
  today: string,
): Promise<Instalment[]> {
  const invoice = await lockInvoice(tx, tenant, invoiceId);
  if ((await planOf(tx, tenant, invoiceId)).length > 0)
    throw new BadRequestError('This invoice is already paid by a payment plan.');
  const balance = invoiceBalance(invoice);
  const open = invoice.status === 'issued' || invoice.status === 'part_paid';
  if (!open || !planCountsFor(balance, invoice.dueOn, today).includes(count))
    throw new BadRequestError(`A payment plan of ${count} instalments is not available for this invoice.`);
  // Positions count on after any cancelled plan's rows (position is unique per invoice).
  const [{ last } = { last: 0 }] = await tx
    .select({ last: sql<number>`coalesce(max(${invoiceInstalments.position}), 0)::int` })
    .from(invoiceInstalments)
    .where(tenant.where(invoiceInstalments, eq(invoiceInstalments.invoiceId, invoiceId)));
  return tx
    .insert(invoiceInstalments)
    .values(
      planInstalments(balance, count, today).map((row) =>
        tenant.values({
          invoiceId,
          position: last + row.position,
          dueOn: row.due_on,
          amount: row.amount,
          nextAttemptOn: row.due_on,
        }),
      ),
    )
    .returning();
}

/** In the paying transaction: the instalment is paid by `paymentId` (once: a paid one stays as it is). */
export async function markInstalmentPaid(tx: Db, tenant: Tenant, instalmentId: number, paymentId: number) {
  await tx
    .update(invoiceInstalments)
    .set({ status: 'paid', paymentId, paidAt: sql`now()`, nextAttemptOn: null })
    .where(
      tenant.byId(invoiceInstalments, instalmentId, inArray(invoiceInstalments.status, ['due', 'failed'])),
    );
}

/** Ends the instalments still to pay (the plan was given up unpaid, or the invoice is paid off another way). */
export async function cancelOpenInstalments(tx: Db, tenant: Tenant, invoiceId: number) {
  await tx
    .update(invoiceInstalments)
    .set({ status: 'cancelled', nextAttemptOn: null })
    .where(
      tenant.where(
        invoiceInstalments,
        and(
          eq(invoiceInstalments.invoiceId, invoiceId),
          inArray(invoiceInstalments.status, ['due', 'failed']),
        ),
      ),
    );
}
