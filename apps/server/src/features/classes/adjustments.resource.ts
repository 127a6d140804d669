import { and, eq, inArray, sql } from 'drizzle-orm';
import { BadRequestError } from '../../platform/errors.ts';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { enrolmentAdjustments } from './adjustments.tables.ts';

export const ADJUSTMENT_KINDS = [
  { value: 'charge', label: 'Charge to invoice' },
  { value: 'credit', label: 'Family credit' },
  { value: 'refund_due', label: 'Refund due' },
] as const;

/**
 * "Credits and refunds due" (SPEC class-payments): what staff changes to enrolments left owing
 * either way (class-students.service.ts writes them). Read-only: the billing issue turns charges
 * into invoices and refunds into real refunds; until then staff mark a refund done once paid back.
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
