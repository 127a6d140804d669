import {
  aclResponse,
  companySignupRequest,
  forgottenPasswordRequest,
  linkCheckResponse,
  loginRequest,
  loginResponse,
  resetPasswordRequest,
  studentSignupRequest,
} from '@tumble/contracts/auth';
import { errorResponse, formResponse, TOKEN_HEADER } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { ForbiddenError } from '../../platform/errors.ts';
import { parseForm } from '../../platform/forms.ts';
import * as accounts from './accounts.service.ts';

const tags = ['accounts'];
const hashcodeQuery = z.object({ hashcode: z.string().max(200).default(''), check: z.string().optional() });
/** Form posts are validated in the handler so field errors come back as the generated form response. */
const formBody = z.record(z.string(), z.unknown());

export const FORGOTTEN_PASSWORD_SENT =
  'If an account exists for this email address, we have sent a link to reset its password.';

export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/rest',
    {
      schema: {
        tags,
        body: loginRequest,
        response: { 200: loginResponse, 401: errorResponse, 429: errorResponse },
      },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const token = await accounts.login(app.deps, request.body, request.ip);
      return reply.header(TOKEN_HEADER, token).send({ token });
    },
  );

  app.post('/rest/logout', { schema: { tags }, config: { access: 'signed-in' } }, async (request, reply) => {
    await accounts.logout(app.deps, requireAuth(request));
    request.auth = null; // no token header on the way out
    return reply.code(204).send();
  });

  app.get(
    '/rest/acl',
    {
      schema: {
        tags,
        querystring: z.object({ authhash: z.string().max(200).optional() }),
        response: { 200: aclResponse },
      },
      config: { access: 'public' },
    },
    async (request) => {
      // The SPA loads the user meta with its stored token: a dead token must answer 403 so the SPA
      // applies the session-expired rule of SPEC.md point 4, not a 404 ('User Meta Request failed.').
      if (request.authExpired && !request.query.authhash)
        throw new ForbiddenError(messages.sessionExpired, 'session_expired');
      return accounts.acl(app.deps, request.auth, request.query.authhash);
    },
  );

  app.post(
    '/api/v1/auth/forgotten-password',
    {
      schema: { tags, body: forgottenPasswordRequest, response: { 200: errorResponse } },
      config: { access: 'public' },
    },
    async (request) => {
      await accounts.requestPasswordReset(app.deps, request.body, request.ip);
      return { message: FORGOTTEN_PASSWORD_SENT };
    },
  );

  app.get(
    '/api/v1/auth/reset-password',
    {
      schema: { tags, querystring: hashcodeQuery, response: { 200: linkCheckResponse } },
      config: { access: 'public' },
    },
    async (request) => ({ result: await accounts.checkLink(app.deps, 'reset', request.query.hashcode) }),
  );

  app.post(
    '/api/v1/auth/reset-password',
    { schema: { tags, body: formBody, response: { 200: formResponse } }, config: { access: 'public' } },
    async (request) => {
      const form = parseForm(resetPasswordRequest, request.body);
      return form.ok ? accounts.resetPassword(app.deps, form.data) : form.response;
    },
  );

  // The SPA's /admin/activate page calls this; a valid link activates the account (SPEC.md point 4).
  app.get(
    '/api/v1/auth/activate',
    {
      schema: { tags, querystring: hashcodeQuery, response: { 200: linkCheckResponse } },
      config: { access: 'public' },
    },
    async (request) => ({ result: await accounts.activate(app.deps, request.query.hashcode) }),
  );

  app.post(
    '/api/v1/companies/signup',
    { schema: { tags, body: formBody, response: { 200: formResponse } }, config: { access: 'public' } },
    async (request) => {
      const form = parseForm(companySignupRequest, request.body);
      return form.ok ? accounts.signupCompany(app.deps, form.data) : form.response;
    },
  );

  app.post(
    '/api/v1/students/signup',
    { schema: { tags, body: formBody, response: { 200: formResponse } }, config: { access: 'public' } },
    async (request) => {
      const form = parseForm(studentSignupRequest, request.body);
      return form.ok ? accounts.signupParent(app.deps, form.data) : form.response;
    },
  );
};
