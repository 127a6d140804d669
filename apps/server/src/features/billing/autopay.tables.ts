import { date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { invoiceInstalments, invoices } from './ledger.tables.ts';

/**
 * Card setups a parent started (saved-card.service): a provider's notice names only its session,
 * so this says which company and family the card it saves belongs to.
 */
export const cardSetups = pgTable(
  'card_setups',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    provider: text({ enum: ['stripe', 'square', 'test'] }).notNull(),
    sessionId: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When its card was stored on the family's account (a second notice changes nothing). */
    savedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('card_setups_session').on(t.provider, t.sessionId)],
);

/**
 * One automatic charge of a saved card (autopay.service): an instalment, or an invoice without
 * instalments, and which attempt it is. The row is committed before the provider is called and its
 * `idempotencyKey` is unique and sent to the provider, so a second worker or a restart that tries
 * the same attempt again reuses the key and the provider charges once.
 */
export const autopayAttempts = pgTable(
  'autopay_attempts',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id),
    instalmentId: integer().references(() => invoiceInstalments.id),
    /** 1 on the due date, then 2, 3 and 4 on days 3, 5 and 8 after it (5+ after a new card). */
    attempt: integer().notNull(),
    /** `autopay:<company>:instalment:<id>:<attempt>` or `…:invoice:<id>:<attempt>`. */
    idempotencyKey: text().notNull(),
    amount: integer().notNull(),
    provider: text({ enum: ['stripe', 'square', 'test'] }).notNull(),
    /**
     * The saved card the attempt charges, kept so a crashed attempt is finished with the same
     * request (a provider refuses an idempotency key sent again with other parameters), even if
     * the family replaced or removed the card meanwhile. Null only on rows from before it was kept.
     */
    customerRef: text(),
    cardRef: text(),
    status: text({ enum: ['pending', 'paid', 'failed'] })
      .notNull()
      .default('pending'),
    /** The job's clock when it claimed the attempt: an old pending claim is a crashed run's. */
    claimedAt: timestamp({ withTimezone: true }).notNull(),
    attemptedOn: date().notNull(),
    paymentRef: text(),
    paymentId: integer(),
    failureReason: text(),
    /** After a failure: when the next attempt is due (null: no more tries until a new card). */
    nextAttemptOn: date(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('autopay_attempts_key').on(t.companyId, t.idempotencyKey),
    index('autopay_attempts_invoice').on(t.companyId, t.invoiceId, t.attempt),
  ],
);
