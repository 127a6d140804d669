import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reportRoutes } from '../../platform/reports/report.ts';
import { couponUsagesReport } from './coupon-usages.report.ts';
import { eventsReport } from './events.report.ts';
import { insuranceReport } from './insurance.report.ts';
import { voucherClaimRoutes } from './voucher-claims.routes.ts';
import { vouchersReport } from './vouchers.report.ts';

/** The insurance, coupon, voucher and event reports (GET /api/v1/admin/reports/<name>) and voucher claims. */
export const moneyReportRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(reportRoutes([insuranceReport, couponUsagesReport, vouchersReport, eventsReport]));
  await app.register(voucherClaimRoutes);
};
