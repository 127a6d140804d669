import { ReportPage } from './report-page';

/** /admin/reports/birthday-parties: parties, guests, deposits and balances per month, and each party. */
export function PartyReportPage() {
  return <ReportPage name="birthday-parties" />;
}
