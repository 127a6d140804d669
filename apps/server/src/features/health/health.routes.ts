import { healthResponse } from '@tumble/contracts/http';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** GET /api/health: 200 when the database answers, 503 when it does not. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      schema: { tags: ['platform'], response: { 200: healthResponse, 503: healthResponse } },
      config: { rateLimit: false },
    },
    async (_request, reply) => {
      try {
        await app.deps.database.db.execute(sql`select 1`);
        return { status: 'ok' as const, database: 'up' as const };
      } catch {
        return reply.code(503).send({ status: 'degraded' as const, database: 'down' as const });
      }
    },
  );
};
