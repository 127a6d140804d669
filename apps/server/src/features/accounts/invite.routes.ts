import {
  familyInviteRequest,
  inviteAcceptRequest,
  inviteAcceptResponse,
  inviteCheckResponse,
  inviteFormsResponse,
} from '@tumble/contracts/class-students';
import { formResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { parseForm } from '../../platform/forms.ts';
import { publishedForms } from '../registration/published-forms.service.ts';
import { acceptInvite, checkInvite, inviteFamily } from './invite.service.ts';

const hashcode = z.string().trim().min(1).max(200);

/** The family invitation (SPEC students/invite): staff send it, the parent takes it up. */
export const inviteRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['family invitation'];

  app.get(
    '/api/v1/admin/students/invite/forms',
    { schema: { tags, response: { 200: inviteFormsResponse } }, config: { access: 'classes.write' } },
    async (request) => publishedForms(app.deps.database.db, requireAuth(request).tenant),
  );
  app.post(
    '/api/v1/admin/students/invite',
    {
      schema: { tags, body: z.record(z.string(), z.unknown()), response: { 200: formResponse } },
      config: { access: 'classes.write' },
    },
    async (request) => {
      const form = parseForm(familyInviteRequest, request.body);
      return form.ok ? inviteFamily(app.deps, requireAuth(request), form.data) : form.response;
    },
  );
  app.get(
    '/api/v1/students/invite',
    {
      schema: { tags, querystring: z.object({ hashcode }), response: { 200: inviteCheckResponse } },
      config: { access: 'public' },
    },
    async (request) => checkInvite(app.deps, request.query.hashcode),
  );
  app.post(
    '/api/v1/students/invite',
    {
      schema: {
        tags,
        querystring: z.object({ f: z.string().trim().max(80).optional().default('') }),
        body: inviteAcceptRequest,
        response: { 200: inviteAcceptResponse },
      },
      config: { access: 'public' },
    },
    async (request) => acceptInvite(app.deps, request.body, request.query.f),
  );
};
