import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/audit.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { ConflictError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate, zonedInstant } from '../../platform/time.ts';
import { childrenByIds } from '../students/children.service.ts';
import { partyBookings, partySlots } from './parties.tables.ts';
import { cancelParties } from './party-changes.service.ts';

/**
 * A parent cancelling their confirmed party from their account (issue 15, self-service
 * cancellation; features/billing/cancellation.service.ts decides the money). The slot is free again.
 */

export interface BookedParty {
  partyBookingId: number;
  what: string;
  startsAt: Date;
}

/** The parent's confirmed party, or null when it is not theirs or not confirmed. */
export async function partyOfParent(
  db: Db,
  tenant: Tenant,
  parentId: number,
  partyBookingId: number,
  timeZone: string,
): Promise<BookedParty | null> {
  const [row] = await db
    .select({ party: partyBookings, slot: partySlots })
    .from(partyBookings)
    .innerJoin(partySlots, eq(partySlots.id, partyBookings.slotId))
    .where(
      tenant.byId(
        partyBookings,
        partyBookingId,
        eq(partyBookings.parentId, parentId),
        eq(partyBookings.status, 'confirmed'),
      ),
    );
  if (!row) return null;
  const [child] = await childrenByIds(db, tenant, [row.party.childId]);
  return {
    partyBookingId: row.party.id,
    what: `${child ? `${child.firstName}’s ` : ''}birthday party, ${displayDate(row.party.date)} (${row.party.code})`,
    startsAt: zonedInstant(row.party.date, row.slot.startTime.slice(0, 5), timeZone),
  };
}

/** In the cancelling transaction: cancels the party (re-checked under its lock) and audits it. */
export async function cancelPartyOfParent(tx: Db, auth: AuthContext, partyBookingId: number): Promise<void> {
  const { tenant } = auth;
  const [party] = await tx
    .select()
    .from(partyBookings)
    .where(tenant.byId(partyBookings, partyBookingId, eq(partyBookings.parentId, auth.userId)))
    .for('update');
  if (party?.status !== 'confirmed') throw new ConflictError('This party is no longer booked.');
  await cancelParties({ tx, tenant }, [party.id]);
  await recordAudit(tx, auth, {
    action: 'cancel',
    entity: 'party-bookings',
    entityId: party.id,
    before: { status: party.status },
    after: { status: 'cancelled' },
  });
}
