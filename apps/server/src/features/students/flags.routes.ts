import {
  appliedFlagsQuery,
  appliedFlagsResponse,
  applyFlagRequest,
  flagOptionsResponse,
} from '@tumble/contracts/flags';
import { errorResponse, formResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { parseForm } from '../../platform/forms.ts';
import { appliedFlags, applyFlag, flagOptions, removeFlag } from './flags.service.ts';

const tags = ['flags'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const read = { access: 'classes.read' } as const;
const write = { access: 'classes.write' } as const;

/** Flags applied to children and families (SPEC flags); the flags themselves are an engine resource. */
export const flagRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.get(
    '/api/v1/admin/flagged',
    {
      schema: {
        tags,
        querystring: appliedFlagsQuery,
        response: { 200: appliedFlagsResponse, 404: errorResponse },
      },
      config: read,
    },
    async (request) => ({ flags: await appliedFlags(db(), requireAuth(request).tenant, request.query) }),
  );

  app.get(
    '/api/v1/admin/flagged/options',
    { schema: { tags, response: { 200: flagOptionsResponse } }, config: write },
    async (request) => flagOptions(db(), requireAuth(request).tenant),
  );

  app.post(
    '/api/v1/admin/flagged',
    {
      schema: {
        tags,
        body: z.record(z.string(), z.unknown()),
        response: { 200: formResponse, 404: errorResponse },
      },
      config: write,
    },
    async (request) => {
      const form = parseForm(applyFlagRequest, request.body);
      if (!form.ok) return form.response;
      return applyFlag(db(), requireAuth(request), {
        flagId: form.data.flag_id,
        childId: form.data.child_id,
        parentId: form.data.parent_id,
        note: form.data.note,
      });
    },
  );

  app.delete(
    '/api/v1/admin/flagged/:id',
    { schema: { tags, params: idParams }, config: write },
    async (request, reply) => {
      await removeFlag(db(), requireAuth(request), request.params.id);
      return reply.code(204).send();
    },
  );
};
