import type { AppDeps } from '../../platform/deps.ts';
import { expireLapsedPartyHolds } from '../parties/party.service.ts';
import { expireLapsedHolds } from './checkout.service.ts';
import { expireLapsedInvitations } from './waitlist.service.ts';

/** Every minute: end lapsed checkout holds (events and parties) and waitlist invitations, offering places onward. */
export async function registerBookingJobs(deps: AppDeps): Promise<void> {
  await deps.jobs.every('bookings.release-lapsed', async () => {
    await expireLapsedHolds(deps);
    await expireLapsedInvitations(deps);
    await expireLapsedPartyHolds(deps);
  });
}
