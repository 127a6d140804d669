import { count, eq, max } from 'drizzle-orm';
import { BadRequestError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { refundFields } from '../billing/payments.resource.ts';
import {
  cardRefundable,
  paymentsOfPurchase,
  type RefundDestination,
  recordRefund,
  sendRefund,
} from '../billing/refunds.service.ts';
import { partyBookings, partyGuests } from './parties.tables.ts';
import { cancelParties } from './party-changes.service.ts';

const access = { read: 'bookings.read', write: 'bookings.write' } as const;

/** Birthday party bookings (made by parents): staff read them, cancel them and keep the guest list. */
export const partyBookingsResource = defineResource({
  name: 'party-bookings',
  label: 'Party bookings',
  nav: { group: 'Parties', icon: 'cake' },
  singular: 'Party booking',
  table: partyBookings,
  titleField: 'code',
  fields: {
    // The short reference read out over the phone; `reference` is the secret in the parent's links.
    code: field.text('Reference', { readOnly: true }),
    reference: field.text('Link key', { readOnly: true }),
    date: field.date('Date', { readOnly: true }),
    slot_id: field.reference('Slot', 'slots', { readOnly: true }),
    parent_id: field.reference('Parent', 'parents', { readOnly: true }),
    guests: field.number('Guests', { readOnly: true }),
    total: field.money('Total', { readOnly: true }),
    deposit: field.money('Deposit paid', { readOnly: true }),
    balance: field.money('Balance due', { readOnly: true }),
    status: field.select(
      'Status',
      [
        { value: 'pending', label: 'Awaiting deposit' },
        { value: 'confirmed', label: 'Confirmed' },
        { value: 'cancelled', label: 'Cancelled' },
        { value: 'expired', label: 'Expired' },
        { value: 'refund_due', label: 'Refund due' },
      ],
      { readOnly: true },
    ),
  },
  list: {
    columns: ['code', 'date', 'slot_id', 'parent_id', 'guests', 'deposit', 'balance', 'status'],
    search: ['code', 'reference'],
    filters: ['status', 'slot_id'],
    defaultSort: { field: 'date', order: 'asc' },
  },
  permissions: access,
  canCreate: false,
  canEdit: false,
  deleteMode: 'none',
  actions: {
    waivers: { label: 'Waivers', selection: 'one', screen: 'party-waivers', permission: 'bookings.read' },
    // The balance left (`balance`) is collected by staff: the record-a-payment page for this party.
    'record-payment': { label: 'Record balance payment', selection: 'one', screen: 'record-payment' },
    cancel: {
      label: 'Cancel',
      selection: 'many',
      confirm: 'cancel the selected parties',
      run: (ctx, rows) =>
        cancelParties(
          ctx,
          rows.map((r) => r.id),
        ),
    },
    // The deposit is the party's card checkout; balance payments are recorded by staff later.
    'refund-deposit': {
      label: 'Refund deposit',
      selection: 'one',
      confirm: 'refund the deposit of this party',
      dismiss: 'Keep deposit',
      fields: refundFields,
      run: async (ctx, [row], values) => {
        let deposit: { paymentId: number; refundable: number } | undefined;
        for (const payment of await paymentsOfPurchase(ctx.tx, ctx.tenant, { kind: 'party', id: row!.id }))
          if (!deposit && (await cardRefundable(ctx.tx, ctx.tenant, payment.paymentId))) deposit = payment;
        if (!deposit || deposit.refundable <= 0)
          throw new BadRequestError('This party has no paid deposit left to refund.');
        const amount = (values.amount as number | null) ?? deposit.refundable;
        const refund = await recordRefund(ctx.tx, ctx.auth, {
          paymentId: deposit.paymentId,
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

/** The guest list of a party, kept by staff too (e.g. guests phoned in). */
export const partyGuestsResource = defineResource({
  name: 'guests',
  label: 'Guests',
  singular: 'Guest',
  table: partyGuests,
  parent: { resource: 'party-bookings', column: 'partyBookingId' },
  titleField: 'child_name',
  fields: {
    child_name: field.text('Child’s name', { required: true, max: 120 }),
    parent_name: field.text('Parent’s name', { max: 120 }),
    parent_email: field.email('Parent’s email'),
    parent_phone: field.phone('Parent’s phone'),
    position: field.number('Row', { readOnly: true }),
  },
  list: {
    columns: ['child_name', 'parent_name', 'parent_email', 'parent_phone'],
    search: ['child_name', 'parent_name', 'parent_email'],
    defaultSort: { field: 'position', order: 'asc' },
  },
  permissions: access,
  check: async (_values, { tx, tenant, parentId, id }) => {
    if (id !== null) return undefined;
    const [party] = await tx
      .select()
      .from(partyBookings)
      .where(tenant.where(partyBookings, eq(partyBookings.id, parentId ?? -1)));
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(partyGuests)
      .where(tenant.where(partyGuests, eq(partyGuests.partyBookingId, parentId ?? -1)));
    return party && n >= party.guests
      ? { child_name: `This party is booked for ${party.guests} guests.` }
      : undefined;
  },
  // New rows go after the last one.
  beforeSave: async (values, { tx, tenant, parentId, id }) => {
    if (id !== null) return values;
    const [{ last } = { last: 0 }] = await tx
      .select({ last: max(partyGuests.position) })
      .from(partyGuests)
      .where(tenant.where(partyGuests, eq(partyGuests.partyBookingId, parentId ?? -1)));
    return { ...values, position: (last ?? 0) + 1 };
  },
});

export const partyBookingResources = [partyBookingsResource, partyGuestsResource];
