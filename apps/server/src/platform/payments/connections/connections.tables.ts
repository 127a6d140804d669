import { integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../../../features/accounts/accounts.tables.ts';

/**
 * A company's own payment account (issue 18): one row per company and provider. Stripe Connect
 * (Standard account, OAuth) keeps only the connected account's id: the installation's platform key
 * acts for it with the `Stripe-Account` header. Square OAuth keeps the merchant's access and
 * refresh tokens, sealed (platform/token-box.ts), and the location payments are taken at. The OAuth
 * `state` in flight is stored only as its SHA-256, with an expiry.
 */
export const paymentConnections = pgTable(
  'payment_connections',
  {
    ...tenantKey(),
    provider: text({ enum: ['stripe', 'square'] }).notNull(),
    oauthStateHash: text(),
    oauthStartedBy: integer().references(() => users.id),
    oauthStateExpiresAt: timestamp({ withTimezone: true }),
    /** Stripe's `stripe_user_id` (acct_…) or Square's `merchant_id`; null while not connected. */
    accountId: text(),
    /** Square only, sealed. */
    accessToken: text(),
    refreshToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    locationId: text(),
    locationName: text(),
    connectedAt: timestamp({ withTimezone: true }),
    connectedBy: integer().references(() => users.id),
    /** The connection's trouble in plain words (a refused refresh, a failed disconnect). */
    lastError: text(),
  },
  (t) => [
    uniqueIndex('payment_connections_company_provider').on(t.companyId, t.provider),
    // One account serves one company: its webhooks name the account, and the account names the company.
    uniqueIndex('payment_connections_account').on(t.provider, t.accountId),
  ],
);
