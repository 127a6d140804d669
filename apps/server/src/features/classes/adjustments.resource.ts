import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { BadRequestError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import { defineResource, type ResourceContext, type ResourceRow } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { moveFamilyCredit } from '../billing/ledger.service.ts';
import { cardRefundable, paymentsOfPurchase, recordRefund, sendRefund } from '../billing/refunds.service.ts';
import { enrolmentAdjustments } from './adjustments.tables.ts';
import { enrolmentPurchaseItems, enrolmentPurchases } from './enrolments.tables.ts';

export const ADJUSTMENT_KINDS = [
  { value: 'charge', label: 'Charge to invoice' },
  { value: 'credit', label: 'Family credit' },
  { value: 'refund_due', label: 'Refund due' },
] as const;

/** The paid purchases that bought an enrolment (a place can be bought again after a lapsed hold). */
async function purchasesOfEnrolment(tx: Db, tenant: Tenant, enrolmentId: number): Promise<number[]> {
  const rows = await tx
    .select({ id: enrolmentPurchases.id })
    .from(enrolmentPurchaseItems)
    .innerJoin(enrolmentPurchases, eq(enrolmentPurchases.id, enrolmentPurchaseItems.purchaseId))
    .where(
      tenant.where(
        enrolmentPurchaseItems,
        eq(enrolmentPurchaseItems.enrolmentId, enrolmentId),
        inArray(enrolmentPurchases.status, ['confirmed', 'refund_due']),
      ),
    )
    .orderBy(enrolmentPurchases.id);
  return rows.map((r) => r.id);
}

const markDone = (tx: Db, tenant: Tenant, id: number) =>
  tx
    .update(enrolmentAdjustments)
    .set({ status: 'done', doneAt: sql`now()` })
    .where(tenant.where(enrolmentAdjustments, eq(enrolmentAdjustments.id, id)));

/**
 * Pays a refund due back from the enrolment's own payments: to the card when one was card-paid
 * (card ones first), else to family credit; anything no payment covers (a place billed on an
 * invoice) becomes family credit, once (`adjustment:<id>`).
 */
async function refundAdjustment(ctx: ResourceContext, row: ResourceRow): Promise<string> {
  const { tx, tenant, auth } = ctx;
  if (row.kind !== 'refund_due' || row.status !== 'open')
    throw new BadRequestError('Only an open refund due can be refunded.');
  // The place the adjustment is about is not one of the list's fields: read it from the locked row.
  const [adjustment] = await tx
    .select({ enrolmentId: enrolmentAdjustments.enrolmentId })
    .from(enrolmentAdjustments)
    .where(tenant.where(enrolmentAdjustments, eq(enrolmentAdjustments.id, row.id)));
  const paid: { paymentId: number; refundable: number; card: boolean }[] = [];
  for (const purchaseId of await purchasesOfEnrolment(tx, tenant, adjustment!.enrolmentId))
    for (const payment of await paymentsOfPurchase(tx, tenant, { kind: 'enrolment', id: purchaseId }))
      paid.push({ ...payment, card: await cardRefundable(tx, tenant, payment.paymentId) });
  paid.sort((a, b) => Number(b.card) - Number(a.card));
  const { currency } = await companyOf(tx, tenant);
  let left = row.amount as number;
  let toCard = 0;
  for (const payment of paid) {
    const amount = Math.min(left, payment.refundable);
    if (amount <= 0) continue;
    const refund = await recordRefund(tx, auth, {
      paymentId: payment.paymentId,
      amount,
      reason: String(row.reason),
      destination: payment.card ? 'card' : 'credit',
    });
    if (refund.destination === 'card') {
      toCard += amount;
      ctx.afterCommit(() => sendRefund(ctx.deps, tenant, refund.id));
    }
    left -= amount;
  }
  if (left > 0)
    await moveFamilyCredit(tx, tenant, {
      parentId: row.parent_id as number,
      amount: left,
      reason: String(row.reason),
      sourceKey: `adjustment:${row.id}`,
      createdBy: auth.userId,
    });
  await markDone(tx, tenant, row.id);
  const total = formatMoney(row.amount as number, currency);
  return toCard === row.amount
    ? `Refund of ${total} sent to the card.`
    : toCard === 0
      ? `${total} added to the family’s credit.`
      : `Refund of ${total}: ${formatMoney(toCard, currency)} to the card, the rest to the family’s credit.`;
}

/**
 * "Credits and refunds due" (SPEC class-payments): what staff changes to enrolments left owing
 * either way (class-students.service.ts writes them). Read-only: charges go on invoices; a refund
 * due is refunded from the enrolment's payments, a credit added to the family's credit (billing).
 */
export const adjustmentsResource = defineResource({
  name: 'class-payments',
  label: 'Credits and refunds due',
  nav: { group: 'Classes', icon: 'receipt' },
  singular: 'Adjustment',
  table: enrolmentAdjustments,
  titleField: 'child_name',
  fields: {
    parent_id: field.reference('Family', 'parents', { readOnly: true }),
    child_name: field.text('Child', { readOnly: true }),
    term_class_id: field.reference('Class', 'term-classes', { readOnly: true }),
    amount: field.money('Amount', { readOnly: true }),
    kind: field.select('Kind', ADJUSTMENT_KINDS, { readOnly: true }),
    reason: field.text('Reason', { readOnly: true }),
    status: field.select(
      'Status',
      [
        { value: 'open', label: 'Open' },
        { value: 'done', label: 'Done' },
      ],
      { readOnly: true },
    ),
    created_at: field.datetime('Date', { readOnly: true }),
    done_at: field.datetime('Done', { readOnly: true }),
  },
  list: {
    columns: ['parent_id', 'child_name', 'term_class_id', 'amount', 'kind', 'reason', 'created_at', 'status'],
    search: ['child_name', 'reason'],
    filters: ['kind', 'status', 'term_class_id', 'parent_id'],
    defaultSort: { field: 'created_at', order: 'desc' },
  },
  actions: {
    refund: {
      label: 'Refund',
      selection: 'one',
      confirm: 'refund this to the family (to the card it was paid with, else to family credit)',
      run: (ctx, [row]) => refundAdjustment(ctx, row!),
    },
    'add-credit': {
      label: 'Add to family credit',
      selection: 'many',
      confirm: 'add the selected credits to the families’ credit',
      run: async ({ tx, tenant, auth }, rows) => {
        const open = rows.filter((r) => r.kind === 'credit' && r.status === 'open');
        if (open.length === 0) throw new BadRequestError('Only open family credits can be added.');
        for (const row of open) {
          await moveFamilyCredit(tx, tenant, {
            parentId: row.parent_id as number,
            amount: row.amount as number,
            reason: String(row.reason),
            sourceKey: `adjustment:${row.id}`,
            createdBy: auth.userId,
          });
          await markDone(tx, tenant, row.id);
        }
        return `${open.length} ${open.length === 1 ? 'credit' : 'credits'} added to family credit.`;
      },
    },
    'mark-done': {
      label: 'Mark done',
      selection: 'many',
      confirm: 'mark the selected refunds as paid back',
      run: async ({ tx, tenant }, rows) => {
        const due = rows.filter((r) => r.kind === 'refund_due' && r.status === 'open').map((r) => r.id);
        if (due.length === 0) throw new BadRequestError('Only open refunds due can be marked done.');
        await tx
          .update(enrolmentAdjustments)
          .set({ status: 'done', doneAt: sql`now()` })
          .where(
            tenant.where(
              enrolmentAdjustments,
              and(inArray(enrolmentAdjustments.id, due), eq(enrolmentAdjustments.status, 'open')),
            ),
          );
        return `${due.length} ${due.length === 1 ? 'refund' : 'refunds'} marked done.`;
      },
    },
  },
  // Family money: office staff, not coaches.
  permissions: { read: 'billing.read', write: 'classes.write' },
  canCreate: false,
  canEdit: false,
  deleteMode: 'none',
});

export const adjustmentResources = [adjustmentsResource];
