import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A tenant: one activity provider. Public pages name it by `authhash`. */
export const companies = pgTable('companies', {
  id: serial().primaryKey(),
  name: text().notNull(),
  /** Storage key of the logo (see platform/files.ts), or null. */
  logoFile: text(),
  timeZone: text().notNull().default('Australia/Sydney'),
  /** ISO 4217, two-decimal currencies only (money is kept in cents); SPEC.md point 9: USD unless set. */
  currency: text().notNull().default('USD'),
  paymentMethod: text({ enum: ['stripe', 'square', 'test'] })
    .notNull()
    .default('test'),
  /** Unguessable public token (the demo company's is the documented 'demo'). */
  authhash: text().notNull().unique(),
  /**
   * pending: signed up and waiting for an installation operator's approval; declined: refused at
   * approval; suspended: switched off by an operator (public pages say bookings are closed, staff
   * cannot sign in, nothing is deleted). Only 'active' companies sign in or take bookings.
   */
  status: text({ enum: ['pending', 'active', 'suspended', 'declined'] })
    .notNull()
    .default('active'),
  /**
   * Modules (platform/modules.ts) this company has switched off: their routes answer 404 and their
   * pages leave the navigation. Empty means everything its plan includes is on. Kept on the company
   * row so the session query that already reads the company needs no second query.
   */
  disabledModules: text().array().notNull().default(sql`'{}'::text[]`),
  /**
   * customer: an activity provider. installation: the one row of the installation itself, whose
   * users are its operators (decision 018); it has no public pages and is never a customer.
   */
  kind: text({ enum: ['customer', 'installation'] })
    .notNull()
    .default('customer'),
  /** Why an operator suspended or declined the company, shown to its staff at sign-in. */
  statusReason: text(),
  email: text(),
  phone: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The first two columns of every tenant table: its id and the company it belongs to. Spread it
 * first, so every tenant row leads with `company_id` (ARCHITECTURE.md "Tenancy and roles"):
 *
 * ```ts
 * export const venues = pgTable('venues', { ...tenantKey(), name: text().notNull() });
 * ```
 */
export const tenantKey = () => ({
  id: serial().primaryKey(),
  companyId: integer()
    .notNull()
    .references(() => companies.id),
});

/** Staff (companyadmin, companystaff, companycoach) and parents (student) of one company. */
export const users = pgTable(
  'users',
  {
    ...tenantKey(),
    /** operator: a user of the installation's own company (decision 018), above every company. */
    role: text({ enum: ['companyadmin', 'companystaff', 'companycoach', 'student', 'operator'] }).notNull(),
    /** Stored lower-cased. */
    email: text().notNull(),
    fullName: text().notNull(),
    phone: text(),
    passwordHash: text().notNull(),
    status: text({ enum: ['pending', 'active', 'disabled'] })
      .notNull()
      .default('pending'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // A parent account belongs to one company; the same email may be a parent at several.
    uniqueIndex('users_company_email').on(t.companyId, t.email),
    // Staff sign in at /admin/login without naming a company, so a staff email is unique everywhere.
    uniqueIndex('users_staff_email').on(t.email).where(sql`role <> 'student'`),
    index('users_company_role').on(t.companyId, t.role),
    // The staff Students screen searches parents by name, email and phone (ILIKE '%…%'; pg_trgm).
    index('users_full_name_trgm').using('gin', t.fullName.op('gin_trgm_ops')),
    index('users_email_trgm').using('gin', t.email.op('gin_trgm_ops')),
    index('users_phone_trgm').using('gin', t.phone.op('gin_trgm_ops')),
  ],
);

/** Sign-in sessions. Only a SHA-256 of the token is stored. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    ...tenantKey(),
    userId: integer()
      .notNull()
      .references(() => users.id),
    tokenHash: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    /**
     * An operator's support access (decision 018): while `supportUntil` is ahead, the session acts
     * in this company as its administrator, for the recorded reason.
     */
    supportCompanyId: integer().references(() => companies.id),
    supportReason: text(),
    supportUntil: timestamp({ withTimezone: true }),
  },
  (t) => [index('auth_sessions_user').on(t.userId)],
);

/** Single-use activation and password-reset links. Only a SHA-256 of the link's hashcode is stored. */
export const accountLinks = pgTable(
  'account_links',
  {
    ...tenantKey(),
    userId: integer()
      .notNull()
      .references(() => users.id),
    kind: text({ enum: ['activation', 'reset'] }).notNull(),
    tokenHash: text().notNull().unique(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_links_user').on(t.userId, t.kind)],
);

/**
 * Failed sign-in and reset attempts per key ('account:<email>', 'ip:<address>') in a window. Kept in
 * PostgreSQL, not process memory, so the limit holds across several server processes.
 */
export const authThrottle = pgTable('auth_throttle', {
  key: text().primaryKey(),
  failures: integer().notNull().default(0),
  windowStartedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
