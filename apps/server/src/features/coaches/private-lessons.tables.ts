import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, text, time, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { children } from '../students/students.tables.ts';
import { coaches, coachPrivateSlots } from './coaches.tables.ts';

/**
 * A private lesson: one of a coach's weekly private-session slots on one date, booked by a parent
 * for 1 to the slot's `maxChildren` children (the pipeline's kind `private_lesson`, code `PL-…`).
 * `pending` holds the slot-date until `holdExpiresAt` while the card payment is open.
 */
export const privateLessonBookings = pgTable(
  'private_lesson_bookings',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    slotId: integer()
      .notNull()
      .references(() => coachPrivateSlots.id),
    /** The slot's coach, time and length when booked: the lesson keeps them if the slot changes. */
    coachId: integer()
      .notNull()
      .references(() => coaches.id),
    date: date().notNull(),
    startTime: time().notNull(),
    durationMinutes: integer().notNull(),
    reference: text().notNull().unique(),
    /** Short human reference (`PL-7F3K2`); `reference` stays the link secret. */
    code: text().notNull(),
    status: text({ enum: ['pending', 'confirmed', 'cancelled', 'expired', 'refund_due'] })
      .notNull()
      .default('pending'),
    /** Cents: the slot's price, the coupon's discount, the card surcharge, and what the card is charged. */
    price: integer().notNull(),
    discount: integer().notNull().default(0),
    surcharge: integer().notNull().default(0),
    amountDue: integer().notNull(),
    couponCode: text(),
    provider: text({ enum: ['stripe', 'square', 'test'] }).notNull(),
    holdExpiresAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp({ withTimezone: true }),
    cancelledAt: timestamp({ withTimezone: true }),
    cancelledBy: text({ enum: ['parent', 'staff'] }),
    /** What the paid amount became on cancelling: the billing work makes refunds and credits real. */
    refundChoice: text({ enum: ['refund', 'credit', 'none'] }),
  },
  (t) => [
    // One live booking per slot and date. Lapsed pending holds are expired under the slot's lock
    // before a new booking is written (private-lesson-sale.ts), so this index never blocks a free
    // lesson; it is the backstop behind that lock.
    uniqueIndex('private_lesson_bookings_live')
      .on(t.companyId, t.slotId, t.date)
      .where(sql`status in ('pending', 'confirmed')`),
    uniqueIndex('private_lesson_bookings_company_code').on(t.companyId, t.code),
    index('private_lesson_bookings_parent').on(t.companyId, t.parentId),
    index('private_lesson_bookings_coach_date').on(t.companyId, t.coachId, t.date),
  ],
);

/** The children a private lesson is for. */
export const privateLessonChildren = pgTable(
  'private_lesson_children',
  {
    ...tenantKey(),
    bookingId: integer()
      .notNull()
      .references(() => privateLessonBookings.id),
    childId: integer()
      .notNull()
      .references(() => children.id),
  },
  (t) => [uniqueIndex('private_lesson_children_booking_child').on(t.bookingId, t.childId)],
);

/**
 * A company's cancellation policy for private lessons (defaults when no row: 24 hours, credit).
 * A parent may cancel online until `cancelHoursBefore` hours before the lesson; what they paid
 * then becomes `cancelOutcome`.
 */
export const privateLessonSettings = pgTable(
  'private_lesson_settings',
  {
    ...tenantKey(),
    cancelHoursBefore: integer().notNull().default(24),
    cancelOutcome: text({ enum: ['refund', 'credit', 'none'] })
      .notNull()
      .default('credit'),
  },
  (t) => [uniqueIndex('private_lesson_settings_company').on(t.companyId)],
);
