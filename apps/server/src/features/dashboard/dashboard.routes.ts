import { dashboardResponse } from '@tumble/contracts/dashboard';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth.ts';
import { dashboardOf } from './dashboard.service.ts';

/** The staff dashboard's one read (issue 17). */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/admin/dashboard',
    {
      schema: { tags: ['dashboard'], response: { 200: dashboardResponse } },
      config: { access: 'admin.access' },
    },
    async (request) => dashboardOf(app.deps.database.db, requireAuth(request)),
  );
};
