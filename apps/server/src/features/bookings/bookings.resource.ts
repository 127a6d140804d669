import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { paymentMethodOptions } from '../../platform/resources/options.ts';
import { cardRefundable, paymentsOfPurchase, recordRefund, sendRefund } from '../billing/refunds.service.ts';
import {
  cancelBookings,
  changeParent,
  childrenOfBooking,
  daysOfBooking,
  type RefundChoice,
  refundChoices,
  swapSession,
} from './booking-changes.service.ts';
import { bookings } from './bookings.tables.ts';

const bookingsAccess = { read: 'bookings.read', write: 'bookings.write' } as const;

const statusOptions = [
  { value: 'pending', label: 'Awaiting payment' },
  { value: 'confirmed', label: 'Confirmed' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'expired', label: 'Expired' },
  { value: 'refund_due', label: 'Refund due' },
];

/**
 * An event's bookings (made by parents, never typed in by staff). Cancel, swap-session and
 * change-parent change places under the same session locks as checkout, so they never oversell.
 */
export const eventBookingsResource = defineResource({
  name: 'bookings',
  label: 'Bookings',
  singular: 'Booking',
  table: bookings,
  parent: { resource: 'events', column: 'eventId' },
  titleField: 'code',
  fields: {
    // The short reference read out over the phone; `reference` is the secret in the parent's links.
    code: field.text('Reference', { readOnly: true }),
    reference: field.text('Link key', { readOnly: true }),
    parent_id: field.reference('Parent', 'parents', { readOnly: true }),
    status: field.select('Status', statusOptions, { readOnly: true }),
    quantity: field.number('Places', { readOnly: true }),
    total: field.money('Total', { readOnly: true }),
    coupon_code: field.text('Coupon', { readOnly: true }),
    provider: field.select('Paid with', paymentMethodOptions, { readOnly: true }),
    created_at: field.datetime('Booked at', { readOnly: true }),
    cancelled_at: field.datetime('Cancelled at', { readOnly: true }),
    refund_choice: field.select('Money paid', refundChoices, { readOnly: true }),
  },
  list: {
    columns: ['code', 'parent_id', 'status', 'quantity', 'total', 'created_at'],
    search: ['code', 'reference', 'coupon_code'],
    filters: ['status'],
    defaultSort: { field: 'created_at', order: 'desc' },
  },
  permissions: bookingsAccess,
  canCreate: false,
  canEdit: false,
  deleteMode: 'none',
  sections: {
    children: {
      label: 'Children',
      columns: [
        { name: 'name', label: 'Name' },
        { name: 'dob', label: 'Date of birth' },
        { name: 'insurance', label: 'Insurance' },
      ],
      rows: ({ tx, tenant }, row) => childrenOfBooking(tx, tenant, row.id),
    },
    days: {
      label: 'Days',
      columns: [
        { name: 'date', label: 'Day' },
        { name: 'session', label: 'Session' },
        { name: 'time', label: 'Time' },
        { name: 'places', label: 'Places' },
      ],
      rows: ({ tx, tenant }, row) => daysOfBooking(tx, tenant, row.id),
    },
  },
  actions: {
    waivers: { label: 'Waivers', selection: 'one', screen: 'booking-waivers', permission: 'bookings.read' },
    cancel: {
      label: 'Cancel booking',
      selection: 'many',
      confirm: 'cancel the selected bookings',
      dismiss: 'Keep booking',
      fields: {
        refund: field.select('Money paid (paid bookings)', refundChoices, {
          help: 'For a booking that was paid: refund it, keep it as the family’s credit, or no refund, as your payment terms say.',
        }),
      },
      run: async (ctx, rows, values) => {
        const choice = (values.refund as RefundChoice | null | undefined) ?? null;
        const message = await cancelBookings(
          ctx,
          ctx.parentId!,
          rows.map((r) => r.id),
          choice,
        );
        // The money of the bookings just cancelled goes back now, in this transaction; card
        // refunds are sent after commit. A refund of a payment not made by card stays "Refund due".
        if (choice !== 'refund' && choice !== 'credit') return message;
        const cancelled = rows.filter((r) => r.status === 'confirmed' || r.status === 'pending');
        for (const booking of cancelled)
          for (const { paymentId, refundable } of await paymentsOfPurchase(ctx.tx, ctx.tenant, {
            kind: 'event',
            id: booking.id,
          })) {
            if (refundable <= 0) continue;
            const toCard = choice === 'refund';
            if (toCard && !(await cardRefundable(ctx.tx, ctx.tenant, paymentId))) continue;
            const refund = await recordRefund(ctx.tx, ctx.auth, {
              paymentId,
              amount: refundable,
              reason: `Booking ${String(booking.code)} cancelled`,
              destination: toCard ? 'card' : 'credit',
            });
            if (toCard) ctx.afterCommit(() => sendRefund(ctx.deps, ctx.tenant, refund.id));
          }
        return message;
      },
    },
    'swap-session': {
      label: 'Swap session',
      selection: 'one',
      confirm: 'swap the session',
      fields: {
        from_session_id: field.reference('From session', 'sessions', { required: true }),
        from_date: field.date('From day', { required: true }),
        to_session_id: field.reference('To session', 'sessions', { required: true }),
        to_date: field.date('To day', { required: true }),
      },
      run: (ctx, [row], values) =>
        swapSession(ctx, ctx.parentId!, row!.id, {
          from: { sessionId: values.from_session_id as number, date: values.from_date as string },
          to: { sessionId: values.to_session_id as number, date: values.to_date as string },
        }),
    },
    'change-parent': {
      label: 'Change parent',
      selection: 'one',
      confirm: 'change the parent',
      fields: { parent_id: field.reference('New parent', 'parents', { required: true }) },
      run: (ctx, [row], values) => changeParent(ctx, row!.id, values.parent_id as number),
    },
  },
});

export const bookingResources = [eventBookingsResource];
