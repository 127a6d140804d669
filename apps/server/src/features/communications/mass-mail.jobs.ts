import type { AppDeps } from '../../platform/deps.ts';
import { runMassMails } from './mass-mail.service.ts';

/**
 * Every minute: mass mails that are due start, and their families' mails are written to the
 * outbox in batches (mass-mail.service.ts); claims use SKIP LOCKED, so several processes may run it.
 */
export async function registerMassMailJobs(deps: AppDeps): Promise<void> {
  await deps.jobs.every('communications.mass-mail', () => runMassMails(deps, new Date()));
}
