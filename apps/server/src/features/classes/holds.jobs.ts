import type { AppDeps } from '../../platform/deps.ts';
import { followUpTrials, releaseLapsedHolds } from './holds.service.ts';

/**
 * Every minute: lapsed offers, trial links and rollover places are released and offered to the
 * waitlist; trials whose session ended get their "Enrol" link.
 */
export async function registerHoldJobs(deps: AppDeps): Promise<void> {
  await deps.jobs.every('classes.holds', async () => {
    await releaseLapsedHolds(deps);
    await followUpTrials(deps);
  });
}
