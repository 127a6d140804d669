import {
  emailSettingsUpdate,
  emailSettingsView,
  mailPreview,
  systemEmailList,
  testMailSent,
} from '@tumble/contracts/email-settings';
import { errorResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { BadRequestError } from '../../platform/errors.ts';
import {
  deleteEmailLogo,
  EMAIL_LOGO_MAX_BYTES,
  getEmailSettings,
  listSystemEmails,
  previewSystemEmail,
  replaceEmailLogo,
  resetSystemEmail,
  saveEmailSettings,
  saveSystemEmail,
  sendSettingsTest,
  sendSystemEmailTest,
} from './email-settings.service.ts';

const tags = ['settings'];
const kindParams = z.object({ kind: z.string().max(60) });
const anyBody = z.record(z.string(), z.unknown());

/**
 * SPEC system-emails (/admin/system-emails) and settings/emails (/admin/settings/emails). A refused
 * save answers 400 with the message (the page checks the same schema first) and changes nothing;
 * an unknown kind answers 404. Previews and tests are open to whoever may read the settings.
 */
export const emailSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/admin/system-emails',
    { schema: { tags, response: { 200: systemEmailList } }, config: { access: 'settings.read' } },
    async (request) => ({ emails: await listSystemEmails(app.deps, requireAuth(request).tenant) }),
  );
  app.post(
    '/api/v1/admin/system-emails/:kind',
    {
      schema: {
        tags,
        params: kindParams,
        body: anyBody,
        response: { 200: systemEmailList, 400: errorResponse },
      },
      config: { access: 'settings.write' },
    },
    async (request) => {
      const auth = requireAuth(request);
      await saveSystemEmail(app.deps, auth, request.params.kind, request.body);
      return { emails: await listSystemEmails(app.deps, auth.tenant) };
    },
  );
  app.delete(
    '/api/v1/admin/system-emails/:kind',
    {
      schema: { tags, params: kindParams, response: { 200: systemEmailList } },
      config: { access: 'settings.write' },
    },
    async (request) => {
      const auth = requireAuth(request);
      await resetSystemEmail(app.deps, auth, request.params.kind);
      return { emails: await listSystemEmails(app.deps, auth.tenant) };
    },
  );
  app.post(
    '/api/v1/admin/system-emails/:kind/preview',
    {
      schema: { tags, params: kindParams, body: anyBody, response: { 200: mailPreview, 400: errorResponse } },
      config: { access: 'settings.read' },
    },
    async (request) =>
      previewSystemEmail(app.deps, requireAuth(request).tenant, request.params.kind, request.body),
  );
  app.post(
    '/api/v1/admin/system-emails/:kind/test',
    {
      schema: {
        tags,
        params: kindParams,
        body: anyBody,
        response: { 200: testMailSent, 400: errorResponse },
      },
      config: { access: 'settings.read' },
    },
    async (request) => sendSystemEmailTest(app.deps, requireAuth(request), request.params.kind, request.body),
  );

  app.get(
    '/api/v1/admin/email-settings',
    { schema: { tags, response: { 200: emailSettingsView } }, config: { access: 'settings.read' } },
    async (request) => getEmailSettings(app.deps, requireAuth(request).tenant),
  );
  app.post(
    '/api/v1/admin/email-settings',
    {
      schema: { tags, body: anyBody, response: { 200: emailSettingsView, 400: errorResponse } },
      config: { access: 'settings.write' },
    },
    async (request) =>
      saveEmailSettings(app.deps, requireAuth(request), emailSettingsUpdate.parse(request.body)),
  );
  app.post(
    '/api/v1/admin/email-settings/logo',
    {
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        response: { 200: emailSettingsView, 400: errorResponse },
      },
      config: { access: 'settings.write' },
    },
    async (request) => {
      const file = request.isMultipart()
        ? await request.file({ limits: { fileSize: EMAIL_LOGO_MAX_BYTES + 1, files: 1 } })
        : undefined;
      if (!file) throw new BadRequestError('Please choose an image to upload.');
      return replaceEmailLogo(app.deps, requireAuth(request), await file.toBuffer());
    },
  );
  app.delete(
    '/api/v1/admin/email-settings/logo',
    { schema: { tags, response: { 200: emailSettingsView } }, config: { access: 'settings.write' } },
    async (request) => deleteEmailLogo(app.deps, requireAuth(request)),
  );
  app.post(
    '/api/v1/admin/email-settings/test',
    {
      // It takes nothing: a body with fields is a request for something else, refused before a mail is written.
      schema: {
        tags,
        body: z.strictObject({}).nullish(),
        response: { 200: testMailSent, 400: errorResponse },
      },
      config: { access: 'settings.read' },
    },
    async (request) => sendSettingsTest(app.deps, requireAuth(request)),
  );
};
