import { reportRoutes } from '../../platform/reports/report.ts';
import { couponUsagesReport } from './coupon-usages.report.ts';
import { eventsReport } from './events.report.ts';
import { insuranceReport } from './insurance.report.ts';
import { vouchersReport } from './vouchers.report.ts';

/** The insurance, coupon, voucher and event reports (GET /api/v1/admin/reports/<name>). */
export const moneyReportRoutes = reportRoutes([
  insuranceReport,
  couponUsagesReport,
  vouchersReport,
  eventsReport,
]);
