import { readFileSync } from 'node:fs';
import path from 'node:path';
import { healthResponse, readyResponse } from '@tumble/contracts/http';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { migrationsFolder } from '../../db/migrate.ts';
import { pgCode } from '../../platform/db-errors.ts';

/** The newest migration this code ships (drizzle records each applied one by this `when`). */
function newestMigration(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((e) => e.when));
}

/**
 * GET /api/health (liveness): 200 when the process answers and its database does, 503 when the
 * database does not.
 * GET /api/ready (readiness, the container's health check): 200 once the database answers and
 * every migration this code ships is applied; 503 with the reason in plain words otherwise, so a
 * load balancer sends no traffic to a process whose schema is behind its code.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const needed = newestMigration();

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

  app.get(
    '/api/ready',
    {
      schema: { tags: ['platform'], response: { 200: readyResponse, 503: readyResponse } },
      config: { rateLimit: false },
    },
    async (_request, reply) => {
      const unready = (reason: string) => reply.code(503).send({ status: 'unready' as const, reason });
      let applied: number;
      try {
        const { rows } = await app.deps.database.db.execute<{ latest: string | null }>(
          sql`select max(created_at)::text as latest from drizzle.__drizzle_migrations`,
        );
        applied = Number(rows[0]?.latest ?? 0);
      } catch (error) {
        // 42P01: no bookkeeping table, a database nobody has migrated yet.
        if (pgCode(error) === '42P01') return unready('The database migrations are not applied yet.');
        return unready('The database does not answer.');
      }
      // A newer migration (a newer version of the app started first) still leaves this one ready.
      if (applied < needed) return unready('The database migrations are not applied yet.');
      return { status: 'ready' as const };
    },
  );
};
