import type { Db } from '../db/client.ts';
import { coupons, insurances } from '../features/billing/billing.tables.ts';
import { eventSessions, events, eventTickets } from '../features/events/events.tables.ts';
import { Tenant } from '../platform/tenancy.ts';
import { addDays } from '../platform/time.ts';

/** A Monday far enough ahead that no cutoff has passed. */
export const FUTURE_MONDAY = (() => {
  const d = new Date(Date.now() + 21 * 86_400_000);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7));
  return d.toISOString().slice(0, 10);
})();

/** A published event Monday–Friday with one session (capacity given) and a $45 ticket, plus insurance and a coupon. */
export async function createBookableEvent(
  db: Db,
  companyId: number,
  options: { capacity?: number; bookingFee?: number } = {},
) {
  const tenant = new Tenant(companyId);
  const [event] = await db
    .insert(events)
    .values(
      tenant.values({
        name: 'Holiday Camp',
        startDate: FUTURE_MONDAY,
        endDate: addDays(FUTURE_MONDAY, 4),
        published: true,
        bookingFee: options.bookingFee ?? 0,
      }),
    )
    .returning();
  const [session] = await db
    .insert(eventSessions)
    .values(
      tenant.values({
        eventId: event!.id,
        name: 'Morning',
        startDate: FUTURE_MONDAY,
        endDate: addDays(FUTURE_MONDAY, 4),
        startTime: '09:00',
        endTime: '12:00',
        capacity: options.capacity ?? 5,
      }),
    )
    .returning();
  await db
    .insert(eventTickets)
    .values(tenant.values({ eventId: event!.id, sessionId: null, name: 'Day', price: 4500 }));
  const [daily] = await db
    .insert(insurances)
    .values(tenant.values({ name: 'Daily cover', kind: 'daily' as const, price: 300 }))
    .returning();
  const [full] = await db
    .insert(insurances)
    .values(tenant.values({ name: 'Season cover', kind: 'full' as const, price: 2500 }))
    .returning();
  const [coupon] = await db
    .insert(coupons)
    .values(
      tenant.values({
        code: `TEN${event!.id}`,
        discountType: 'percent' as const,
        percentOff: 10,
        usageLimit: 100,
        perParentLimit: 10,
      }),
    )
    .returning();
  const cell = (date: string = FUTURE_MONDAY) => `${event!.id}|${session!.id}|${date}`;
  return { event: event!, session: session!, daily: daily!, full: full!, coupon: coupon!, cell };
}
