import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../../accounts/accounts.tables.ts';

/**
 * The company's Mailchimp connection (issue 16, SPEC integrations/mailing): one row per company.
 * The API key or OAuth token is stored sealed (platform/token-box.ts); the webhook's secret (the
 * last part of its URL, which names the company) and the OAuth `state` only as SHA-256.
 */
export const mailchimpConnections = pgTable(
  'mailchimp_connections',
  {
    ...tenantKey(),
    /** 'api_key': pasted by the admin; 'oauth': Mailchimp's login gave us a token. */
    method: text({ enum: ['api_key', 'oauth'] }),
    /** The sealed API key or OAuth access token (Mailchimp's OAuth tokens do not expire). */
    credential: text(),
    /** The data centre (server prefix, e.g. us6) the account lives in: part of the API's address. */
    dataCentre: text(),
    accountName: text(),
    connectedAt: timestamp({ withTimezone: true }),
    connectedBy: integer().references(() => users.id),
    /** The audience (list) families are kept in, and Mailchimp's id of our webhook on it. */
    listId: text(),
    listName: text(),
    webhookId: text(),
    webhookSecretHash: text().unique(),
    /** The OAuth authorisation in flight. */
    oauthStateHash: text().unique(),
    oauthStartedBy: integer().references(() => users.id),
    oauthStateExpiresAt: timestamp({ withTimezone: true }),
    /** One sync at a time per company (the job and "Sync now"): a lease, not a long transaction. */
    syncLeaseUntil: timestamp({ withTimezone: true }),
    lastSyncAt: timestamp({ withTimezone: true }),
    /** Members whose unsubscribe was read back up to here (GET members?since_last_changed). */
    unsubscribesReadAt: timestamp({ withTimezone: true }),
    /** The last sync's trouble in plain words. */
    lastError: text(),
  },
  (t) => [uniqueIndex('mailchimp_connections_company').on(t.companyId)],
);

/**
 * What each family looked like when it was last sent to the audience: a fingerprint of the
 * member (address, names, status, tags) so an unchanged family is not sent again, the tags sent
 * (to remove the ones no longer true), and Mailchimp's refusal when it refused.
 */
export const mailchimpMembers = pgTable(
  'mailchimp_members',
  {
    ...tenantKey(),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    /** The address the member was sent with (lower-cased): Mailchimp knows members by it. */
    email: text().notNull(),
    status: text({ enum: ['subscribed', 'unsubscribed'] }).notNull(),
    tags: jsonb().$type<string[]>().notNull().default([]),
    fingerprint: text(),
    error: text(),
    syncedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mailchimp_members_parent').on(t.companyId, t.parentId),
    index('mailchimp_members_email').on(t.companyId, t.email),
  ],
);
