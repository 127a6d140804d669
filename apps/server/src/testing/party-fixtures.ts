import type { Db } from '../db/client.ts';
import { birthdayPricing, partySlots } from '../features/parties/parties.tables.ts';
import { restrictedDates } from '../features/venues/venues.tables.ts';
import { Tenant } from '../platform/tenancy.ts';
import { addDays } from '../platform/time.ts';

/** Two slots every day (20 and 12 guests), pricing with a $100 deposit, and a restricted date 10 days ahead. */
export async function createPartySetup(db: Db, companyId: number) {
  const tenant = new Tenant(companyId);
  const all = ['1', '2', '3', '4', '5', '6', '7'];
  const [morning, afternoon] = await db
    .insert(partySlots)
    .values([
      tenant.values({
        name: 'Morning',
        startTime: '10:00',
        durationMinutes: 120,
        daysOfWeek: all,
        capacity: 20,
      }),
      tenant.values({
        name: 'Afternoon',
        startTime: '14:00',
        durationMinutes: 120,
        daysOfWeek: all,
        capacity: 12,
      }),
    ])
    .returning();
  await db
    .insert(birthdayPricing)
    .values(
      tenant.values({ basePrice: 39500, includedGuests: 10, pricePerExtraGuest: 2500, deposit: 10000 }),
    );
  const restricted = addDays(new Date().toISOString().slice(0, 10), 10);
  await db
    .insert(restrictedDates)
    .values(tenant.values({ date: restricted, reason: 'Closed', appliesTo: 'parties' as const }));
  return { morning: morning!, afternoon: afternoon!, restricted };
}
