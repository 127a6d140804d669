import { bigint, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from '../../features/accounts/accounts.tables.ts';
import { plans } from './installation.tables.ts';

export const subscriptionStatuses = ['trialing', 'active', 'past_due', 'cancelled'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/**
 * A company's plan with the installation (SPEC subscriptions): one row per company. Billed
 * through the installation's own Stripe account (Stripe Billing); the row mirrors Stripe's
 * subscription as its webhooks report it, the newest event by Stripe's `created` winning.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id),
    planId: integer()
      .notNull()
      .references(() => plans.id),
    status: text({ enum: subscriptionStatuses }).notNull(),
    trialEndsAt: timestamp({ withTimezone: true }),
    /** The provider that bills it ('stripe' or 'test') and its ids there. */
    provider: text().notNull(),
    customerRef: text(),
    subscriptionRef: text(),
    /** `created` (Unix seconds) of the newest provider event applied: an older event changes nothing. */
    lastEventAt: bigint({ mode: 'number' }).notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscriptions_company_unique').on(t.companyId)],
);

/**
 * Every subscription webhook event handled, by the provider's event id: a replay changes nothing.
 * The installation's own record (no company: an event may name a subscription we do not know).
 */
export const subscriptionEvents = pgTable(
  'subscription_events',
  {
    id: serial().primaryKey(),
    provider: text().notNull(),
    eventId: text().notNull(),
    type: text().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscription_events_provider_event_unique').on(t.provider, t.eventId)],
);
