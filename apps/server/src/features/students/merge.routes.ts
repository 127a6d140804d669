import { errorResponse } from '@tumble/contracts/http';
import { mergeChildrenRequest, mergeFamiliesRequest, mergeResult } from '@tumble/contracts/merge';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth.ts';
import { mergeChildren, mergeFamilies } from './merge.service.ts';

const tags = ['merge'];
const write = { access: 'bookings.write' } as const;
const responses = { 200: mergeResult, 400: errorResponse, 404: errorResponse, 409: errorResponse };

/** Staff merge duplicate families and children (a preview first, then the merge; audited). */
export const mergeRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.post(
    '/api/v1/admin/merge/families',
    { schema: { tags, body: mergeFamiliesRequest, response: responses }, config: write },
    async (request) =>
      mergeFamilies(db(), requireAuth(request), {
        fromParentId: request.body.from_parent_id,
        toParentId: request.body.to_parent_id,
        preview: request.body.preview,
      }),
  );

  app.post(
    '/api/v1/admin/merge/children',
    { schema: { tags, body: mergeChildrenRequest, response: responses }, config: write },
    async (request) =>
      mergeChildren(db(), requireAuth(request), {
        fromChildId: request.body.from_child_id,
        toChildId: request.body.to_child_id,
        preview: request.body.preview,
      }),
  );
};
