import { asc, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { partyBookings, partySlots } from './parties.tables.ts';

/** The confirmed parties from `from` to `to` (the timetable's week), each with its slot's time and room. */
export function partiesBetween(db: Db, tenant: Tenant, from: string, to: string) {
  return db
    .select({
      id: partyBookings.id,
      code: partyBookings.code,
      date: partyBookings.date,
      guests: partyBookings.guests,
      slotName: partySlots.name,
      startTime: partySlots.startTime,
      durationMinutes: partySlots.durationMinutes,
      roomId: partySlots.roomId,
    })
    .from(partyBookings)
    .innerJoin(partySlots, eq(partySlots.id, partyBookings.slotId))
    .where(
      tenant.where(
        partyBookings,
        eq(partyBookings.status, 'confirmed'),
        gte(partyBookings.date, from),
        lte(partyBookings.date, to),
      ),
    )
    .orderBy(asc(partyBookings.date), asc(partySlots.startTime));
}
