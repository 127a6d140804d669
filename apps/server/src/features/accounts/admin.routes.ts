import {
  companySettings,
  companySettingsUpdate,
  myAccount,
  myAccountUpdate,
  outboxList,
  outboxMail,
  pageQuery,
  userCreate,
  userList,
  userSummary,
  userUpdate,
} from '@tumble/contracts/admin-accounts';
import { errorResponse, formResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { contentTypeOf, isFileKey } from '../../platform/files.ts';
import { parseForm } from '../../platform/forms.ts';
import * as admin from './admin.service.ts';

const tags = ['accounts'];
const formBody = z.record(z.string(), z.unknown());
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** /admin/my-account, /admin/my-company (with logo), /admin/users and the mail outbox. */
export const adminAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/admin/my-account',
    { schema: { tags, response: { 200: myAccount } }, config: { access: 'signed-in' } },
    async (request) => admin.getMyAccount(app.deps, requireAuth(request)),
  );
  app.post(
    '/api/v1/admin/my-account',
    { schema: { tags, body: formBody, response: { 200: formResponse } }, config: { access: 'signed-in' } },
    async (request) => {
      const form = parseForm(myAccountUpdate, request.body);
      return form.ok ? admin.updateMyAccount(app.deps, requireAuth(request), form.data) : form.response;
    },
  );

  app.get(
    '/api/v1/admin/my-company',
    { schema: { tags, response: { 200: companySettings } }, config: { access: 'company.manage' } },
    async (request) => admin.getCompanySettings(app.deps, requireAuth(request).tenant),
  );
  app.post(
    '/api/v1/admin/my-company',
    {
      schema: { tags, body: formBody, response: { 200: formResponse } },
      config: { access: 'company.manage' },
    },
    async (request) => {
      const form = parseForm(companySettingsUpdate, request.body);
      return form.ok
        ? admin.updateCompanySettings(app.deps, requireAuth(request).tenant, form.data)
        : form.response;
    },
  );
  app.post(
    '/api/v1/admin/my-company/logo',
    {
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        response: { 200: z.object({ logo: z.string() }), 400: errorResponse },
      },
      config: { access: 'company.manage' },
    },
    async (request) => {
      const file = await request.file({ limits: { fileSize: admin.LOGO_MAX_BYTES + 1, files: 1 } });
      if (!file) throw new BadRequestError('Please choose an image to upload.');
      const data = await file.toBuffer();
      return admin.replaceLogo(app.deps, requireAuth(request).tenant, data);
    },
  );
  app.delete(
    '/api/v1/admin/my-company/logo',
    { schema: { tags }, config: { access: 'company.manage' } },
    async (request, reply) => {
      await admin.deleteLogo(app.deps, requireAuth(request).tenant);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v1/admin/users',
    {
      schema: { tags, querystring: pageQuery, response: { 200: userList } },
      config: { access: 'users.manage' },
    },
    async (request) => admin.listUsers(app.deps, requireAuth(request).tenant, request.query),
  );
  app.post(
    '/api/v1/admin/users',
    { schema: { tags, body: formBody, response: { 200: formResponse } }, config: { access: 'users.manage' } },
    async (request) => {
      const form = parseForm(userCreate, request.body);
      return form.ok ? admin.inviteUser(app.deps, requireAuth(request), form.data) : form.response;
    },
  );
  app.get(
    '/api/v1/admin/users/:id',
    {
      schema: { tags, params: idParams, response: { 200: userSummary } },
      config: { access: 'users.manage' },
    },
    async (request) => admin.getUser(app.deps, requireAuth(request).tenant, request.params.id),
  );
  app.post(
    '/api/v1/admin/users/:id',
    {
      schema: { tags, params: idParams, body: formBody, response: { 200: formResponse } },
      config: { access: 'users.manage' },
    },
    async (request) => {
      const auth = requireAuth(request);
      // Another company's id is not found, whatever the body says.
      await admin.getUser(app.deps, auth.tenant, request.params.id);
      const form = parseForm(userUpdate, request.body);
      return form.ok ? admin.updateUser(app.deps, auth, request.params.id, form.data) : form.response;
    },
  );

  app.get(
    '/api/v1/admin/mail',
    {
      schema: { tags, querystring: pageQuery, response: { 200: outboxList } },
      config: { access: 'mail.read' },
    },
    async (request) => admin.listOutbox(app.deps, requireAuth(request).tenant, request.query),
  );
  app.get(
    '/api/v1/admin/mail/:id',
    { schema: { tags, params: idParams, response: { 200: outboxMail } }, config: { access: 'mail.read' } },
    async (request) => admin.getOutboxMail(app.deps, requireAuth(request).tenant, request.params.id),
  );

  // Public files (logos shown on public pages). Private files get their own, authorised routes.
  app.get(
    '/api/v1/files/public/*',
    { schema: { tags: ['files'], hide: true }, config: { access: 'public' } },
    async (request, reply) => {
      const key = `public/${(request.params as { '*': string })['*']}`;
      const data = isFileKey(key) ? await app.deps.files.get(key) : null;
      if (!data) throw new NotFoundError();
      return reply
        .type(contentTypeOf(key))
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .send(data);
    },
  );
};
