import type { AppDeps } from '../../platform/deps.ts';
import { markOverdueInvoices } from './ledger.service.ts';

/** Every minute: invoices past their due date (in each company's time zone) become overdue. */
export async function registerLedgerJobs(deps: AppDeps): Promise<void> {
  await deps.jobs.every('billing.overdue', () => markOverdueInvoices(deps.database.db));
}
