import { paymentMethodLabels, paymentMethods } from '@tumble/contracts/billing';
import { refundDestinationLabels, refundDestinations, refundReasonMax } from '@tumble/contracts/refunds';
import { formatMoney } from '../../platform/money.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { paymentMethodOptions } from '../../platform/resources/options.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { type RefundDestination, recordRefund, sendRefund } from './refunds.service.ts';

export const destinationOptions = refundDestinations.map((value) => ({
  value,
  label: refundDestinationLabels[value],
}));

/**
 * The fields a refund asks for, on a payment and wherever a payment is refunded from (a party's
 * deposit). The amount defaults to what is left of the payment.
 */
export const refundFields = {
  amount: field.money('Amount', {
    help: 'Leave empty to refund all that is left of the payment.',
  }),
  reason: field.text('Reason', { required: true, max: refundReasonMax }),
  destination: field.select('Refund', destinationOptions, {
    required: true,
    default: 'card',
    help: 'To the card returns the money through the card provider; to family credit keeps it for the family’s next invoices or bookings. Invoices this payment paid are owed again: if the family no longer owes them, issue a credit note.',
  }),
};

/**
 * Money received (card checkouts and what staff recorded), newest first. "Refund" sends money back
 * to the card or to family credit; payments flagged "Refund due" (paid after their places were
 * gone, or a cancelled booking) are refunded the same way.
 */
export const paymentsResource = defineResource({
  name: 'payments',
  label: 'Payments',
  nav: { group: 'Money', icon: 'cash' },
  singular: 'Payment',
  table: payments,
  titleField: 'provider_ref',
  fields: {
    parent_id: field.reference('Family', 'parents', { readOnly: true }),
    method: field.select(
      'Method',
      paymentMethods.map((value) => ({ value, label: paymentMethodLabels[value] })),
      { readOnly: true },
    ),
    reference: field.text('Reference', { readOnly: true }),
    purchase_kind: field.select(
      'For',
      [
        { value: 'event', label: 'Event booking' },
        { value: 'party', label: 'Party booking' },
        { value: 'enrolment', label: 'Class enrolment' },
        { value: 'private_lesson', label: 'Private lesson' },
        { value: 'invoice', label: 'Invoice' },
      ],
      { readOnly: true },
    ),
    purchase_id: field.number('Booking #', { readOnly: true }),
    provider: field.select('Provider', paymentMethodOptions, { readOnly: true }),
    provider_ref: field.text('Provider reference', { readOnly: true }),
    amount: field.money('Amount', { readOnly: true }),
    refunded: field.money('Refunded', { readOnly: true }),
    status: field.select(
      'Status',
      [
        { value: 'open', label: 'Open' },
        { value: 'paid', label: 'Paid' },
        { value: 'expired', label: 'Expired' },
        { value: 'failed', label: 'Failed' },
        { value: 'refund_due', label: 'Refund due' },
        { value: 'refunded', label: 'Refunded' },
      ],
      { readOnly: true },
    ),
    created_at: field.datetime('Started', { readOnly: true }),
    paid_at: field.datetime('Paid', { readOnly: true }),
  },
  list: {
    columns: ['paid_at', 'parent_id', 'method', 'reference', 'purchase_kind', 'amount', 'refunded', 'status'],
    search: ['reference', 'provider_ref'],
    filters: ['method', 'status', 'purchase_kind'],
    defaultSort: { field: 'created_at', order: 'desc' },
  },
  permissions: { read: 'billing.read', write: 'billing.write' },
  canCreate: false,
  canEdit: false,
  deleteMode: 'none',
  actions: {
    refund: {
      label: 'Refund',
      selection: 'one',
      confirm: 'refund this payment',
      dismiss: 'Keep payment',
      fields: refundFields,
      run: async (ctx, [row], values) => {
        const payment = row!;
        const amount =
          (values.amount as number | null) ?? (payment.amount as number) - (payment.refunded as number);
        const refund = await recordRefund(ctx.tx, ctx.auth, {
          paymentId: payment.id,
          amount,
          reason: String(values.reason ?? ''),
          destination: values.destination as RefundDestination,
        });
        const { currency } = await companyOf(ctx.tx, ctx.tenant);
        if (refund.destination === 'credit')
          return `${formatMoney(amount, currency)} added to the family’s credit.`;
        ctx.afterCommit(() => sendRefund(ctx.deps, ctx.tenant, refund.id));
        return `Refund of ${formatMoney(amount, currency)} sent to the card. It shows as pending until the card provider confirms it.`;
      },
    },
  },
});
