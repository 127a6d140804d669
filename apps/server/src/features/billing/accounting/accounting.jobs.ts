import type { AppDeps } from '../../../platform/deps.ts';
import { syncConnectedCompanies } from './accounting.service.ts';

/** Every minute: what changed in the ledger of each company connected to Xero goes to Xero. */
export async function registerAccountingJobs(deps: AppDeps): Promise<void> {
  await deps.jobs.every('accounting.sync', () => syncConnectedCompanies(deps));
}
