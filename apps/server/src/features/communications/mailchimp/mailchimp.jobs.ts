import type { AppDeps } from '../../../platform/deps.ts';
import { syncConnectedMailchimp } from './mailchimp.service.ts';

/** Every minute: unsubscribes made in Mailchimp are read back, then changed families are sent. */
export async function registerMailchimpJobs(deps: AppDeps): Promise<void> {
  await deps.jobs.every('mailchimp.sync', () => syncConnectedMailchimp(deps));
}
