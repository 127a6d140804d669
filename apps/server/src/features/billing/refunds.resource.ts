import {
  refundDestinationLabels,
  refundDestinations,
  refundStatuses,
  refundStatusLabels,
} from '@tumble/contracts/refunds';
import { BadRequestError } from '../../platform/errors.ts';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { refunds } from './ledger.tables.ts';
import { sendRefund } from './refunds.service.ts';

/**
 * Every refund, newest first (SPEC refunds): read-only, as refunds are made from a payment. A card
 * refund the provider could not take (still pending, with the error) can be sent again: the same
 * idempotency key, so the provider never refunds twice.
 */
export const refundsResource = defineResource({
  name: 'refunds',
  label: 'Refunds',
  nav: { group: 'Money', icon: 'receipt-refund' },
  singular: 'Refund',
  table: refunds,
  titleField: 'reason',
  fields: {
    created_at: field.datetime('Date', { readOnly: true }),
    parent_id: field.reference('Family', 'parents', { readOnly: true }),
    payment_id: field.number('Payment #', { readOnly: true }),
    amount: field.money('Amount', { readOnly: true }),
    destination: field.select(
      'Refund',
      refundDestinations.map((value) => ({ value, label: refundDestinationLabels[value] })),
      { readOnly: true },
    ),
    status: field.select(
      'Status',
      refundStatuses.map((value) => ({ value, label: refundStatusLabels[value] })),
      { readOnly: true },
    ),
    reason: field.text('Reason', { readOnly: true }),
    failure_reason: field.text('Problem', { readOnly: true }),
    created_by: field.reference('Who', 'staff', { readOnly: true }),
    provider_refund_ref: field.text('Provider reference', { readOnly: true }),
    settled_at: field.datetime('Settled', { readOnly: true }),
  },
  list: {
    columns: [
      'created_at',
      'parent_id',
      'payment_id',
      'amount',
      'destination',
      'status',
      'reason',
      'created_by',
    ],
    search: ['reason', 'provider_refund_ref'],
    filters: ['status', 'destination', 'parent_id'],
    defaultSort: { field: 'created_at', order: 'desc' },
  },
  permissions: { read: 'billing.read', write: 'billing.write' },
  canCreate: false,
  canEdit: false,
  deleteMode: 'none',
  actions: {
    'send-again': {
      label: 'Send again',
      selection: 'one',
      confirm: 'send this refund to the card provider again',
      run: async (ctx, [row]) => {
        if (row!.destination !== 'card' || row!.status !== 'pending' || row!.failure_reason === null)
          throw new BadRequestError('Only a card refund that could not be sent can be sent again.');
        ctx.afterCommit(() => sendRefund(ctx.deps, ctx.tenant, row!.id));
        return 'The refund was sent to the card provider again.';
      },
    },
  },
});

export const refundResources = [refundsResource];
