import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth.ts';
import { exportCompany } from './export.service.ts';

/** A company's data (issue 18): download everything; erase a family on request. */
export const companyDataRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['company data'];
  const config = { access: 'company.manage' } as const;

  app.get(
    '/api/v1/admin/company-data/export',
    { schema: { tags, produces: ['application/zip'] }, config },
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
};
