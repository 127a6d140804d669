import type { AppDeps } from '../../app.ts';
import { expireLapsedHolds } from './checkout.service.ts';
import { expireLapsedInvitations } from './waitlist.service.ts';

/** Every minute: end lapsed checkout holds and waitlist invitations, offering their places onward. */
export async function registerBookingJobs(deps: AppDeps): Promise<void> {
  await deps.jobs.every('bookings.release-lapsed', async () => {
    await expireLapsedHolds(deps);
    await expireLapsedInvitations(deps);
  });
}
