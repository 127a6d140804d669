import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey } from '../accounts/accounts.tables.ts';

/**
 * The waiting room of one public enrolment opening (issue 14, enrolment day): every term of the
 * company whose `publicEnrolmentOpensAt` is `opensAt` shares it. `issued` counts the tickets given
 * out; the next ticket's number is `issued + 1` (numbers have no gaps). The admission rate and the
 * admitted window are fixed when the first ticket is taken, so positions never shift mid-queue.
 */
export const enrolmentQueues = pgTable(
  'enrolment_queues',
  {
    ...tenantKey(),
    opensAt: timestamp({ withTimezone: true }).notNull(),
    /** Tickets let in per second from `opensAt`, in number order. */
    admitPerSecond: integer().notNull(),
    /** How long an admitted ticket lets its browser check out. */
    admittedForMinutes: integer().notNull(),
    issued: integer().notNull().default(0),
  },
  (t) => [uniqueIndex('enrolment_queues_opening').on(t.companyId, t.opensAt)],
);

/**
 * A parent's place in a queue. Ticket `number` n is let in at `opensAt + (n - 1) / admitPerSecond`
 * (`admitAt`, stored so the poll is one indexed read) and may check out until `admitAt` plus the
 * queue's window. The browser keeps the secret token; only its SHA-256 is stored.
 */
export const enrolmentQueueTickets = pgTable(
  'enrolment_queue_tickets',
  {
    ...tenantKey(),
    queueId: integer()
      .notNull()
      .references(() => enrolmentQueues.id),
    number: integer().notNull(),
    tokenHash: text().notNull(),
    admitAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('enrolment_queue_tickets_token').on(t.tokenHash),
    uniqueIndex('enrolment_queue_tickets_number').on(t.queueId, t.number),
    index('enrolment_queue_tickets_company').on(t.companyId, t.queueId),
  ],
);
