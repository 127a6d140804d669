import { unsubscribeResponse } from '@tumble/contracts/communications';
import { errorResponse } from '@tumble/contracts/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '../../platform/errors.ts';
import { Tenant } from '../../platform/tenancy.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { unsubscribeByToken } from './consent.service.ts';

const tags = ['communications'];
const tokenParams = z.object({ token: z.string().min(1).max(200) });

/**
 * A family's unsubscribe from marketing mail, by the token in their link (consent.service.ts
 * `unsubscribeUrl`): the page's button posts to the API path; mail clients' one-click button
 * (RFC 8058) posts `List-Unsubscribe=One-Click` to the link itself, `/unsubscribe/<token>`, whose GET
 * is the SPA page. Both answer 200 and change nothing more when repeated.
 */
export const unsubscribeRoutes: FastifyPluginAsyncZod = async (app) => {
  // The one-click body is a form post; parsed here only (this plugin's routes).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  const unsubscribe = async (token: string) => {
    const done = await unsubscribeByToken(app.deps.database.db, token);
    if (!done) throw new NotFoundError('This unsubscribe link is not valid.');
    const company = await companyOf(app.deps.database.db, new Tenant(done.companyId));
    return { unsubscribed: true as const, company: company.name };
  };
  const schema = { tags, params: tokenParams, response: { 200: unsubscribeResponse, 404: errorResponse } };

  app.post('/api/v1/public/unsubscribe/:token', { schema, config: { access: 'public' } }, async (request) =>
    unsubscribe(request.params.token),
  );
  app.post('/unsubscribe/:token', { schema, config: { access: 'public' } }, async (request) =>
    unsubscribe(request.params.token),
  );
};
