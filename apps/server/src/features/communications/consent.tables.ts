import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';

/**
 * A family's answer about marketing mail (issue 16). 'inferred' (or no row) means consent is
 * inferred from the existing customer relationship (Spam Act 2003): marketing mail may go to them,
 * with an unsubscribe link, until they withdraw; a row is made 'inferred' to hold the link's token
 * before any answer. 'granted' is express consent (a parent ticked the box);
 * 'withdrawn' is an unsubscribe, from our link, the parent's profile, staff or Mailchimp.
 * Transactional mail (invoices, confirmations, cancellations) never reads this table.
 */
export const marketingConsents = pgTable(
  'marketing_consents',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    status: text({ enum: ['inferred', 'granted', 'withdrawn'] }).notNull(),
    /** Who changed it last (ConsentSource in consent.service.ts). */
    source: text().notNull(),
    changedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Random token of the family's unsubscribe link; one per family, made on first marketing mail. */
    unsubscribeToken: text().notNull().unique(),
  },
  (t) => [
    uniqueIndex('marketing_consents_parent').on(t.companyId, t.parentId),
    index('marketing_consents_status').on(t.companyId, t.status),
  ],
);
