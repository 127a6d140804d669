import { asc, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { BadRequestError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { partyBookings } from './parties.tables.ts';

/**
 * Cancels the live (confirmed or unpaid) parties among the given ones, in the caller's transaction
 * (the admin action's); their slots are free again at once, since only live parties hold a slot.
 */
export async function cancelParties(ctx: { tx: Db; tenant: Tenant }, ids: number[]): Promise<string> {
  const { tx, tenant } = ctx;
  const rows = await tx
    .select()
    .from(partyBookings)
    .where(tenant.where(partyBookings, inArray(partyBookings.id, ids)))
    .orderBy(asc(partyBookings.id))
    .for('update');
  const live = rows.filter((r) => r.status === 'confirmed' || r.status === 'pending').map((r) => r.id);
  if (live.length === 0) throw new BadRequestError('Only confirmed or unpaid parties can be cancelled.');
  await tx
    .update(partyBookings)
    .set({ status: 'cancelled', holdExpiresAt: null })
    .where(tenant.where(partyBookings, inArray(partyBookings.id, live)));
  return `${live.length} ${live.length === 1 ? 'party' : 'parties'} cancelled. The slots are free again.`;
}
