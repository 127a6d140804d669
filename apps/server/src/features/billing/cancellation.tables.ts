import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey } from '../accounts/accounts.tables.ts';

/**
 * When a parent may cancel from their account, and what they get back (issue 15, self-service
 * cancellation): one policy per kind of sale. Cancelling at least `noticeHours` before the start
 * gives `percentBack` of what was paid for what is cancelled, as a refund to the card or as family
 * credit; later than that, the parent may still cancel and gets nothing back. No policy: the
 * account says to contact the company (nothing self-service).
 */
export const cancellationPolicies = pgTable(
  'cancellation_policies',
  {
    ...tenantKey(),
    appliesTo: text({ enum: ['events', 'parties', 'classes'] }).notNull(),
    noticeHours: integer().notNull().default(48),
    percentBack: integer().notNull().default(100),
    destination: text({ enum: ['refund', 'credit'] })
      .notNull()
      .default('credit'),
    /** Shown to the parent beside the choice, e.g. "Cancel 48 hours ahead for a full credit." */
    summary: text(),
  },
  (t) => [
    uniqueIndex('cancellation_policies_kind').on(t.companyId, t.appliesTo),
    index('cancellation_policies_company').on(t.companyId),
  ],
);
