import { billingRun, billingRunPreview } from '@tumble/contracts/billing-run';
import { errorResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { billingRunOf, previewBillingRun, startBillingRun } from './billing-run.service.ts';

const params = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const errors = { 400: errorResponse, 404: errorResponse, 409: errorResponse };

/**
 * The term billing run (Terms › a term › "Bill this term"): the preview of every family's invoice,
 * starting the run (answers at once; the page polls the run for its progress), and the run.
 */
export const billingRunRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const { db } = deps.database;
  const tags = ['admin: billing'];

  app.get(
    '/api/v1/admin/terms/:id/billing',
    {
      schema: { tags, params, response: { 200: billingRunPreview, ...errors } },
      config: { access: 'billing.read' },
    },
    async (request) => previewBillingRun(db, requireAuth(request).tenant, request.params.id),
  );
  app.post(
    '/api/v1/admin/terms/:id/billing-runs',
    {
      schema: { tags, params, response: { 200: billingRun, ...errors } },
      config: { access: 'billing.write' },
    },
    async (request) => {
      const { run, finished } = await startBillingRun(deps, requireAuth(request), request.params.id);
      // The run goes on after the answer; it writes its own failure on the run row.
      finished.catch((error: unknown) =>
        request.log.error({ err: error, billingRun: run.id }, 'billing run failed'),
      );
      return run;
    },
  );
  app.get(
    '/api/v1/admin/billing-runs/:id',
    {
      schema: { tags, params, response: { 200: billingRun, ...errors } },
      config: { access: 'billing.read' },
    },
    async (request) => billingRunOf(db, requireAuth(request).tenant, request.params.id),
  );
};
