import { date, index, integer, pgTable, text, time, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKey, users } from '../accounts/accounts.tables.ts';
import { uniformTypes } from '../uniforms/uniforms.tables.ts';

/**
 * A staff user who coaches (role companycoach, or staff who also coach), with the Working With
 * Children Check that decides whether they may be rostered.
 */
export const coaches = pgTable(
  'coaches',
  {
    ...tenantKey(),
    userId: integer()
      .notNull()
      .references(() => users.id),
    /**
     * The user's full name when the profile was last saved: what references to a coach show
     * (term classes, cover) without reading the users table.
     */
    name: text().notNull().default(''),
    phone: text(),
    qualifications: text(),
    wwccNumber: text(),
    /** When staff checked the number with the state's screening agency. */
    wwccVerifiedOn: date(),
    wwccOutcome: text({ enum: ['cleared', 'pending', 'barred'] }),
    wwccExpiresOn: date(),
    archivedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('coaches_company_user').on(t.companyId, t.userId)],
);

/** Days a coach is away: their sessions inside the range need cover. */
export const coachLeaves = pgTable(
  'coach_leaves',
  {
    ...tenantKey(),
    coachId: integer()
      .notNull()
      .references(() => coaches.id),
    startDate: date().notNull(),
    endDate: date().notNull(),
    reason: text(),
  },
  (t) => [index('coach_leaves_coach').on(t.companyId, t.coachId, t.startDate)],
);

/** A weekly slot a coach offers for private lessons (parents book them with the enrolment work). */
export const coachPrivateSlots = pgTable(
  'coach_private_slots',
  {
    ...tenantKey(),
    coachId: integer()
      .notNull()
      .references(() => coaches.id),
    /** ISO weekday: 1 Monday … 7 Sunday. */
    weekday: integer().notNull(),
    startTime: time().notNull(),
    durationMinutes: integer().notNull(),
    /** 1 to 3 children per lesson. */
    maxChildren: integer().notNull().default(1),
    price: integer().notNull(),
  },
  (t) => [index('coach_private_slots_coach').on(t.companyId, t.coachId)],
);

/** A uniform item issued to a coach. */
export const coachUniforms = pgTable(
  'coach_uniforms',
  {
    ...tenantKey(),
    coachId: integer()
      .notNull()
      .references(() => coaches.id),
    uniformTypeId: integer()
      .notNull()
      .references(() => uniformTypes.id),
    size: text(),
    issuedOn: date().notNull(),
  },
  (t) => [index('coach_uniforms_coach').on(t.companyId, t.coachId)],
);
