import { errorResponse } from '@tumble/contracts/http';
import { billingProfileUpdate, billingProfileView } from '@tumble/contracts/invoices';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { BadRequestError } from '../../platform/errors.ts';
import {
  BILLING_LOGO_MAX_BYTES,
  deleteBillingLogo,
  getBillingProfile,
  replaceBillingLogo,
  saveBillingProfile,
} from './invoices.service.ts';

const tags = ['billing'];

/**
 * SPEC billing-profile: the company as the supplier on its tax invoices. A refused save answers 400
 * with the first field's message (the form checks the same schema first) and changes nothing.
 */
export const billingProfileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/admin/billing-profile',
    { schema: { tags, response: { 200: billingProfileView } }, config: { access: 'billing.read' } },
    async (request) => getBillingProfile(app.deps, requireAuth(request).tenant),
  );
  app.post(
    '/api/v1/admin/billing-profile',
    {
      schema: {
        tags,
        body: z.record(z.string(), z.unknown()),
        response: { 200: billingProfileView, 400: errorResponse },
      },
      config: { access: 'billing.write' },
    },
    async (request) =>
      saveBillingProfile(app.deps, requireAuth(request), billingProfileUpdate.parse(request.body)),
  );
  app.post(
    '/api/v1/admin/billing-profile/logo',
    {
      schema: {
        tags,
        consumes: ['multipart/form-data'],
        response: { 200: z.object({ logo: z.string() }), 400: errorResponse },
      },
      config: { access: 'billing.write' },
    },
    async (request) => {
      const file = request.isMultipart()
        ? await request.file({ limits: { fileSize: BILLING_LOGO_MAX_BYTES + 1, files: 1 } })
        : undefined;
      if (!file) throw new BadRequestError('Please choose an image to upload.');
      return replaceBillingLogo(app.deps, requireAuth(request), await file.toBuffer());
    },
  );
  app.delete(
    '/api/v1/admin/billing-profile/logo',
    { schema: { tags }, config: { access: 'billing.write' } },
    async (request, reply) => {
      await deleteBillingLogo(app.deps, requireAuth(request));
      return reply.code(204).send();
    },
  );
};
