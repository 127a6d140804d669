import { errorResponse } from '@tumble/contracts/http';
import {
  mailingAudienceInput,
  mailingAudiences,
  mailingConnectInput,
  mailingConnectResponse,
  mailingStatus,
  mailingSyncResponse,
} from '@tumble/contracts/integrations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../../platform/auth.ts';
import {
  chooseAudience,
  connectWithApiKey,
  disconnectMailchimp,
  finishMailchimpOAuth,
  mailchimpCallbackPath,
  mailchimpWebhookPath,
  mailingAudiencesOf,
  mailingStatusOf,
  receiveMailchimpWebhook,
  startMailchimpOAuth,
  syncMailchimp,
} from './mailchimp.service.ts';

const errors = { 400: errorResponse, 404: errorResponse };

/**
 * SPEC integrations/mailing (page /admin/integrations/mailing): connect with an API key or
 * Mailchimp's login, choose the audience, "Sync now", disconnect; Mailchimp's OAuth callback and
 * its unsubscribe webhook. Staff read; the administrator connects (settings.write).
 */
export const mailchimpRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const tags = ['admin: mailing'];
  const read = { access: 'settings.read' } as const;
  const write = { access: 'settings.write' } as const;
  const path = '/api/v1/admin/integrations/mailing';

  app.get(
    path,
    { schema: { tags, response: { 200: mailingStatus, ...errors } }, config: read },
    async (request) => mailingStatusOf(deps, requireAuth(request).tenant),
  );
  app.post(
    `${path}/connect`,
    {
      schema: { tags, body: mailingConnectInput, response: { 200: mailingStatus, ...errors } },
      config: write,
    },
    async (request) => {
      const auth = requireAuth(request);
      await connectWithApiKey(deps, auth, request.body);
      return mailingStatusOf(deps, auth.tenant);
    },
  );
  app.post(
    `${path}/oauth`,
    { schema: { tags, response: { 200: mailingConnectResponse, ...errors } }, config: write },
    async (request) => startMailchimpOAuth(deps, requireAuth(request)),
  );
  app.get(
    `${path}/audiences`,
    { schema: { tags, response: { 200: mailingAudiences, ...errors } }, config: write },
    async (request) => mailingAudiencesOf(deps, requireAuth(request).tenant),
  );
  app.post(
    `${path}/audience`,
    {
      schema: { tags, body: mailingAudienceInput, response: { 200: mailingStatus, ...errors } },
      config: write,
    },
    async (request) => {
      const { tenant } = requireAuth(request);
      await chooseAudience(deps, tenant, request.body.list_id);
      return mailingStatusOf(deps, tenant);
    },
  );
  app.post(
    `${path}/sync`,
    { schema: { tags, response: { 200: mailingSyncResponse, ...errors } }, config: write },
    async (request) => syncMailchimp(deps, requireAuth(request).tenant),
  );
  app.post(
    `${path}/disconnect`,
    { schema: { tags, response: { 200: mailingStatus, ...errors } }, config: write },
    async (request) => {
      const { tenant } = requireAuth(request);
      await disconnectMailchimp(deps, tenant);
      return mailingStatusOf(deps, tenant);
    },
  );

  // Mailchimp sends the browser back here after its login; the one-time state names the company.
  app.get(
    mailchimpCallbackPath,
    {
      schema: {
        tags,
        querystring: z.object({
          code: z.string().max(2000).optional(),
          state: z.string().max(200).optional(),
          error: z.string().max(200).optional(),
        }),
      },
      config: { access: 'public' },
    },
    async (request, reply) => reply.redirect(await finishMailchimpOAuth(deps, request.query)),
  );

  // Mailchimp's webhooks are form posts (`type`, `fired_at`, `data[email]`, …); this plugin only.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  const webhook = {
    tags,
    params: z.object({ secret: z.string().min(1).max(200) }),
  };
  // Mailchimp checks a webhook's address with a GET when it is made: the secret must be ours.
  app.get(
    `${mailchimpWebhookPath}/:secret`,
    {
      schema: { ...webhook, response: { 200: z.object({ ok: z.boolean() }), ...errors } },
      config: { access: 'public' },
    },
    async (request) => {
      await receiveMailchimpWebhook(deps, request.params.secret, {});
      return { ok: true };
    },
  );
  app.post(
    `${mailchimpWebhookPath}/:secret`,
    {
      schema: {
        ...webhook,
        body: z.record(z.string(), z.string().max(2000)).optional(),
        response: { 200: z.object({ ok: z.boolean() }), ...errors },
      },
      config: { access: 'public' },
    },
    async (request) => {
      await receiveMailchimpWebhook(deps, request.params.secret, request.body ?? {});
      return { ok: true };
    },
  );
};
