import type { AppDeps } from '../../platform/deps.ts';
import { runAutopay } from './autopay.service.ts';

/**
 * Every minute: instalments and invoices of families on autopay are charged on their due date, and
 * failed charges are retried on their day (autopay.service.ts). Each attempt is claimed before the
 * charge, so this may run in several processes at once.
 */
export async function registerAutopayJobs(deps: AppDeps): Promise<void> {
  await deps.jobs.every('billing.autopay', () => runAutopay(deps, new Date()));
}
