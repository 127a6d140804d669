import {
  childSearchQuery,
  childSearchResponse,
  classStudentsChange,
  classStudentsResponse,
  enrolRequest,
  offerRequest,
  transferRequest,
  withdrawRequest,
} from '@tumble/contracts/class-students';
import { errorResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import {
  childChoices,
  classStudents,
  enrolChild,
  offerToWaitlisted,
  transferChild,
  withdrawChild,
} from './class-students.service.ts';

const params = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const errors = { 400: errorResponse, 404: errorResponse, 409: errorResponse };
const changed = { 200: classStudentsChange, ...errors };

/** A class's students (SPEC class-students): the list, and staff enrolling, moving and withdrawing children. */
export const classStudentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const tags = ['admin: class students'];
  const read = { access: 'classes.read' } as const;
  const write = { access: 'classes.write' } as const;
  const base = '/api/v1/admin/term-classes/:id/class-students';

  app.get(
    base,
    { schema: { tags, params, response: { 200: classStudentsResponse, ...errors } }, config: read },
    async (request) => classStudents(db, requireAuth(request).tenant, request.params.id),
  );
  app.get(
    '/api/v1/admin/class-students/children',
    {
      schema: { tags, querystring: childSearchQuery, response: { 200: childSearchResponse } },
      config: write,
    },
    async (request) => childChoices(db, requireAuth(request).tenant, request.query.q),
  );
  app.post(
    base,
    { schema: { tags, params, body: enrolRequest, response: changed }, config: write },
    async (request) => {
      const { message } = await enrolChild(app.deps, requireAuth(request), request.params.id, request.body);
      return { message };
    },
  );
  app.post(
    `${base}/transfer`,
    { schema: { tags, params, body: transferRequest, response: changed }, config: write },
    async (request) => transferChild(app.deps, requireAuth(request), request.params.id, request.body),
  );
  app.post(
    `${base}/withdraw`,
    { schema: { tags, params, body: withdrawRequest, response: changed }, config: write },
    async (request) => withdrawChild(app.deps, requireAuth(request), request.params.id, request.body),
  );
  app.post(
    `${base}/offer`,
    { schema: { tags, params, body: offerRequest, response: changed }, config: write },
    async (request) =>
      offerToWaitlisted(app.deps, requireAuth(request), request.params.id, request.body.waitlist_id),
  );
};
