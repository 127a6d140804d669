import {
  attachmentResponse,
  audienceOptionsResponse,
  audienceRequest,
  audienceResponse,
  MAX_ATTACHMENT_BYTES,
  massMailDetailResponse,
  massMailsResponse,
  newMassMailRequest,
} from '@tumble/contracts/communications';
import { errorResponse, formResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { BadRequestError } from '../../platform/errors.ts';
import { parseForm } from '../../platform/forms.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { audienceOf, audienceOptions } from './audience.service.ts';
import { attachmentOf, storeAttachment } from './mass-mail.files.ts';
import {
  cancelMassMail,
  createMassMail,
  listMassMails,
  massMailDetail,
  runMassMails,
} from './mass-mail.service.ts';

const tags = ['communications'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const staff = { access: 'communications.send' } as const;

/** Mass mail with filters (SPEC communications): the audience, composing, sending and its progress. */
export const massMailRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.get(
    '/api/v1/communications/options',
    { schema: { tags, response: { 200: audienceOptionsResponse } }, config: staff },
    async (request) => audienceOptions(db(), requireAuth(request).tenant),
  );

  // The live count and list as the filters change (a POST: the filter is a body, not a URL).
  app.post(
    '/api/v1/communications/audience',
    {
      schema: {
        tags,
        body: z.record(z.string(), z.unknown()),
        response: { 200: audienceResponse, 400: errorResponse },
      },
      config: staff,
    },
    async (request) => {
      const parsed = audienceRequest.safeParse(request.body);
      if (!parsed.success) throw new BadRequestError(parsed.error.issues[0]?.message ?? 'Check the filters.');
      const { tenant } = requireAuth(request);
      const company = await companyOf(db(), tenant);
      return audienceOf(db(), tenant, company.timeZone, parsed.data.filter, parsed.data.marketing);
    },
  );

  app.post(
    '/api/v1/communications/attachments',
    {
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        response: { 200: attachmentResponse, 400: errorResponse },
      },
      config: staff,
    },
    async (request) => {
      const file = request.isMultipart()
        ? await request.file({ limits: { fileSize: MAX_ATTACHMENT_BYTES + 1, files: 1 } })
        : undefined;
      if (!file) throw new BadRequestError('Choose a file to attach.');
      const data = await file.toBuffer();
      return storeAttachment(app.deps, requireAuth(request).tenant, file.filename, data);
    },
  );

  app.get(
    '/api/v1/communications/mass-mails',
    { schema: { tags, response: { 200: massMailsResponse } }, config: staff },
    async (request) => ({ mass_mails: await listMassMails(db(), requireAuth(request).tenant) }),
  );

  app.post(
    '/api/v1/communications/mass-mails',
    {
      schema: { tags, body: z.record(z.string(), z.unknown()), response: { 200: formResponse } },
      config: staff,
    },
    async (request) => {
      const form = parseForm(newMassMailRequest, request.body);
      if (!form.ok) return form.response;
      const auth = requireAuth(request);
      const attachment = form.data.attachment
        ? await attachmentOf(app.deps, auth.tenant, form.data.attachment)
        : null;
      if (attachment === undefined)
        return {
          valid: false,
          error: {
            html_message: 'Please correct the errors below.',
            element: [{ name: 'attachment', messages: ['Upload the file again.'] }],
          },
        };
      const { id, ...response } = await createMassMail(app.deps, auth, { ...form.data, attachment });
      // "Send now" starts at once in this process when it runs the workers; the every-minute job
      // is the backstop (and the only runner where workers run in their own process).
      if (id && !form.data.send_at && app.deps.config.WORKERS_IN_SERVER) kickMassMails();
      return response;
    },
  );

  app.get(
    '/api/v1/communications/mass-mails/:id',
    { schema: { tags, params: idParams, response: { 200: massMailDetailResponse } }, config: staff },
    async (request) => massMailDetail(db(), requireAuth(request).tenant, request.params.id),
  );

  app.post(
    '/api/v1/communications/mass-mails/:id/cancel',
    { schema: { tags, params: idParams }, config: staff },
    async (request, reply) => {
      await cancelMassMail(db(), requireAuth(request).tenant, request.params.id);
      return reply.code(204).send();
    },
  );

  // One run at a time in this process; a mail sent during a run gets one more run after it.
  let running: Promise<unknown> | null = null;
  let again = false;
  let closing = false;
  function kickMassMails() {
    if (running) {
      again = true;
      return;
    }
    running = runMassMails(app.deps)
      .catch((error) => app.log.error(error, 'mass mail run failed'))
      .finally(() => {
        running = null;
        if (again && !closing) {
          again = false;
          kickMassMails();
        }
      });
  }
  app.addHook('onClose', async () => {
    closing = true;
    await running;
  });
};
