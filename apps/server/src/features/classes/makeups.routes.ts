import { errorResponse, formResponse } from '@tumble/contracts/http';
import {
  absenceRequest,
  makeupBookingRequest,
  makeupOptionsQuery,
  makeupOptionsResponse,
  myClassesResponse,
} from '@tumble/contracts/makeups';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { parseForm } from '../../platform/forms.ts';
import {
  assertSession,
  bookMakeup,
  cancelMakeup,
  makeupOptions,
  markAbsent,
  myClasses,
  undoAbsence,
} from './makeups.service.ts';

const tags = ['students'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const config = { access: 'parent.self' } as const;
const body = z.record(z.string(), z.unknown());
const answers = { 200: formResponse, 404: errorResponse };
const formOnId = { tags, params: idParams, body, response: answers };

/** The parent's classes (SPEC students/classes): absences and makeups (students/absence-day). */
export const makeupRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.get(
    '/api/v1/students/classes',
    { schema: { tags, response: { 200: myClassesResponse } }, config },
    async (request) => myClasses(db(), requireAuth(request)),
  );

  app.post('/api/v1/students/classes/sessions/:id/absence', { schema: formOnId, config }, async (request) => {
    const auth = requireAuth(request);
    const form = parseForm(absenceRequest, request.body);
    if (!form.ok) return assertSession(db(), auth.tenant, request.params.id).then(() => form.response);
    return markAbsent(db(), auth, request.params.id, form.data.child_id);
  });

  app.post(
    '/api/v1/students/classes/sessions/:id/absence/undo',
    { schema: formOnId, config },
    async (request) => {
      const auth = requireAuth(request);
      const form = parseForm(absenceRequest, request.body);
      if (!form.ok) return assertSession(db(), auth.tenant, request.params.id).then(() => form.response);
      return undoAbsence(db(), auth, request.params.id, form.data.child_id);
    },
  );

  app.get(
    '/api/v1/students/classes/makeup-options',
    {
      schema: {
        tags,
        querystring: makeupOptionsQuery,
        response: { 200: makeupOptionsResponse, 404: errorResponse },
      },
      config,
    },
    async (request) => ({
      sessions: await makeupOptions(db(), requireAuth(request), request.query.child_id),
    }),
  );

  app.post(
    '/api/v1/students/classes/makeups',
    { schema: { tags, body, response: answers }, config },
    async (request) => {
      const form = parseForm(makeupBookingRequest, request.body);
      if (!form.ok) return form.response;
      return bookMakeup(db(), requireAuth(request), {
        childId: form.data.child_id,
        sessionId: form.data.session_id,
      });
    },
  );

  app.post('/api/v1/students/classes/makeups/:id/cancel', { schema: formOnId, config }, async (request) =>
    cancelMakeup(db(), requireAuth(request), request.params.id),
  );
};
