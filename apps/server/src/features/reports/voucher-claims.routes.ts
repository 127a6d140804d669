import { errorResponse } from '@tumble/contracts/http';
import { voucherClaimRequest } from '@tumble/contracts/reports-extra';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { markVoucherClaim } from './voucher-claims.service.ts';

/** Staff mark a redeemed NSW voucher claimed or reimbursed (the vouchers report shows the status). */
export const voucherClaimRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/admin/reports/vouchers/claims',
    {
      schema: {
        tags: ['reports'],
        body: voucherClaimRequest,
        response: { 204: z.null(), 404: errorResponse },
      },
      config: { access: 'billing.write' },
    },
    async (request, reply) => {
      await markVoucherClaim(app.deps.database.db, requireAuth(request), request.body);
      return reply.code(204).send(null);
    },
  );
};
