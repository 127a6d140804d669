import { registerAccountingJobs } from './features/billing/accounting/accounting.jobs.ts';
import { registerAutopayJobs } from './features/billing/autopay.jobs.ts';
import { registerLedgerJobs } from './features/billing/ledger.jobs.ts';
import { registerBookingJobs } from './features/bookings/bookings.jobs.ts';
import { registerHoldJobs } from './features/classes/holds.jobs.ts';
import { registerMailchimpJobs } from './features/communications/mailchimp/mailchimp.jobs.ts';
import { registerMassMailJobs } from './features/communications/mass-mail.jobs.ts';
import { registerReminderJobs } from './features/communications/reminders/reminders.jobs.ts';
import type { AppDeps } from './platform/deps.ts';

/**
 * Every feature's periodic jobs, registered the same way by the server (`npm start`, workers in
 * the server) and by `npm run worker`. A feature with a job adds one line here.
 */
export async function registerFeatureJobs(deps: AppDeps): Promise<void> {
  await registerBookingJobs(deps);
  await registerHoldJobs(deps);
  await registerAccountingJobs(deps);
  await registerAutopayJobs(deps);
  await registerLedgerJobs(deps);
  await registerMassMailJobs(deps);
  await registerReminderJobs(deps);
  await registerMailchimpJobs(deps);
}
