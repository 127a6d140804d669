import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey } from '../../features/accounts/accounts.tables.ts';

/**
 * Every mail is first written here, in the same transaction as the change that causes it, then
 * sent by the `mail.send` job. Without SMTP_URL it stays here with status 'kept' and staff read it
 * in the admin area; the same job also writes it as an .eml file under DATA_DIR/mail (`file`), so
 * mail nobody can read in an outbox (a new company's activation) is still readable (issue 21 point 15).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    ...tenantKey(),
    kind: text().notNull(),
    toAddress: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text().notNull(),
    data: jsonb().$type<Record<string, string>>().notNull().default({}),
    status: text({ enum: ['pending', 'sent', 'kept', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer().notNull().default(0),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
    /** Without SMTP: the .eml file under DATA_DIR/mail this mail was written to. */
    file: text(),
    /**
     * The company's sender name and reply-to (settings/emails) when the mail was written, so
     * delivery needs no settings lookup; null: MAIL_FROM as configured, no Reply-To.
     */
    fromName: text(),
    replyTo: text(),
  },
  (t) => [index('mail_outbox_company').on(t.companyId, t.createdAt)],
);

/** A company's own wording for a kind of system mail; without one the default template is used. */
export const systemEmails = pgTable(
  'system_emails',
  {
    ...tenantKey(),
    kind: text().notNull(),
    subject: text().notNull(),
    body: text().notNull(),
  },
  (t) => [uniqueIndex('system_emails_company_kind').on(t.companyId, t.kind)],
);

/**
 * A company's email settings (settings/emails), applied to every mail it sends: the sender name
 * (the address is always MAIL_FROM's), reply-to, a plain-text footer and a logo at the top of the
 * HTML ('company' = the My Company logo, 'own' = `logoFile`, uploaded here). No row: the defaults.
 */
export const emailSettings = pgTable(
  'email_settings',
  {
    ...tenantKey(),
    fromName: text().notNull().default(''),
    replyTo: text().notNull().default(''),
    footer: text().notNull().default(''),
    logo: text({ enum: ['none', 'company', 'own'] })
      .notNull()
      .default('none'),
    /** A public file key (platform/files.ts) of the uploaded logo. */
    logoFile: text(),
  },
  (t) => [uniqueIndex('email_settings_company').on(t.companyId)],
);
