import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';

/** The company's saved column mapping (one per company): the next file from the same system maps itself. */
export const importMappings = pgTable(
  'import_mappings',
  {
    ...tenantKey(),
    /** Field (contracts/import.ts importFields) → the file's column header. */
    mapping: jsonb().$type<Record<string, string>>().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('import_mappings_company').on(t.companyId)],
);

/**
 * One import of a file. The import writes in one transaction; this row is written outside it, as it
 * goes, so the page can poll the progress and a rolled-back import still says why.
 */
export const importRuns = pgTable(
  'import_runs',
  {
    ...tenantKey(),
    status: text({ enum: ['running', 'done', 'failed'] })
      .notNull()
      .default('running'),
    totalRows: integer().notNull(),
    doneRows: integer().notNull().default(0),
    families: integer().notNull().default(0),
    children: integer().notNull().default(0),
    enrolments: integer().notNull().default(0),
    invitations: integer().notNull().default(0),
    message: text(),
    createdBy: integer()
      .notNull()
      .references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('import_runs_company').on(t.companyId, t.createdAt)],
);
