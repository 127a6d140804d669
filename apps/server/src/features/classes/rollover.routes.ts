import { errorResponse } from '@tumble/contracts/http';
import {
  myReEnrolment as myReEnrolmentResponse,
  releaseRequest,
  rolloverPlan,
  rolloverRequest,
  rolloverRun,
  termRollovers,
} from '@tumble/contracts/rollover';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { offerFreedPlaces } from './class-waitlist.service.ts';
import { releaseHold } from './holds.service.ts';
import {
  commitRollover,
  myReEnrolment,
  ownsRolloverToken,
  previewRollover,
  rolloverOf,
  rolloversOfTerm,
  undoRollover,
} from './rollover.service.ts';

const params = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const errors = { 400: errorResponse, 404: errorResponse, 409: errorResponse };

/**
 * Re-enrolment (SPEC students/re-enroll). Staff: a term's runs, the dry run, the commit (answers at
 * once with the run's id; the screen polls the run for progress), a run's places, undo. Parents:
 * the places held for their family, and releasing them.
 */
export const rolloverRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const { db } = deps.database;
  const tags = ['admin: re-enrolment'];
  const read = { access: 'classes.read' } as const;
  const write = { access: 'classes.write' } as const;

  app.get(
    '/api/v1/admin/terms/:id/rollovers',
    { schema: { tags, params, response: { 200: termRollovers, ...errors } }, config: read },
    async (request) => rolloversOfTerm(db, requireAuth(request).tenant, request.params.id),
  );
  app.post(
    '/api/v1/admin/terms/:id/rollovers/preview',
    {
      schema: { tags, params, body: rolloverRequest, response: { 200: rolloverPlan, ...errors } },
      config: write,
    },
    async (request) => previewRollover(db, requireAuth(request).tenant, request.params.id, request.body),
  );
  app.post(
    '/api/v1/admin/terms/:id/rollovers',
    {
      schema: { tags, params, body: rolloverRequest, response: { 200: rolloverRun, ...errors } },
      config: write,
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id, finished } = await commitRollover(
        deps,
        auth.tenant,
        auth.userId,
        request.params.id,
        request.body,
      );
      // The run goes on after the answer; a failure leaves it `running`, and committing again resumes it.
      finished.catch((error: unknown) => request.log.error({ err: error, rollover: id }, 'rollover failed'));
      return rolloverOf(db, auth.tenant, id);
    },
  );
  app.get(
    '/api/v1/admin/rollovers/:id',
    { schema: { tags, params, response: { 200: rolloverRun, ...errors } }, config: read },
    async (request) => rolloverOf(db, requireAuth(request).tenant, request.params.id),
  );
  app.post(
    '/api/v1/admin/rollovers/:id/undo',
    { schema: { tags, params, response: { 200: rolloverRun, ...errors } }, config: write },
    async (request) => {
      const { tenant } = requireAuth(request);
      const freed = await undoRollover(db, tenant, request.params.id);
      if (freed.length > 0) await offerFreedPlaces(deps, tenant, freed);
      return rolloverOf(db, tenant, request.params.id);
    },
  );

  const parent = { access: 'parent.self' } as const;
  app.get(
    '/api/v1/students/re-enrol',
    { schema: { tags: ['students'], response: { 200: myReEnrolmentResponse } }, config: parent },
    async (request) => {
      const auth = requireAuth(request);
      return myReEnrolment(deps, auth.tenant, auth.userId);
    },
  );
  app.post(
    '/api/v1/students/re-enrol/release',
    {
      schema: {
        tags: ['students'],
        body: releaseRequest,
        response: { 200: myReEnrolmentResponse, ...errors },
      },
      config: parent,
    },
    async (request) => {
      const auth = requireAuth(request);
      if (!(await ownsRolloverToken(db, auth.tenant, auth.userId, request.body.token)))
        throw new NotFoundError('These places could not be found.');
      await releaseHold(deps, auth.tenant, request.body.token, auth.userId);
      return myReEnrolment(deps, auth.tenant, auth.userId);
    },
  );
};
