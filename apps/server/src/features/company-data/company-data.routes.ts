import { eraseFamilyRequest, eraseFamilyResponse } from '@tumble/contracts/company-data';
import { errorResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { eraseFamily } from './erase-family.service.ts';
import { exportCompany } from './export.service.ts';

/** A company's data (issue 18): download everything; erase a family on request. */
export const companyDataRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['company data'];
  const config = { access: 'company.manage' } as const;

  app.get(
    '/api/v1/admin/company-data/export',
    {
      // Downloading is audited, so it is a write: it takes nothing, and a request with anything in
      // its query is refused before a row is written.
      schema: { tags, produces: ['application/zip'], querystring: z.strictObject({}) },
      config,
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const stream = await exportCompany(app.deps, auth, (err) =>
        request.log.error({ err }, 'company export stopped'),
      );
      return reply
        .type('application/zip')
        .header('content-disposition', 'attachment; filename="company-data.zip"')
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );

  app.post(
    '/api/v1/admin/families/:id/erase',
    {
      schema: {
        tags,
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        body: eraseFamilyRequest,
        response: { 200: eraseFamilyResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
      config,
    },
    async (request) => eraseFamily(app.deps, requireAuth(request), request.params.id, request.body),
  );
};
