import type { Db } from '../db/client.ts';
import { coachPrivateSlots } from '../features/coaches/coaches.tables.ts';
import { privateLessonBookings, privateLessonChildren } from '../features/coaches/private-lessons.tables.ts';
import { randomToken } from '../platform/secrets.ts';
import { isoWeekday } from '../platform/time.ts';

/** A coach's weekly private slot running on the weekday of `date` (YYYY-MM-DD). */
export async function createPrivateSlot(
  db: Db,
  companyId: number,
  options: { coachId: number; date: string; startTime?: string; maxChildren?: number; price?: number },
) {
  const [slot] = await db
    .insert(coachPrivateSlots)
    .values({
      companyId,
      coachId: options.coachId,
      weekday: Number(isoWeekday(options.date)),
      startTime: options.startTime ?? '16:00',
      durationMinutes: 30,
      maxChildren: options.maxChildren ?? 2,
      price: options.price ?? 6000,
    })
    .returning();
  return slot!;
}

/** A confirmed (paid) private lesson, as checkout and settlement leave it. */
export async function createConfirmedLesson(
  db: Db,
  companyId: number,
  options: {
    parentId: number;
    slot: typeof coachPrivateSlots.$inferSelect;
    date: string;
    childIds: number[];
  },
) {
  const [booking] = await db
    .insert(privateLessonBookings)
    .values({
      companyId,
      parentId: options.parentId,
      slotId: options.slot.id,
      coachId: options.slot.coachId,
      date: options.date,
      startTime: options.slot.startTime,
      durationMinutes: options.slot.durationMinutes,
      reference: randomToken(12),
      code: `PL-${randomToken(4).slice(0, 5).toUpperCase()}`,
      status: 'confirmed',
      price: options.slot.price,
      amountDue: options.slot.price,
      provider: 'test',
      confirmedAt: new Date(),
    })
    .returning();
  await db
    .insert(privateLessonChildren)
    .values(options.childIds.map((childId) => ({ companyId, bookingId: booking!.id, childId })));
  return booking!;
}
