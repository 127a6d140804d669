import type { IntegrationSummary, IntegrationsResponse } from '@tumble/contracts/integrations';
import type { AppDeps } from '../../platform/deps.ts';
import { paymentConnectionSummary } from '../../platform/payments/connections/connections.service.ts';
import { providerFor } from '../../platform/payments/registry.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { accountingStatusOf } from '../billing/accounting/accounting.service.ts';
import { calendarFeedsStatus } from '../calendar-feeds/feeds.service.ts';
import { mailingSummary } from '../communications/mailchimp/mailchimp.service.ts';

/**
 * The Integrations page (SPEC integrations, /admin/integrations): every outside connection of the
 * company with its state, last sync and last error in plain words, read from each connection's own
 * service; connecting and disconnecting happen on the connection's own page.
 */

const iso = (date: Date | string | null) => (date ? new Date(date).toISOString() : null);

async function accounting(deps: AppDeps, tenant: Tenant): Promise<IntegrationSummary> {
  const status = await accountingStatusOf(deps, tenant);
  const { connection } = status;
  return {
    kind: 'accounting',
    name: 'Accounting',
    description: 'Invoices, credit notes, payments and refunds sent to Xero, or downloaded as CSV.',
    state:
      connection.state === 'connected'
        ? status.last_error
          ? 'error'
          : 'connected'
        : connection.state === 'expired'
          ? 'error'
          : connection.state,
    detail:
      connection.state === 'connected' || connection.state === 'expired'
        ? `Xero: ${connection.organisation ?? 'your organisation'}`
        : connection.available
          ? null
          : 'CSV downloads only: Xero is not set up on this installation.',
    last_sync_at: status.last_sync_at,
    last_error:
      connection.state === 'expired'
        ? 'Xero no longer accepts the connection: connect again.'
        : status.last_error,
    page: '/admin/integrations/accounting',
  };
}

async function mailing(deps: AppDeps, tenant: Tenant): Promise<IntegrationSummary> {
  const summary = await mailingSummary(deps, tenant);
  return {
    kind: 'mailing',
    name: 'Mailing',
    description:
      'Families who agreed to marketing mail kept in a Mailchimp audience, tagged by class and term.',
    state: summary.connected ? (summary.lastError ? 'error' : 'connected') : 'not_connected',
    detail: summary.detail,
    last_sync_at: iso(summary.lastSyncAt),
    last_error: summary.lastError,
    page: '/admin/integrations/mailing',
  };
}

async function google(deps: AppDeps, tenant: Tenant): Promise<IntegrationSummary> {
  const feeds = await calendarFeedsStatus(deps.database.db, tenant);
  return {
    kind: 'google',
    name: 'Google calendar',
    description: 'Calendar feeds of the timetable, coaches and families that Google Calendar subscribes to.',
    state: feeds.lastError ? 'error' : feeds.enabled ? 'connected' : 'not_connected',
    detail: feeds.enabled
      ? feeds.feedCount === 1
        ? '1 calendar feed'
        : `${feeds.feedCount} calendar feeds`
      : null,
    last_sync_at: null,
    last_error: feeds.lastError,
    page: '/admin/integrations/google',
  };
}

const providerNames = { stripe: 'Stripe', square: 'Square', test: 'Test payments (no real money)' } as const;

/**
 * The company's payment provider (its default payment method): its own Stripe or Square account
 * when connected (platform/payments/connections), else the installation's account when its keys
 * are set.
 */
async function payments(deps: AppDeps, tenant: Tenant): Promise<IntegrationSummary> {
  const summary = await paymentConnectionSummary(deps, tenant);
  const { paymentMethod } = summary;
  let ready = summary.state === 'connected';
  if (summary.state === 'installation') {
    try {
      providerFor(deps, tenant, paymentMethod);
      ready = true;
    } catch {
      ready = false;
    }
  }
  const own = summary.state !== 'installation';
  return {
    kind: 'payments',
    name: 'Payments',
    description:
      'The card payment provider parents pay through at checkout, into your own account when connected.',
    state: ready ? (summary.lastError ? 'error' : 'connected') : own ? 'error' : 'not_configured',
    detail: own
      ? `${providerNames[paymentMethod]}: your account ${summary.accountId ?? ''}`.trim()
      : ready
        ? paymentMethod === 'test'
          ? providerNames.test
          : `${providerNames[paymentMethod]} (the installation's account)`
        : `${providerNames[paymentMethod]} is not set up on this installation.`,
    last_sync_at: null,
    last_error:
      summary.lastError ??
      (summary.state === 'needs_location'
        ? 'Choose the Square location payments are taken at.'
        : summary.state === 'expired'
          ? 'Square no longer accepts the connection: connect again.'
          : null),
    page: '/admin/integrations/payments',
  };
}

export async function integrationsOf(deps: AppDeps, tenant: Tenant): Promise<IntegrationsResponse> {
  return {
    integrations: await Promise.all([
      accounting(deps, tenant),
      mailing(deps, tenant),
      google(deps, tenant),
      payments(deps, tenant),
    ]),
  };
}
