import type { AppDeps } from '../../platform/deps.ts';
import { expireLapsedPurchases } from '../checkout/checkout.ts';
import { registerSaleKinds } from '../checkout/kinds.ts';
import { expireLapsedInvitations } from './waitlist.service.ts';

/** Every minute: end lapsed checkout holds (every kind of sale) and waitlist invitations, offering places onward. */
export async function registerBookingJobs(deps: AppDeps): Promise<void> {
  registerSaleKinds();
  await deps.jobs.every('bookings.release-lapsed', async () => {
    await expireLapsedPurchases(deps);
    await expireLapsedInvitations(deps);
  });
}
