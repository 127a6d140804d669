import { choosePlan, choosePlanResponse, subscriptionResponse } from '@tumble/contracts/platform';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../auth.ts';
import { BadRequestError } from '../errors.ts';
import { BillingSignatureError, installationBilling, type SubscriptionEvent } from './billing.ts';
import * as service from './subscriptions.service.ts';

const tags = ['platform'];

/** /admin/subscription: the company admin's plan, trial and usage, and picking a plan. */
export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.get(
    '/api/v1/admin/subscription',
    { schema: { tags, response: { 200: subscriptionResponse } }, config: { access: 'company.manage' } },
    async (request) => service.subscriptionPage(db, requireAuth(request).tenant),
  );
  app.post(
    '/api/v1/admin/subscription',
    {
      schema: { tags, body: choosePlan, response: { 200: choosePlanResponse } },
      config: { access: 'company.manage' },
    },
    async (request) => service.choosePlan(app.deps, requireAuth(request), request.body.plan_id),
  );
  // The dashboard's banner for a company over a limit of its plan (every staff member sees it).
  app.get(
    '/api/v1/admin/plan-limits',
    {
      schema: { tags, response: { 200: z.object({ over_limit: z.string().nullable() }) } },
      config: { access: 'admin.access' },
    },
    async (request) => ({ over_limit: await service.overLimitNotice(db, requireAuth(request).tenant) }),
  );
};

/** Stripe Billing's webhooks for the installation's own account (raw body: the signature is over it). */
export const subscriptionWebhookRoutes: FastifyPluginAsync = async (app) => {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  app.post(
    '/integrations/installation-stripe/webhook',
    { config: { access: 'public', rateLimit: false } },
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) throw new BadRequestError('Expected a JSON body.');
      const billing = installationBilling(app.deps.config);
      if (billing.name !== 'stripe')
        return reply.code(400).send({ message: 'Stripe Billing is not set up on this installation.' });
      let event: SubscriptionEvent | null;
      try {
        const signature = request.headers['stripe-signature'];
        event = billing.parseWebhook(request.body, typeof signature === 'string' ? signature : undefined);
      } catch (error) {
        if (error instanceof BillingSignatureError) return reply.code(400).send({ message: error.message });
        throw error;
      }
      if (event) await service.applySubscriptionEvent(app.deps.database.db, 'stripe', event);
      // 200 for events we do not handle too, so Stripe stops retrying them.
      return { received: true };
    },
  );
};
