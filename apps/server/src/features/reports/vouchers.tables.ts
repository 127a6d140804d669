import { integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';

/**
 * Where the provider's Service NSW claim of a redeemed voucher stands (the vouchers report):
 * `claimed` once staff have claimed it, `reimbursed` when Service NSW has paid. No row: not claimed.
 * One row per voucher code (an NSW voucher is used once).
 */
export const voucherClaims = pgTable(
  'voucher_claims',
  {
    ...tenantKey(),
    code: text().notNull(),
    status: text({ enum: ['claimed', 'reimbursed'] }).notNull(),
    claimedAt: timestamp({ withTimezone: true }).notNull(),
    reimbursedAt: timestamp({ withTimezone: true }),
    updatedBy: integer()
      .notNull()
      .references(() => users.id),
  },
  (t) => [uniqueIndex('voucher_claims_company_code').on(t.companyId, t.code)],
);
