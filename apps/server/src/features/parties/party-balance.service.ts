import { paymentMessages } from '@tumble/contracts/payments';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { formatMoney } from '../../platform/money.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { partyBookings } from './parties.tables.ts';

/**
 * A party's balance (issue 15): the deposit is paid at booking, the rest is collected by staff and
 * recorded as a payment (billing's record-payment.service) that lowers `party_bookings.balance`.
 */

export interface PartyBalance {
  id: number;
  parentId: number;
  code: string;
  date: string;
  status: (typeof partyBookings.$inferSelect)['status'];
  total: number;
  balance: number;
}

const columns = {
  id: partyBookings.id,
  parentId: partyBookings.parentId,
  code: partyBookings.code,
  date: partyBookings.date,
  status: partyBookings.status,
  total: partyBookings.total,
  balance: partyBookings.balance,
};

/** One party booking's balance; null when it is not the tenant's. */
export async function partyBalanceOf(
  db: Db,
  tenant: Tenant,
  partyBookingId: number,
): Promise<PartyBalance | null> {
  const [party] = await db
    .select(columns)
    .from(partyBookings)
    .where(tenant.byId(partyBookings, partyBookingId));
  return party ?? null;
}

/** A family's confirmed parties with a balance still to collect, soonest first. */
export function partiesOwing(db: Db, tenant: Tenant, parentId: number): Promise<PartyBalance[]> {
  return db
    .select(columns)
    .from(partyBookings)
    .where(
      tenant.where(
        partyBookings,
        and(
          eq(partyBookings.parentId, parentId),
          eq(partyBookings.status, 'confirmed'),
          gt(partyBookings.balance, 0),
        ),
      ),
    )
    .orderBy(asc(partyBookings.date), asc(partyBookings.id));
}

/**
 * In the payment's transaction: takes `amount` off a confirmed party's balance, under the party
 * booking's row lock, so two staff recording at once never take it below nothing (the second waits
 * and sees the lowered balance). 404 for another company's party; 400 for more than the balance.
 */
export async function payPartyBalance(
  tx: Db,
  tenant: Tenant,
  partyBookingId: number,
  amount: number,
): Promise<PartyBalance> {
  const [party] = await tx
    .select(columns)
    .from(partyBookings)
    .where(tenant.byId(partyBookings, partyBookingId))
    .for('update');
  if (!party) throw new NotFoundError();
  if (party.status !== 'confirmed' || party.balance <= 0)
    throw new BadRequestError(paymentMessages.partyPaid);
  if (!Number.isInteger(amount) || amount <= 0) throw new BadRequestError(paymentMessages.amount);
  if (amount > party.balance) {
    const { currency } = await companyOf(tx, tenant);
    throw new BadRequestError(paymentMessages.partyMore(formatMoney(party.balance, currency)));
  }
  const [paid] = await tx
    .update(partyBookings)
    .set({ balance: party.balance - amount })
    .where(tenant.byId(partyBookings, partyBookingId))
    .returning(columns);
  return paid!;
}
