import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { pgCode } from '../../platform/db-errors.ts';
import { AppError, BadRequestError, ConflictError } from '../../platform/errors.ts';
import { payments } from '../../platform/payments/payments.tables.ts';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { paymentMethodOptions } from '../../platform/resources/options.ts';
import { users } from '../accounts/accounts.tables.ts';
import { cellKey, runsOn } from '../events/availability.ts';
import { eventSessions, events } from '../events/events.tables.ts';
import { children } from '../students/students.tables.ts';
import { restrictedDates } from '../venues/venues.tables.ts';
import { takenPlaces } from './booking.service.ts';
import { bookingChildren, bookingPlaces, bookings } from './bookings.tables.ts';
import { offerFreedPlaces } from './waitlist.service.ts';

const bookingsAccess = { read: 'bookings.read', write: 'bookings.write' } as const;

const statusOptions = [
  { value: 'pending', label: 'Awaiting payment' },
  { value: 'confirmed', label: 'Confirmed' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'expired', label: 'Expired' },
  { value: 'refund_due', label: 'Refund due' },
];

/** Parents (users whose role is student): staff read and correct their contact details. */
export const parentsResource = defineResource({
  name: 'parents',
  label: 'Parents',
  singular: 'Parent',
  table: users,
  where: eq(users.role, 'student'),
  titleField: 'full_name',
  fields: {
    full_name: field.text('Name', { required: true, max: 120 }),
    email: field.email('Email', { readOnly: true }),
    phone: field.phone('Phone'),
    status: field.select(
      'Status',
      [
        { value: 'active', label: 'Active' },
        { value: 'pending', label: 'Pending' },
        { value: 'disabled', label: 'Disabled' },
      ],
      { readOnly: true },
    ),
  },
  list: {
    columns: ['full_name', 'email', 'phone', 'status'],
    search: ['full_name', 'email', 'phone'],
    filters: ['status'],
  },
  permissions: bookingsAccess,
  canCreate: false,
  deleteMode: 'none',
});

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
  titleField: 'reference',
  fields: {
    reference: field.text('Reference', { readOnly: true }),
    parent_id: field.reference('Parent', 'parents', { readOnly: true }),
    status: field.select('Status', statusOptions, { readOnly: true }),
    quantity: field.number('Places', { readOnly: true }),
    total: field.money('Total', { readOnly: true }),
    coupon_code: field.text('Coupon', { readOnly: true }),
    provider: field.select('Paid with', paymentMethodOptions, { readOnly: true }),
    created_at: field.datetime('Booked at', { readOnly: true }),
  },
  list: {
    columns: ['reference', 'parent_id', 'status', 'quantity', 'total', 'created_at'],
    search: ['reference', 'coupon_code'],
    filters: ['status'],
    defaultSort: { field: 'created_at', order: 'desc' },
  },
  permissions: bookingsAccess,
  canCreate: false,
  canEdit: false,
  deleteMode: 'none',
  actions: {
    waivers: { label: 'Waivers', selection: 'one', screen: 'booking-waivers', permission: 'bookings.read' },
    cancel: {
      label: 'Cancel',
      selection: 'many',
      confirm: 'cancel the selected bookings',
      run: async ({ tx, tenant, deps, parentId, afterCommit }, rows) => {
        let cancelled = 0;
        for (const row of rows) {
          if (row.status !== 'pending' && row.status !== 'confirmed') continue;
          await tx
            .update(bookings)
            .set({ status: 'cancelled', holdExpiresAt: null })
            .where(tenant.where(bookings, eq(bookings.id, row.id)));
          // Money already taken is refunded by staff: flag it so it shows in payments.
          await tx
            .update(payments)
            .set({ status: sql`case when ${payments.status} = 'paid' then 'refund_due' else 'expired' end` })
            .where(
              tenant.where(
                payments,
                eq(payments.bookingId, row.id),
                inArray(payments.status, ['paid', 'open']),
              ),
            );
          cancelled++;
        }
        if (cancelled === 0) throw new BadRequestError('Only confirmed or unpaid bookings can be cancelled.');
        afterCommit(() => offerFreedPlaces(deps, tenant, parentId!));
        return `${cancelled} ${cancelled === 1 ? 'booking' : 'bookings'} cancelled. Freed places were offered to the waitlist.`;
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
      run: async ({ tx, tenant, deps, parentId, afterCommit }, [row], values) => {
        const booking = row!;
        if (booking.status !== 'confirmed' && booking.status !== 'pending')
          throw new BadRequestError('Only live bookings can be swapped.');
        const from = { sessionId: values.from_session_id as number, date: values.from_date as string };
        const to = { sessionId: values.to_session_id as number, date: values.to_date as string };
        const [place] = await tx
          .select()
          .from(bookingPlaces)
          .where(
            tenant.where(
              bookingPlaces,
              eq(bookingPlaces.bookingId, booking.id),
              eq(bookingPlaces.sessionId, from.sessionId),
              eq(bookingPlaces.date, from.date),
            ),
          );
        if (!place) throw new BadRequestError('The booking has no place on that session and day.');
        const ids = [...new Set([from.sessionId, to.sessionId])].sort((a, b) => a - b);
        const locked = await tx
          .select()
          .from(eventSessions)
          .where(
            tenant.where(eventSessions, eq(eventSessions.eventId, parentId!), inArray(eventSessions.id, ids)),
          )
          .orderBy(asc(eventSessions.id))
          .for('update');
        const target = locked.find((s) => s.id === to.sessionId);
        const [event] = await tx
          .select()
          .from(events)
          .where(tenant.where(events, eq(events.id, parentId!)));
        const restricted = await tx
          .select()
          .from(restrictedDates)
          .where(tenant.where(restrictedDates, inArray(restrictedDates.appliesTo, ['all', 'events'])));
        if (!target || !event || !runsOn(event, target, to.date, restricted))
          throw new BadRequestError('That session does not run on that day.');
        const taken = await takenPlaces(tx, tenant, parentId!, { exceptBookingId: booking.id });
        if (target.capacity - (taken.get(cellKey(to.sessionId, to.date)) ?? 0) < place.places) {
          throw new ConflictError(`${target.name} is full on that day.`);
        }
        try {
          await tx
            .update(bookingPlaces)
            .set({ sessionId: to.sessionId, date: to.date })
            .where(eq(bookingPlaces.id, place.id));
        } catch (error) {
          if (pgCode(error) === '23505')
            throw new BadRequestError('The booking already has that session and day.');
          throw error;
        }
        afterCommit(() => offerFreedPlaces(deps, tenant, parentId!));
        return `Moved to ${target.name} on ${to.date.slice(8, 10)}/${to.date.slice(5, 7)}/${to.date.slice(0, 4)}.`;
      },
    },
    'change-parent': {
      label: 'Change parent',
      selection: 'one',
      confirm: 'change the parent',
      fields: { parent_id: field.reference('New parent', 'parents', { required: true }) },
      run: async ({ tx, tenant }, [row], values) => {
        const parentId = values.parent_id as number;
        const [parent] = await tx
          .select()
          .from(users)
          .where(tenant.where(users, eq(users.id, parentId), eq(users.role, 'student')));
        if (!parent) throw new AppError(400, 'Please choose a valid parent.');
        await tx
          .update(bookings)
          .set({ parentId })
          .where(tenant.where(bookings, eq(bookings.id, row!.id)));
        const kids = await tx
          .select({ id: bookingChildren.childId })
          .from(bookingChildren)
          .where(tenant.where(bookingChildren, eq(bookingChildren.bookingId, row!.id)));
        if (kids.length) {
          await tx
            .update(children)
            .set({ parentId })
            .where(
              and(
                tenant.where(
                  children,
                  inArray(
                    children.id,
                    kids.map((k) => k.id),
                  ),
                ),
              ),
            );
        }
        return `The booking now belongs to ${parent.fullName}.`;
      },
    },
  },
});

export const paymentsResource = defineResource({
  name: 'payments',
  label: 'Payments',
  singular: 'Payment',
  table: payments,
  titleField: 'provider_ref',
  fields: {
    booking_id: field.reference('Booking', 'bookings', { readOnly: true }),
    provider: field.select('Provider', paymentMethodOptions, { readOnly: true }),
    provider_ref: field.text('Provider reference', { readOnly: true }),
    amount: field.money('Amount', { readOnly: true }),
    status: field.select(
      'Status',
      [
        { value: 'open', label: 'Open' },
        { value: 'paid', label: 'Paid' },
        { value: 'expired', label: 'Expired' },
        { value: 'refund_due', label: 'Refund due' },
        { value: 'refunded', label: 'Refunded' },
      ],
      { readOnly: true },
    ),
    created_at: field.datetime('Started', { readOnly: true }),
    paid_at: field.datetime('Paid', { readOnly: true }),
  },
  list: {
    columns: ['booking_id', 'provider', 'amount', 'status', 'paid_at'],
    search: ['provider_ref'],
    filters: ['status', 'provider'],
    defaultSort: { field: 'created_at', order: 'desc' },
  },
  permissions: { read: 'billing.read', write: 'billing.write' },
  canCreate: false,
  canEdit: false,
  deleteMode: 'none',
  actions: {
    'mark-refunded': {
      label: 'Mark refunded',
      selection: 'many',
      confirm: 'mark the selected payments as refunded',
      run: async ({ tx, tenant }, rows) => {
        const due = rows.filter((r) => r.status === 'refund_due').map((r) => r.id);
        if (due.length === 0)
          throw new BadRequestError('Only payments marked "Refund due" can be marked refunded.');
        await tx
          .update(payments)
          .set({ status: 'refunded' })
          .where(tenant.where(payments, inArray(payments.id, due)));
        return `${due.length} ${due.length === 1 ? 'payment' : 'payments'} marked refunded.`;
      },
    },
  },
});

export const bookingResources = [parentsResource, eventBookingsResource, paymentsResource];
