import { date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../../accounts/accounts.tables.ts';

/**
 * The accounting export (issue 15, SPEC integrations/accounting): one row per company with its
 * Xero connection and the account codes and tax types the ledger is mapped to. Tokens are stored
 * encrypted (platform/token-box.ts); the OAuth `state` only as its SHA-256.
 */
export const accountingSettings = pgTable(
  'accounting_settings',
  {
    ...tenantKey(),
    /** Xero account codes: sales, GST-free sales, where card and other payments land, refunds paid from. */
    salesAccountCode: text().notNull().default('200'),
    gstFreeSalesAccountCode: text().notNull().default('200'),
    cardAccountCode: text().notNull().default('090'),
    cashAccountCode: text().notNull().default('090'),
    refundAccountCode: text().notNull().default('090'),
    /** Xero tax types (codes): GST on Income, GST Free Income, BAS Excluded (a supplier not registered). */
    gstTaxType: text().notNull().default('OUTPUT'),
    gstFreeTaxType: text().notNull().default('EXEMPTOUTPUT'),
    noGstTaxType: text().notNull().default('BASEXCLUDED'),
    /** Only what was issued or paid on or after this date is pushed (older years are already in Xero). */
    syncFrom: date(),
    /** The OAuth authorisation in flight: SHA-256 of its `state`, who started it, until when. */
    oauthStateHash: text(),
    oauthStartedBy: integer().references(() => users.id),
    oauthStateExpiresAt: timestamp({ withTimezone: true }),
    /** The Xero organisation (GET /connections) and its tokens, encrypted. */
    xeroTenantId: text(),
    xeroTenantName: text(),
    xeroConnectionId: text(),
    accessToken: text(),
    refreshToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    connectedAt: timestamp({ withTimezone: true }),
    connectedBy: integer().references(() => users.id),
    /** One sync at a time per company (the job and "Sync now"): a lease, not a long transaction. */
    syncLeaseUntil: timestamp({ withTimezone: true }),
    lastSyncAt: timestamp({ withTimezone: true }),
    /** The last sync's trouble in plain words (the connection's, or "3 items could not be sent"). */
    lastError: text(),
  },
  (t) => [uniqueIndex('accounting_settings_company').on(t.companyId)],
);

/**
 * What reached Xero: a local record (kind + id) and Xero's id for it, so a sync sends each thing
 * once. `sent` says what was last sent (e.g. AUTHORISED, then VOIDED); `detail` keeps what later
 * items need (a credit note's unallocated credit, the credit note a refund was paid from).
 */
export const accountingSyncItems = pgTable(
  'accounting_sync_items',
  {
    ...tenantKey(),
    kind: text({ enum: ['contact', 'invoice', 'credit_note', 'payment', 'refund'] }).notNull(),
    /** users.id (contact), invoices.id, credit_notes.id, payment_allocations.id (payment), refunds.id. */
    localId: integer().notNull(),
    xeroId: text(),
    status: text({ enum: ['synced', 'failed'] }).notNull(),
    sent: text(),
    detail: jsonb().$type<{ unallocated?: number; creditNoteId?: string }>(),
    error: text(),
    attempts: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounting_sync_items_local').on(t.companyId, t.kind, t.localId),
    index('accounting_sync_items_status').on(t.companyId, t.status),
  ],
);
