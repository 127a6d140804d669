import { errorResponse } from '@tumble/contracts/http';
import { integrationsResponse } from '@tumble/contracts/integrations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth.ts';
import { integrationsOf } from './integrations.service.ts';

/** SPEC integrations (page /admin/integrations): every outside connection of the company, read only. */
export const integrationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  app.get(
    '/api/v1/admin/integrations',
    {
      schema: { tags: ['admin: integrations'], response: { 200: integrationsResponse, 404: errorResponse } },
      config: { access: 'settings.read' },
    },
    async (request) => integrationsOf(deps, requireAuth(request).tenant),
  );
};
