import { errorResponse } from '@tumble/contracts/http';
import {
  anomalyCountResponse,
  anomalyListQuery,
  anomalyListResponse,
  anomalyResolveResponse,
} from '@tumble/contracts/registration-forms';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { listAnomalies, openAnomalyCount, resolveAnomaly } from './anomalies.service.ts';

const tags = ['registration-forms'];

/** Staff's registration anomalies: the list, the open count (badge) and each one's action. */
export const anomalyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.get(
    '/api/v1/admin/registration-anomalies',
    {
      schema: { tags, querystring: anomalyListQuery, response: { 200: anomalyListResponse } },
      config: { access: 'classes.write' },
    },
    async (request) => listAnomalies(db, requireAuth(request).tenant, request.query),
  );
  app.get(
    '/api/v1/admin/registration-anomalies/count',
    { schema: { tags, response: { 200: anomalyCountResponse } }, config: { access: 'classes.write' } },
    async (request) => ({ open: await openAnomalyCount(db, requireAuth(request).tenant) }),
  );
  app.post(
    '/api/v1/admin/registration-anomalies/:id/resolve',
    {
      schema: {
        tags,
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 200: anomalyResolveResponse, 404: errorResponse, 409: errorResponse },
      },
      config: { access: 'classes.write' },
    },
    async (request) => resolveAnomaly(app.deps, requireAuth(request), request.params.id),
  );
};
