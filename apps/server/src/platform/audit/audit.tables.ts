import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../../features/accounts/accounts.tables.ts';

/**
 * What staff changed (issue 8, point 6): who, when, which row, and its values before and after.
 * Rows are only ever added.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    ...tenantKey(),
    userId: integer().references(() => users.id),
    /** The name at the time, so the entry still reads right after the user is renamed. */
    actorName: text().notNull(),
    /** 'create', 'update', 'delete', 'archive', or an action's name ('cancel', 'mark-refunded'). */
    action: text().notNull(),
    /** The resource or table changed ('bookings', 'payments', 'users'). */
    entity: text().notNull(),
    entityId: integer(),
    /** The changed fields, one per line: "status: confirmed → cancelled". */
    summary: text().notNull(),
    before: jsonb().$type<Record<string, unknown>>(),
    after: jsonb().$type<Record<string, unknown>>(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_company_at').on(t.companyId, t.at),
    index('audit_log_entity').on(t.companyId, t.entity, t.entityId),
  ],
);
