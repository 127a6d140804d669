import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey } from '../../accounts/accounts.tables.ts';

/**
 * A company's reminder rule (SPEC reminder-emails): one row per kind once staff first save it; a
 * kind without a row is off. `activeFrom` is when the rule was last switched on or its N changed:
 * occasions due before it were due while the rule was off (or under another N) and are never sent
 * late. Its wording is the company's wording of its mail kind (system_emails, reminders.service.ts).
 */
export const reminderRules = pgTable(
  'reminder_rules',
  {
    ...tenantKey(),
    /** ReminderKind (packages/contracts/src/reminders.ts). */
    kind: text().notNull(),
    enabled: boolean().notNull().default(false),
    /** N hours or days (the kind's unit) before or after the occasion. */
    amount: integer().notNull(),
    activeFrom: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reminder_rules_kind').on(t.companyId, t.kind),
    index('reminder_rules_enabled').on(t.enabled),
  ],
);

/**
 * One reminder sent: the unique key (kind, occasion, recipient) is claimed with ON CONFLICT DO
 * NOTHING in the transaction that queues the mail, so each person gets a reminder once per occasion
 * across restarts and with several worker processes.
 */
export const reminderSends = pgTable(
  'reminder_sends',
  {
    ...tenantKey(),
    kind: text().notNull(),
    /** What it reminds of, e.g. `session:12`, `invoice:40:due:2026-11-30`. */
    occasionKey: text().notNull(),
    /** The address mailed, lower-cased: one reminder per person. */
    recipient: text().notNull(),
    /** The occasion in words for the page's list. */
    summary: text().notNull(),
    /** The outbox mail (platform/mail), set in the same transaction. */
    mailId: integer(),
    sentAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reminder_sends_once').on(t.companyId, t.kind, t.occasionKey, t.recipient),
    index('reminder_sends_recent').on(t.companyId, t.sentAt),
  ],
);
