import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenantKey } from '../accounts/accounts.tables.ts';

/** Something a child or a coach wears (leotard, club shirt), sold or issued by size. */
export const uniformTypes = pgTable(
  'uniform_types',
  {
    ...tenantKey(),
    name: text().notNull(),
    /** Cents, GST included where the company charges it. */
    price: integer().notNull().default(0),
    /** Parents may put an order of this type on an invoice instead of paying by card. */
    invoiceAllowed: boolean().notNull().default(false),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('uniform_types_company').on(t.companyId, t.name)],
);

/** One size of a uniform type and how many are on the shelf. */
export const uniformSizes = pgTable(
  'uniform_sizes',
  {
    ...tenantKey(),
    uniformTypeId: integer()
      .notNull()
      .references(() => uniformTypes.id),
    name: text().notNull(),
    stock: integer().notNull().default(0),
  },
  (t) => [index('uniform_sizes_type').on(t.companyId, t.uniformTypeId)],
);
