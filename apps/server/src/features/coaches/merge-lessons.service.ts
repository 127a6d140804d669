import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { type MovedCounts, moveRows } from '../students/merge-rows.ts';
import { privateLessonBookings, privateLessonChildren } from './private-lessons.tables.ts';

/** A family merge: the duplicate parent's private lesson bookings. */
export async function moveFamilyRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  return { private_lesson_bookings: await moveRows(tx, tenant, privateLessonBookings, 'parentId', from, to) };
}

/** A child merge: private lessons of the duplicate child (a lesson naming both keeps one). */
export async function moveChildRows(tx: Db, tenant: Tenant, from: number, to: number): Promise<MovedCounts> {
  const kept = tx
    .select({ bookingId: privateLessonChildren.bookingId })
    .from(privateLessonChildren)
    .where(tenant.where(privateLessonChildren, eq(privateLessonChildren.childId, to)));
  await tx
    .delete(privateLessonChildren)
    .where(
      tenant.where(
        privateLessonChildren,
        eq(privateLessonChildren.childId, from),
        inArray(privateLessonChildren.bookingId, kept),
      ),
    );
  return { private_lesson_children: await moveRows(tx, tenant, privateLessonChildren, 'childId', from, to) };
}
