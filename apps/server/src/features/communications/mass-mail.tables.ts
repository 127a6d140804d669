import type { AudienceFilter } from '@tumble/contracts/communications';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { mailOutbox } from '../../platform/mail/mail.tables.ts';
import { tenantKey, users } from '../accounts/accounts.tables.ts';

/**
 * A mail staff wrote to many families (SPEC communications). `scheduled` until its time comes
 * (send now is scheduled for now); the mass-mail job then picks the families (`sending`), writes
 * each family's mail to the outbox in batches and ends `sent`. `subject` and `body` keep their
 * placeholders ({parent_first_name} …); each family's copy is rendered when it is written.
 */
export const massMails = pgTable(
  'mass_mails',
  {
    ...tenantKey(),
    subject: text().notNull(),
    /** Sanitised HTML (platform/html.ts) with placeholders. */
    body: text().notNull(),
    /** Marketing honours unsubscribes and carries the unsubscribe link; off for service notices. */
    marketing: boolean().notNull().default(true),
    filter: jsonb().$type<AudienceFilter>().notNull(),
    status: text({ enum: ['draft', 'scheduled', 'sending', 'sent', 'cancelled'] })
      .notNull()
      .default('draft'),
    sendAt: timestamp({ withTimezone: true }),
    /** The attached file (platform/files.ts key), its name as uploaded and its type. */
    attachmentKey: text(),
    attachmentName: text(),
    attachmentType: text(),
    createdById: integer().references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('mass_mails_company').on(t.companyId, t.createdAt),
    index('mass_mails_due').on(t.status, t.sendAt),
  ],
);

/**
 * One family a mass mail goes to (never one per child). `outboxId` is set in the same transaction
 * that writes the family's mail to the outbox, so a restart never writes a second one; the
 * delivery status is the outbox row's. `skipped`: the family unsubscribed before its turn.
 */
export const massMailRecipients = pgTable(
  'mass_mail_recipients',
  {
    ...tenantKey(),
    massMailId: integer()
      .notNull()
      .references(() => massMails.id),
    parentId: integer()
      .notNull()
      .references(() => users.id),
    outboxId: integer().references(() => mailOutbox.id),
    skipped: boolean().notNull().default(false),
  },
  (t) => [
    uniqueIndex('mass_mail_recipients_family').on(t.massMailId, t.parentId),
    index('mass_mail_recipients_pending').on(t.companyId, t.massMailId, t.outboxId),
  ],
);
